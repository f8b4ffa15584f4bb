import type { FileFields } from "../fields/derive.ts";
import type { IndexedFile } from "../fields/indexed_file.ts";
import { categoryAt, type PluginDeclaration } from "../plugins.ts";
import type { Warning } from "../source/parsed_file.ts";
import { compareText } from "../util/compare.ts";
import { shortHash } from "../util/hash.ts";
import { contentPath } from "../util/path.ts";
import { slugify } from "../util/slugify.ts";
import { compareSiblings } from "./order.ts";
import { placeFiles, type TreeNode } from "./tree.ts";

/** One plugin's served items as a forest, with the files and warnings it came from. */
export interface PluginTree {
  /** The plugin's files, in the order they came (a build with the same files reuses the tree). */
  readonly files: readonly IndexedFile[];
  /** The plugin's folder, relative to the content root. */
  readonly prefix: string;
  /** How folders without an own file were placed. */
  readonly orphans: "keep" | "skip";
  /** The top-level served items, each with its served children, siblings in order. */
  readonly roots: readonly Placed[];
  /** What placing the files and deriving their fields found wrong. */
  readonly warnings: readonly Warning[];
}

export interface Placed {
  /** An item placed in its tree: its `id`, `file` and feed eligibility fixed, its children to sort. */
  id: string;
  file: string;
  eligible: boolean;
  node: TreeNode<IndexedFile>;
  fields: FileFields;
  plugin: PluginDeclaration;
  uri: string;
  draft: boolean;
  time: number;
  parent: Placed | undefined;
  children: Placed[];
  /** The children's ids, once they are sorted. */
  childIds: readonly string[];
}

const NO_IDS: readonly string[] = Object.freeze([]);

/** Folder paths segment by segment: none first, a folder before what is below it. */
function compareFolders(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareText(a[i], b[i]);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

/**
 * One plugin's served items as a forest (SPEC 3, 5): files placed in their
 * hierarchy, `uri` clashes settled (a non-draft wins over a draft, else the
 * first in path order), drafts and what they hide left out, siblings
 * ordered, academy times summed.
 *
 * @example
 * ```ts
 * import { pluginTree } from "./plugin_tree.ts";
 * import { indexFile } from "../fields/indexed_file.ts";
 * import { PLUGINS } from "../plugins.ts";
 * const file = (path: string) =>
 *   indexFile({ plugin: "docs", path, checksum: "00", mtime: 0, attrs: {}, body: "x" }, `docs/${path}`);
 * const tree = pluginTree([file("a.md"), file("a/b.md")], PLUGINS.docs, "docs");
 * tree.roots[0].children[0].uri; // "a/b"
 * ```
 */
export function pluginTree(
  files: readonly IndexedFile[],
  plugin: PluginDeclaration,
  prefix: string,
  orphans: "keep" | "skip" = "keep",
): PluginTree {
  const warnings: Warning[] = [];
  const nodes = placeFiles(files, plugin, warnings, {
    prefix,
    orphans,
    isDraft: (file) => file.fields.draft,
  });
  const byKey = new Map<string, Placed>();
  const roots: Placed[] = [];
  const uris = new Map<string, Placed>();
  // Parents before children, and within a level path order, so the first in path order wins a clash.
  const ordered = [...nodes].sort((a, b) =>
    a.depth - b.depth || compareText(a.file.path, b.file.path)
  );
  for (const node of ordered) {
    const parent = node.parentKey ? byKey.get(node.parentKey) : undefined;
    if (node.parentKey && !parent) continue; // its parent lost a clash
    const fields = node.file.fields;
    warnings.push(...node.file.warnings);
    // A folder without an own file adds its name to the uri of what is inside (SPEC 3).
    const segments = node.folders.map((name, i) => {
      const folder = [node.parentKey, ...node.folders.slice(0, i + 1)].filter(Boolean).join("/");
      return slugify(name) || `folder-${shortHash(folder)}`;
    });
    const path = [...segments, fields.slug].join("/");
    const uri = parent ? `${parent.uri}/${path}` : path;
    const isDraft = fields.draft || (parent?.draft ?? false);
    const clash = uris.get(uri);
    // A non-draft wins over a draft, else the first in path order (SPEC 3):
    // a draft that takes a published file's slug never hides it.
    if (clash && !(clash.draft && !isDraft)) {
      warnings.push({
        file: contentPath(prefix, node.file.path),
        message: `same uri '${uri}' as ${contentPath(prefix, clash.node.file.path)} (${
          clash.draft === isDraft ? "the first in path order is kept" : "a draft loses to it"
        }); left out`,
        reason: "duplicate uri",
      });
      continue;
    }
    if (clash) {
      warnings.push({
        file: clash.file,
        message: `same uri '${uri}' as ${
          contentPath(prefix, node.file.path)
        } (a draft loses to it); left out`,
        reason: "duplicate uri",
      });
    }
    const draft: Placed = {
      id: `${plugin.type}_${categoryAt(plugin, node.depth)}_${uri.replaceAll("/", "_")}`,
      file: contentPath(prefix, node.file.path),
      eligible: fields.hasBody && fields.indexable,
      node,
      fields,
      plugin,
      uri,
      draft: isDraft,
      time: fields.time,
      parent,
      children: [],
      childIds: [],
    };
    uris.set(uri, draft);
    byKey.set(node.key, draft);
    if (draft.draft) continue; // a draft hides its subtree: its children find no parent
    if (parent) parent.children.push(draft);
    else roots.push(draft);
  }
  const sortAndSum = (list: Placed[]) => {
    // Items in folders without an own file come after their siblings, a
    // folder's items in its place, folders among themselves by path (SPEC 5).
    list.sort((a, b) =>
      compareFolders(a.node.folders, b.node.folders) ||
      compareSiblings(a.fields, a.node.file.path, b.fields, b.node.file.path)
    );
    for (const d of list) {
      sortAndSum(d.children);
      d.childIds = d.children.length ? d.children.map((c) => c.id) : NO_IDS;
      if (plugin.sumsTime && d.children.length > 0 && !d.fields.timeSet) {
        d.time = d.children.reduce((sum, c) => sum + c.time, 0);
      }
    }
  };
  sortAndSum(roots);
  return { files, prefix, orphans, roots, warnings };
}
