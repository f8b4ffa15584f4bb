import type { FileFields, NotIndexable } from "../fields/derive.ts";
import type { IndexedFile } from "../fields/indexed_file.ts";
import { categoryAt, type PluginDeclaration } from "../plugins.ts";
import type { Warning } from "../source/parsed_file.ts";
import { compareText } from "../util/compare.ts";
import { shortHash } from "../util/hash.ts";
import { contentPath, stem } from "../util/path.ts";
import { OWN_NAMES } from "../source/select.ts";
import type { Steps } from "../util/next_turn.ts";
import { slugify } from "../util/slugify.ts";
import { compareSiblings } from "./order.ts";
import { placeFiles, type PlaceReason, type TreeNode } from "./tree.ts";

/** One plugin's served items as a forest, with the files and warnings it came from. */
export interface PluginTree {
  /** The plugin's files, in the order they came (a build with the same files reuses the tree). */
  readonly files: readonly IndexedFile[];
  /** The plugin's folder, relative to the content root. */
  readonly prefix: string;
  /** How folders without an own file were placed. */
  readonly orphans: "keep" | "skip";
  /** What its items' `uri` starts with (a variant's prefix, SPEC 16.3). */
  readonly uriPrefix: string | undefined;
  /** The top-level served items, each with its served children, siblings in order. */
  readonly roots: readonly Placed[];
  /** What placing the files and deriving their fields found wrong. */
  readonly warnings: readonly Warning[];
  /** Each file whose item is not served, or not in the feed, and why; in path order. */
  readonly excluded: readonly TreeExclusion[];
}

/** Why a file's item is not served, or not in the feed (SPEC 15's reasons). */
export type TreeReason = PlaceReason | NotIndexable;

/** A file of a plugin whose item no route serves, or that the feed leaves out. */
export interface TreeExclusion {
  /** The file, relative to the content root. */
  readonly file: string;
  /** Why: its own reason, or the one of what hides it. */
  readonly reason: TreeReason;
  /** `tree`: no item is served; `feed`: the item is served, not in the feed. */
  readonly stage: "tree" | "feed";
  /**
   * The file or folder that hides this one, when it is left out for being
   * below it: a draft, an orphan folder (`docs/loose/`), an item that lost a
   * clash or is too deep.
   */
  readonly hiddenBy?: string;
}

