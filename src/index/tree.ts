import type { PluginDeclaration } from "../plugins.ts";
import type { Warning } from "../source/parsed_file.ts";
import { compareText } from "../util/compare.ts";
import { stem } from "../util/path.ts";

/** A file placed in its plugin's hierarchy. */
export interface TreeNode<F extends { readonly path: string }> {
  readonly file: F;
  /** Path without extension, relative to the plugin folder: the key children hang from. */
  readonly key: string;
  /** 1 for top-level files. */
  readonly depth: number;
  /** The parent's key, or `""` at the top. */
  readonly parentKey: string;
}

/**
 * Places one plugin's files in their hierarchy (SPEC 3): a file `x.md` and a
 * folder `x/` beside it make `x` the parent of what is inside. Files in a
 * folder without a file of its own name are left out with one warning naming
 * the folder; files deeper than the plugin allows are left out with a
 * warning; of two files with the same path but for the extension, the first
 * in path order stays. Returns nodes in path order; `prefix` is the plugin
 * folder, for warnings.
 *
 * @example
 * ```ts
 * import { placeFiles } from "./tree.ts";
 * import { PLUGINS } from "../plugins.ts";
 * const nodes = placeFiles([{ path: "a.md" }, { path: "a/b.md" }], PLUGINS.docs, "docs", []);
 * nodes.map((n) => n.parentKey); // ["", "a"]
 * ```
 */
export function placeFiles<F extends { readonly path: string }>(
  files: readonly F[],
  plugin: PluginDeclaration,
  prefix: string,
  warnings: Warning[],
): TreeNode<F>[] {
  const sorted = [...files].sort((a, b) => compareText(a.path, b.path));
  const byKey = new Map<string, F>();
  for (const file of sorted) {
    const slash = file.path.lastIndexOf("/");
    const key = file.path.slice(0, slash + 1) + stem(file.path.slice(slash + 1));
    const first = byKey.get(key);
    if (first) {
      warnings.push({
        file: `${prefix}/${file.path}`,
        message: `same item as ${prefix}/${first.path} (the first in path order is kept); left out`,
      });
    } else byKey.set(key, file);
  }
  const placed = new Set<string>();
  const reported = new Set<string>();
  const nodes: TreeNode<F>[] = [];
  const keys = [...byKey.keys()].map((key) => ({ key, depth: depthOf(key) }))
    .sort((a, b) => a.depth - b.depth || compareText(a.key, b.key));
  for (const { key, depth } of keys) {
    const file = byKey.get(key)!;
    const parentKey = key.slice(0, Math.max(key.lastIndexOf("/"), 0));
    if (parentKey && !placed.has(parentKey)) {
      // Report only the topmost folder that lacks its file.
      if (!byKey.has(parentKey) && !hasReportedAncestor(parentKey, reported)) {
        reported.add(parentKey);
        warnings.push({
          file: `${prefix}/${parentKey}/`,
          message: `folder has no file of its own name (${
            parentKey.slice(parentKey.lastIndexOf("/") + 1)
          }.md), so it is not content; its files are left out`,
        });
      }
      continue;
    }
    if (depth > plugin.maxDepth) {
      warnings.push({
        file: `${prefix}/${file.path}`,
        message: `deeper than the ${plugin.maxDepth} levels ${plugin.type} allows; left out`,
      });
      continue;
    }
    placed.add(key);
    nodes.push({ file, key, depth, parentKey });
  }
  return nodes.sort((a, b) => compareText(a.file.path, b.file.path));
}

function hasReportedAncestor(key: string, reported: Set<string>): boolean {
  for (let i = key.lastIndexOf("/"); i > 0; i = key.lastIndexOf("/", i - 1)) {
    if (reported.has(key.slice(0, i))) return true;
  }
  return false;
}

function depthOf(key: string): number {
  let depth = 1;
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) === 47) depth++;
  return depth;
}
