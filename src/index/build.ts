import type { IndexedFile } from "../fields/indexed_file.ts";
import { PLUGINS } from "../plugins.ts";
import type { Warning } from "../source/parsed_file.ts";
import { formatTimestamp } from "../util/dates.ts";
import { runSteps, runStepsInTurns, type Steps } from "../util/next_turn.ts";
import type { Item, Tag } from "./item.ts";
import { eachFiling } from "./filing.ts";
import { keepsItem, sameList } from "./kept_item.ts";
import { withLookups } from "./lookups.ts";
import { newItem } from "./new_item.ts";
import { patchIndex } from "./patch_index.ts";
import { type Placed, type PluginTree, pluginTreeSteps } from "./plugin_tree.ts";
import { type IndexSettings, pluginOf } from "./settings.ts";
import { duplicateUrls, vocabularyOf } from "./vocabulary.ts";

// The settings live beside the index; they are named here too, where the index is.
export { type IndexSettings, indexSettings, type PluginSettings } from "./settings.ts";

/**
 * The content index: an immutable value built once per content version and
 * swapped in one assignment. Everything a request needs is here; the
 * lookups `byId`, `feedById`, `byUrl` and `tags` are made on their first use.
 */
export interface Index {
  /** What the index keeps of the configuration. */
  readonly settings: IndexSettings;
  /** Epoch ms of the build; `meta.generated` and `Last-Modified`. */
  readonly builtAt: number;
  /** `builtAt` as `YYYY-MM-DD HH:MM:SS` UTC. */
  readonly generated: string;
  /** Every served (non-draft) item: plugins in config order, depth-first. */
  readonly items: readonly Item[];
  /** The feed-eligible items, in feed order. */
  readonly feed: readonly Item[];
  /** Each feed item's position in `feed` (a page copies its items' bytes out of the full feed's). */
  readonly feedPlace: ReadonlyMap<Item, number>;
  /** Served items by `type/uri`. */
  readonly byPath: ReadonlyMap<string, Item>;
  /** Every served item (the item routes' items) by id. */
  readonly byId: ReadonlyMap<string, Item>;
  /** Feed items by id (the `since` answer names ids). */
  readonly feedById: ReadonlyMap<string, Item>;
  /** Served items by the path of their root-relative `url`, without slashes at either end. */
  readonly byUrl: ReadonlyMap<string, Item>;
  /** The feed's tags with their counts, most used first, then by name. */
  readonly tags: readonly {
    readonly name: string;
    readonly slug: string;
    readonly count: number;
  }[];
  /** Enabled types and their categories, for validation messages. */
  readonly types: readonly string[];
  /** The categories of the enabled plugins. */
  readonly categories: readonly string[];
  /** The locales of the site's items (SPEC 16.3), the default first; none where it has none. */
  readonly langs: readonly string[];
  /** The versions of the site's items (SPEC 16.3); none where it has none. */
  readonly versions: readonly string[];
  /** Feed items by filter value, each list in feed order. */
  readonly lists: {
    readonly type: ReadonlyMap<string, readonly Item[]>;
    readonly category: ReadonlyMap<string, readonly Item[]>;
    readonly tag: ReadonlyMap<string, readonly Item[]>;
    readonly author: ReadonlyMap<string, readonly Item[]>;
    readonly year: ReadonlyMap<string, readonly Item[]>;
  };
  /** Served items per plugin, in config order (the start-up line). */
  readonly counts: readonly {
    readonly plugin: string;
    readonly items: number;
    readonly feed: number;
  }[];
  /** What the load and the build found wrong, in the order found. */
  readonly warnings: readonly Warning[];
  /**
   * What the next build may take over when its files are the same objects
   * (see {@link BuildOptions.previous}): each file's item, and each plugin's
   * tree. Bounded by the index itself.
   */
  readonly reuse: { readonly kind: "index-reuse" };
}

/**
 * What one build hands to the next (each file's item, each plugin's tree):
 * opaque outside the build, and bounded by the index itself.
 */
export type IndexReuse = Index["reuse"];