/** An exclusion while the tree is made: its own reason, or the key of the item it is below. */
interface Hiding {
  readonly file: string;
  reason?: TreeReason;
  hiddenBy?: string;
  under?: string;
  readonly stage: "tree" | "feed";
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
  /** Its `uri` within its variant: without the variant's prefix (the page's path in every variant). */
  own: string;
  draft: boolean;
  time: number;
  parent: Placed | undefined;
  children: Placed[];
  /** The children's ids, once they are sorted. */
  childIds: readonly string[];
  /** The id the same page has, or would have, in the plugin's default variant (SPEC 16.3). */
  variantOf: string | null;
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

/** How many files {@link pluginTreeSteps} places between two `yield`s. */
const NODES_PART = 2000;

/**
 * One plugin's served items as a forest (SPEC 3, 5): files placed in their
 * hierarchy, `uri` clashes settled (a non-draft wins over a draft, else the
 * first in path order), drafts and what they hide left out, siblings
 * ordered, academy times summed. Written as steps, with a `yield` between
 * its parts (the placing, each {@link NODES_PART} files, the sorting, the
 * exclusions): `buildIndexInTurns` gives a turn at each, `buildIndexFrom`
 * runs them at once.
 *
 * @example
 * ```ts
 * import { pluginTreeSteps } from "./plugin_tree.ts";
 * import { indexFile } from "../fields/index_file.ts";
 * import { PLUGINS } from "../plugins.ts";
 * import { runSteps } from "../util/next_turn.ts";
 * const file = (path: string) =>
 *   indexFile({ plugin: "docs", path, checksum: "00", mtime: 0, attrs: {}, body: "x" }, `docs/${path}`);
 * const tree = runSteps(pluginTreeSteps([file("a.md"), file("a/b.md")], PLUGINS.docs, "docs"));
 * tree.roots[0].children[0].uri; // "a/b"
 * ```
 */
export function* pluginTreeSteps(
  files: readonly IndexedFile[],
  plugin: PluginDeclaration,
  prefix: string,
  orphans: "keep" | "skip" = "keep",
  variant: {
    readonly uriPrefix?: string;
    readonly variant?: boolean;
    readonly variantOfPrefix?: string;
    readonly nested?: boolean;
    readonly leafBundles?: boolean;
  } = {},
): Steps<PluginTree> {
  const warnings: Warning[] = [];
  const hidings: Hiding[] = [];
  /** Each key without a served item, and why (what is below it inherits it). */
  const hidden = new Map<string, Hiding>();
  const hide = (key: string | undefined, hiding: Hiding) => {
    hidings.push(hiding);
    if (key !== undefined) hidden.set(key, hiding);
  };
  const bundles = variant.leafBundles ? leafBundlesOf(files) : undefined;
  // A partial or a page the generator does not publish is no item, and no folder's own file.
  const pages = files.filter((file) => {
    const notPage = file.fields.notPage ??
      (bundles && inLeafBundle(file.path, bundles) ? "not a page" : undefined);
    if (notPage === undefined) return true;
    hide(undefined, { file: contentPath(prefix, file.path), reason: notPage, stage: "tree" });
    return false;
  });
  const nodes = placeFiles(pages, plugin, warnings, {
    prefix,
    orphans,
    isDraft: (file) => file.fields.draft,
    onExcluded: (file, key, reason, folder) =>
      // A file that lost its key to another leaves the key to the winner.
      hide(reason === "duplicate uri" ? undefined : key, {
        file: contentPath(prefix, file.path),
        reason,
        hiddenBy: folder,
        stage: "tree",
      }),
  });
  yield;
  const byKey = new Map<string, Placed>();
  const roots: Placed[] = [];
  const uris = new Map<string, Placed>();
  // Parents before children, and within a level path order, so the first in path order wins a clash.
  const ordered = [...nodes].sort((a, b) =>
    a.depth - b.depth || compareText(a.file.path, b.file.path)
  );
  let placed = 0;
  for (const node of ordered) {
    if (++placed % NODES_PART === 0) yield;
    const parent = node.parentKey ? byKey.get(node.parentKey) : undefined;
    const file = contentPath(prefix, node.file.path);
    if (node.parentKey && !parent) {
      // Its parent is not served (it lost a clash, it is too deep or in an orphan folder).
      hide(node.key, { file, under: node.parentKey, stage: "tree" });
      continue;
    }
    const fields = node.file.fields;
    warnings.push(...node.file.warnings);
    // A folder without an own file adds its name to the uri of what is inside (SPEC 3).
    const segments = node.folders.map((name, i) => {
      const folder = [node.parentKey, ...node.folders.slice(0, i + 1)].filter(Boolean).join("/");
      return slugify(name) || `folder-${shortHash(folder)}`;
    });
    const path = [...segments, fields.slug].join("/");
    // A variant's items (SPEC 16.3) start with its prefix: ids stay unique across variants.
    const own = parent ? `${parent.own}/${path}` : path;
    // The root page (`index.*`, `README.*`) of a variant whose folder sits inside the
    // default's (Starlight's `fr/`) is that folder's own file: its uri is the prefix.
    const rootPage = variant.nested === true && variant.uriPrefix !== undefined && !parent &&
      node.folders.length === 0 &&
      !node.file.path.includes("/") && OWN_NAMES.includes(stem(node.file.path));
    const uri = rootPage
      ? variant.uriPrefix!
      : variant.uriPrefix
      ? `${variant.uriPrefix}/${own}`
      : own;
    const isDraft = fields.draft || (parent?.draft ?? false);
    const clash = uris.get(uri);
    // A non-draft wins over a draft, else the first in path order (SPEC 3):
    // a draft that takes a published file's slug never hides it.
    if (clash && !(clash.draft && !isDraft)) {
      warnings.push({
        file,
        message: `same uri '${uri}' as ${contentPath(prefix, clash.node.file.path)} (${
          clash.draft === isDraft ? "the first in path order is kept" : "a draft loses to it"
        }); left out`,
        reason: "duplicate uri",
      });
      hide(node.key, { file, reason: "duplicate uri", stage: "tree" });
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
      // The draft it displaces was hidden for a draft; it is left out for the clash now.
      Object.assign(hidden.get(clash.node.key)!, { reason: "duplicate uri", under: undefined });
    }
    const category = categoryAt(plugin, node.depth);
    const draft: Placed = {
      id: `${plugin.type}_${category}_${uri.replaceAll("/", "_")}`,
      own,
      variantOf: variant.variant
        ? `${plugin.type}_${category}_${
          (rootPage && variant.variantOfPrefix
            ? variant.variantOfPrefix
            : variant.variantOfPrefix
            ? `${variant.variantOfPrefix}/${own}`
            : own).replaceAll("/", "_")
        }`
        : null,
      file,
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
    if (draft.draft) {
      // A draft hides its subtree: its children find a draft parent.
      const own = fields.draft ? { reason: "draft" as const } : { under: node.parentKey };
      hide(node.key, { file, ...own, stage: "tree" });
      continue;
    }
    // Served, not in the feed (SPEC 5): why it is not indexable, else (it is) for want of a body.
    if (!draft.eligible) {
      hide(undefined, { file, reason: fields.unindexed ?? "empty body", stage: "feed" });
    }
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
  yield;
  sortAndSum(roots);
  yield;
  return {
    files,
    prefix,
    orphans,
    uriPrefix: variant.uriPrefix,
    roots,
    warnings,
    excluded: resolveHidings(hidings, hidden),
  };
}

/**
 * The exclusions with every inherited reason resolved (what hides an item
 * hides what is below it, for the same reason), in path order.
 */
function resolveHidings(
  hidings: readonly Hiding[],
  hidden: ReadonlyMap<string, Hiding>,
): TreeExclusion[] {
  const resolve = (hiding: Hiding): Hiding => {
    if (hiding.under === undefined) return hiding;
    // Every key an item is below was hidden before it (parents come first).
    const above = resolve(hidden.get(hiding.under)!);
    hiding.reason = above.reason;
    hiding.hiddenBy = above.hiddenBy ?? above.file;
    hiding.under = undefined;
    return hiding;
  };
  return hidings.map((hiding) => {
    const { file, reason, hiddenBy, stage } = resolve(hiding);
    return { file, reason: reason!, stage, ...(hiddenBy === undefined ? {} : { hiddenBy }) };
  }).sort((a, b) => compareText(a.file, b.file));
}

/** The folders of Hugo's leaf bundles: those with an `index.*` page (`_index.*` is a section's). */
function leafBundlesOf(files: readonly IndexedFile[]): Set<string> {
  const folders = new Set<string>();
  for (const file of files) {
    const slash = file.path.lastIndexOf("/");
    if (isBundleIndex(file.path.slice(slash + 1)) && !file.fields.notPage) {
      folders.add(slash < 0 ? "" : file.path.slice(0, slash));
    }
  }
  return folders;
}

/** A bundle's page: `index.md`, or a translation's `index.de.md`. */
function isBundleIndex(name: string): boolean {
  return /^index(\.[\w-]+)?$/i.test(stem(name));
}

/** Whether a file is a resource of a leaf bundle: in a bundle's folder or below it, not its index. */
function inLeafBundle(path: string, bundles: ReadonlySet<string>): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const own = path.slice(0, Math.max(0, path.lastIndexOf("/")));
  if (bundles.has(own) && isBundleIndex(name)) return false;
  // The plugin's own folder as a bundle (a `content/index.md`) is the home page, not a bundle.
  for (
    let folder = own;
    folder !== "";
    folder = folder.slice(0, Math.max(0, folder.lastIndexOf("/")))
  ) {
    if (bundles.has(folder)) return true;
  }
  return false;
}
