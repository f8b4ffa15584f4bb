import type { PluginDeclaration } from "../plugins.ts";
import type { Warning } from "../source/parsed_file.ts";
import { compareText } from "../util/compare.ts";
import { contentPath, stem } from "../util/path.ts";
import { OWN_NAMES, ownFolderOf } from "../source/select.ts";

/** A file placed in its plugin's hierarchy. */
export interface TreeNode<F extends { readonly path: string }> {
  readonly file: F;
  /**
   * The item's key, relative to the plugin folder: its path without
   * extension, or a folder's path for a folder's own file.
   */
  readonly key: string;
  /** 1 for top-level items; folders count, whether they have an own file or not. */
  readonly depth: number;
  /** The nearest ancestor item's key, or `""` at the top. */
  readonly parentKey: string;
  /**
   * The folders between the parent (or the plugin folder) and the item that
   * have no own file: path segments of its `uri`, and its place among its
   * siblings (SPEC 3, 5).
   */
  readonly folders: readonly string[];
}

/** How {@link placeFiles} places files. */
export interface PlaceOptions<F> {
  /** The plugin folder, relative to the content root (warnings name files with it). */
  readonly prefix: string;
  /** `keep` (default): a folder without an own file is a path segment; `skip`: it is left out. */
  readonly orphans?: "keep" | "skip";
  /** Whether a file is a draft (a non-draft wins over a draft for the same item). */
  readonly isDraft?: (file: F) => boolean;
  /**
   * Told of each file left out, with its key and why; for a file in a
   * folder without its own file (`orphans: skip`), that folder (as warnings
   * name it, with a trailing `/`).
   */
  readonly onExcluded?: (file: F, key: string, reason: PlaceReason, folder?: string) => void;
}

/** Why {@link placeFiles} leaves a file out. */
export type PlaceReason =
  | "duplicate uri"
  | "orphan folder"
  | "too deep"
  | "partial"
  | "not a page";

/**
 * Places one plugin's files in their hierarchy (SPEC 3):
 *
 * - a folder `x/` has at most one own file, the first of `x.md` beside it,
 *   `x/index.*`, `x/_index.*`, `x/README.*` (a non-draft before a draft):
 *   the item of the folder, and the parent of what is inside; the other
 *   candidates are left out with a warning naming both files;
 * - a folder without an own file is a path segment: what is inside hangs
 *   from the nearest ancestor item (with `orphans: skip`, it is left out,
 *   with one warning naming the folder);
 * - files deeper than the plugin allows are left out with a warning.
 *
 * Returns nodes in path order.
 *
 * @example
 * ```ts
 * import { placeFiles } from "./tree.ts";
 * import { PLUGINS } from "../plugins.ts";
 * const nodes = placeFiles(
 *   [{ path: "a.md" }, { path: "a/b.md" }, { path: "guides/c/index.md" }],
 *   PLUGINS.docs,
 *   [],
 *   { prefix: "docs" },
 * );
 * nodes.map((n) => [n.key, n.parentKey, n.folders]);
 * // [["a", "", []], ["a/b", "a", []], ["guides/c", "", ["guides"]]]
 * ```
 */
export function placeFiles<F extends { readonly path: string }>(
  files: readonly F[],
  plugin: PluginDeclaration,
  warnings: Warning[],
  options: PlaceOptions<F>,
): TreeNode<F>[] {
  const { prefix, isDraft = () => false, onExcluded } = options;
  // Every file's key and its rank among the candidates for that key.
  const candidates = new Map<string, { file: F; rank: number }[]>();
  for (const file of files) {
    const own = ownFolderOf(file.path);
    const slash = file.path.lastIndexOf("/");
    const key = own ?? file.path.slice(0, slash + 1) + stem(file.path.slice(slash + 1));
    const rank = own === undefined ? 0 : 1 + OWN_NAMES.indexOf(stem(file.path.slice(slash + 1)));
    const list = candidates.get(key);
    if (list) list.push({ file, rank });
    else candidates.set(key, [{ file, rank }]);
  }
  const byKey = new Map<string, F>();
  for (const [key, list] of candidates) {
    list.sort((a, b) =>
      Number(isDraft(a.file)) - Number(isDraft(b.file)) || a.rank - b.rank ||
      compareText(a.file.path, b.file.path)
    );
    const [winner, ...losers] = list;
    byKey.set(key, winner.file);
    for (const loser of losers) {
      const why = loser.rank === 0 && winner.rank === 0
        ? "the first in path order is kept"
        : `a folder has one own file: ${key}.md, else ${key}/index, _index or README`;
      warnings.push({
        file: contentPath(prefix, loser.file.path),
        message: `same item as ${contentPath(prefix, winner.file.path)} (${why}); left out`,
        reason: "duplicate uri",
      });
      onExcluded?.(loser.file, key, "duplicate uri");
    }
  }

  const reported = new Set<string>();
  const nodes: TreeNode<F>[] = [];
  for (const [key, file] of byKey) {
    // The nearest ancestor with an item; the folders passed on the way have none.
    const folders: string[] = [];
    let parentKey = "";
    for (let at = key.lastIndexOf("/"); at > 0; at = key.lastIndexOf("/", at - 1)) {
      const ancestor = key.slice(0, at);
      if (byKey.has(ancestor)) {
        parentKey = ancestor;
        break;
      }
      folders.unshift(ancestor.slice(ancestor.lastIndexOf("/") + 1));
    }
    if (folders.length > 0 && options.orphans === "skip") {
      // Report only the topmost folder that lacks its own file.
      const top = parentKey ? `${parentKey}/${folders[0]}` : folders[0];
      const folder = `${contentPath(prefix, top)}/`;
      onExcluded?.(file, key, "orphan folder", folder);
      if (!reported.has(top)) {
        reported.add(top);
        warnings.push({
          file: folder,
          message: `folder has no file of its own (${
            folders[0]
          }.md, or index, _index or README inside), so it is not content (orphans: skip); its files are left out`,
          reason: "orphan folder",
        });
      }
      continue;
    }
    const depth = depthOf(key);
    if (depth > plugin.maxDepth) {
      warnings.push({
        file: contentPath(prefix, file.path),
        message: `deeper than the ${plugin.maxDepth} levels ${plugin.type} allows; left out`,
        reason: "too deep",
      });
      onExcluded?.(file, key, "too deep");
      continue;
    }
    nodes.push({ file, key, depth, parentKey, folders });
  }
  return nodes.sort((a, b) => compareText(a.file.path, b.file.path));
}

function depthOf(key: string): number {
  let depth = 1;
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) === 47) depth++;
  return depth;
}