/** What {@link IndexReuse} holds (read by the build, `patch_index.ts` and `exclusions.ts`). */
export interface Reuse extends IndexReuse {
  /** The item built from each file. */
  readonly items: ReadonlyMap<IndexedFile, Item>;
  /** Each plugin's forest, and the files it was built from. */
  readonly trees: ReadonlyMap<string, PluginTree>;
  /** The file of each item, in the order of `Index.items`. */
  readonly files: readonly IndexedFile[];
  /** The feed's tag counts the items' tags were made with. */
  readonly tagCounts: ReadonlyMap<string, number>;
  /** What `duplicateUrls` found in the items. */
  readonly duplicates: readonly Warning[];
}

/** Options of {@link buildIndexFrom}. */
export interface BuildOptions {
  /**
   * The index built last: a plugin whose files are the same objects in the
   * same order keeps its tree, and an item whose inputs did not change keeps
   * its object, so a re-index after one file changed rebuilds one plugin.
   */
  readonly previous?: Index;
  /** Warnings found before the build (by the load), first in `warnings`. */
  readonly warnings?: readonly Warning[];
}

/**
 * Builds an {@link Index} (SPEC 3–5) from files whose fields were derived
 * (the loader's, without a body; a snapshot's, with one) and the load's
 * warnings: what the pipeline and snapshots build from. Pure: the clock
 * comes in as `builtAt`, what an earlier build made comes in as
 * `previous`. (`build_parsed.ts`' `buildIndex` derives parsed files first.)
 *
 * @example
 * ```ts
 * import { buildIndexFrom } from "./build.ts";
 * const settings = {
 *   title: undefined, url: undefined, api: true, sitemap: false,
 *   plugins: [{ name: "docs", path: "docs" }],
 * };
 * const index = buildIndexFrom([], settings, 0, {
 *   warnings: [{ file: "docs/x.md", message: "binary file (NUL bytes); left out" }],
 * });
 * index.warnings.length; // 1
 * ```
 */
export function buildIndexFrom(
  files: readonly IndexedFile[],
  settings: IndexSettings,
  builtAt: number,
  options: BuildOptions = {},
): Index {
  return runSteps(indexSteps(files, settings, builtAt, options));
}

/**
 * {@link buildIndexFrom}, a part at a time: a turn of the event loop
 * between parts (the parts of each plugin's tree that is built again,
 * `pluginTreeSteps`, and each {@link ITEMS_PART} items), so a
 * server that serves while it builds (a restart serving its kept feed, a
 * reload) answers the requests that came meanwhile. The same index.
 *
 * @example
 * ```ts
 * import { buildIndexInTurns } from "./build.ts";
 * const settings = {
 *   title: undefined, url: undefined, api: true, sitemap: false,
 *   plugins: [{ name: "docs", path: "docs" }],
 * };
 * const index = await buildIndexInTurns([], settings, 0);
 * index.items.length; // 0
 * ```
 */
export function buildIndexInTurns(
  files: readonly IndexedFile[],
  settings: IndexSettings,
  builtAt: number,
  options: BuildOptions = {},
): Promise<Index> {
  return runStepsInTurns(indexSteps(files, settings, builtAt, options));
}

/** How many items {@link buildIndexInTurns} makes between two turns. */
export const ITEMS_PART = 1000;

/** The build, with a `yield` where a turn may be given. */
function* indexSteps(
  files: readonly IndexedFile[],
  settings: IndexSettings,
  builtAt: number,
  options: BuildOptions,
): Steps<Index> {
  const previous = options.previous?.reuse as Reuse | undefined;
  const warnings: Warning[] = [...options.warnings ?? []];
  const byPlugin = new Map<string, IndexedFile[]>();
  for (const file of files) {
    const list = byPlugin.get(file.plugin);
    if (list) list.push(file);
    else byPlugin.set(file.plugin, [file]);
  }
  const served: Placed[] = [];
  const counts: { plugin: string; items: number; feed: number }[] = [];
  const trees = new Map<string, PluginTree>();
  for (const settingsOf of settings.plugins) {
    const { name, path, orphans } = settingsOf;
    const plugin = PLUGINS[pluginOf(settingsOf)];
    const pluginFiles = byPlugin.get(name) ?? [];
    const last = previous?.trees.get(name);
    const tree = last && last.prefix === path && last.orphans === (orphans ?? "keep") &&
        last.uriPrefix === settingsOf.uriPrefix && sameList(last.files, pluginFiles)
      ? last
      : yield* pluginTreeSteps(pluginFiles, plugin, path, orphans, settingsOf);
    trees.set(name, tree);
    warnings.push(...tree.warnings);
    const before = served.length;
    const walk = (list: readonly Placed[]) => {
      for (const draft of list) {
        served.push(draft);
        walk(draft.children);
      }
    };
    walk(tree.roots);
    counts.push({ plugin: name, items: served.length - before, feed: 0 });
  }

  // A few items changed in place: the previous index with them replaced (SPEC 17).
  const patched = options.previous &&
    patchIndex(options.previous, served, trees, settings, builtAt, warnings, counts);
  if (patched) return patched;

  const tagCounts = new Map<string, number>();
  for (const d of served) {
    if (!d.eligible) continue;
    for (const tag of d.fields.tags) tagCounts.set(tag.slug, (tagCounts.get(tag.slug) ?? 0) + 1);
  }

  const tagObjects = new Map<string, Tag>();
  const items: Item[] = [];
  const feed: Item[] = [];
  const feedPlace = new Map<Item, number>();
  const byPath = new Map<string, Item>();
  const built = new Map<IndexedFile, Item>();
  const itemFiles: IndexedFile[] = [];
  const lists = {
    type: new Map<string, Item[]>(),
    category: new Map<string, Item[]>(),
    tag: new Map<string, Item[]>(),
    author: new Map<string, Item[]>(),
    year: new Map<string, Item[]>(),
  };
  const countOf = new Map(counts.map((c) => [c.plugin, c]));
  const pluginSettings = new Map(settings.plugins.map((p) => [p.name, p]));
  let made = 0;
  for (const d of served) {
    if (++made % ITEMS_PART === 0) yield;
    const parent = d.parent ? d.parent.id : null;
    // An item whose inputs did not change keeps its object (`file` fixes the derived fields).
    const old = previous?.items.get(d.node.file);
    const item = keepsItem(old, d, tagCounts) ? old : newItem(
      d,
      parent,
      tagCounts,
      tagObjects,
      pluginSettings.get(d.node.file.plugin)!,
      settings.siteUrl,
    );
    built.set(d.node.file, item);
    itemFiles.push(d.node.file);
    items.push(item);
    byPath.set(`${item.type}/${item.uri}`, item);
    if (!item.eligible) continue;
    countOf.get(d.node.file.plugin)!.feed++;
    feedPlace.set(item, feed.length);
    feed.push(item);
    eachFiling(item, (list, key) => add(lists[list], key, item));
  }
  yield;
  const duplicates = duplicateUrls(items);
  warnings.push(...duplicates);
  const { types, categories, langs, versions } = vocabularyOf(settings);
  return withLookups({
    settings,
    builtAt,
    generated: formatTimestamp(builtAt),
    items,
    feed,
    feedPlace,
    byPath,
    types,
    categories,
    langs,
    versions,
    lists,
    counts,
    warnings,
    reuse: reuse({
      kind: "index-reuse",
      items: built,
      trees,
      files: itemFiles,
      tagCounts,
      duplicates,
    }),
  });
}

/** What a build hands to the next, typed as the opaque {@link IndexReuse} it is outside. */
/**
 * The same index with another build time (`meta.generated`,
 * `Last-Modified`): a start that finds the content as a stopped server
 * served it takes that server's build time, so its answers, and their
 * ETags, are the same bytes (`service.ts`, SPEC 17). A copy of the index's
 * properties (its lookups stay lazy, and are shared with `index`).
 *
 * @example
 * ```ts
 * import { withBuiltAt } from "./build.ts";
 * import { buildIndex } from "./build_parsed.ts";
 * const index = buildIndex([], { title: undefined, url: undefined, api: true, sitemap: false,
 *   plugins: [] }, 0);
 * withBuiltAt(index, Date.UTC(2026, 10, 21, 9, 15, 2)).generated; // "2026-11-21 09:15:02"
 * ```
 */
export function withBuiltAt(index: Index, builtAt: number): Index {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(index));
  return Object.assign(copy, { builtAt, generated: formatTimestamp(builtAt) }) as Index;
}

function reuse(value: Reuse): IndexReuse {
  return value;
}

function add(map: Map<string, Item[]>, key: string, item: Item) {
  const list = map.get(key);
  if (list) {
    if (list[list.length - 1] !== item) list.push(item);
  } else map.set(key, [item]);
}
