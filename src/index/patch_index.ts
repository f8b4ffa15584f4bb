// A re-index after a few files changed, as a patch of the index before it
// (SPEC 17: a change rebuilds only what depends on it). When every served
// item stays where it was, with the same id, path, URL, feed eligibility,
// type, category, tags, authors and year, the new index is the previous one
// with those few items replaced: the item lists and maps are copied (a copy
// reads one table; a build reads every item, which at 100,000 items was
// most of a re-index), and only the filter lists that hold a replaced item
// are made again. Anything else (an item added, removed, moved, renamed or
// retagged) returns `undefined`, and the build makes the index whole.
// Differential tests hold the two to the same index.
import type { Warning } from "../source/parsed_file.ts";
import { formatTimestamp } from "../util/dates.ts";
import type { Index, IndexSettings, Reuse } from "./build.ts";
import type { Item, Tag } from "./item.ts";
import { type IndexLookups, madeLookups, withLookups } from "./lookups.ts";
import { newItem } from "./new_item.ts";
import type { Placed, PluginTree } from "./plugin_tree.ts";

/** Above this share of the items replaced (and 16), a whole build costs no more than the patch. */
const PATCH_AT_MOST = 1 / 16;

/**
 * The index `previous` was made for, with the items of `served` that
 * changed made again and put in their places; `undefined` when a change
 * moves, adds, removes, renames or retags an item (or changes too many).
 * `trees` are this build's forests, `served` their items in order;
 * `warnings` are the load's and the trees' (the duplicate URLs are the
 * previous index's: no URL or file changed); `counts` the trees' item
 * counts (the feed counts are the previous ones: no eligibility changed).
 *
 * @example
 * ```ts
 * import { buildIndexFrom } from "./build.ts";
 * const settings = { title: undefined, url: undefined, api: true, sitemap: false, plugins: [] };
 * const first = buildIndexFrom([], settings, 0);
 * // An index of the same (no) files is the previous one's items in a new index.
 * const next = buildIndexFrom([], settings, 1, { previous: first });
 * next.items.length; // 0
 * ```
 */
export function patchIndex(
  previous: Reuse,
  served: readonly Placed[],
  trees: ReadonlyMap<string, PluginTree>,
  settings: IndexSettings,
  builtAt: number,
  warnings: Warning[],
  counts: readonly { plugin: string; items: number; feed: number }[],
): Index | undefined {
  const before = previous.index;
  if (
    previous.files === undefined || before.settings !== settings ||
    served.length !== before.items.length
  ) return undefined;
  const limit = Math.max(16, Math.floor(served.length * PATCH_AT_MOST));
  const { files: madeFrom } = previous;
  const changed: number[] = [];
  const tagCounts = previous.tagCounts;
  for (let i = 0; i < served.length; i++) {
    const d = served[i];
    const old = before.items[i];
    if (old.id !== d.id || old.eligible !== d.eligible) return undefined;
    const parent = d.parent ? d.parent.id : null;
    // The build's test of an item that keeps its object, with the previous tag counts
    // (which hold when no replaced item changes its tags, checked below). The file that
    // made `old` is `madeFrom[i]`: read in order, where the build looks it up in a map.
    const kept = madeFrom[i] === d.node.file && old.file === d.file && old.time === d.time &&
      old.parent === parent && sameList(old.children, d.childIds) && sameCounts(old, tagCounts);
    if (kept) continue;
    if (changed.length === limit) return undefined;
    changed.push(i);
  }
  const pluginSettings = new Map(settings.plugins.map((p) => [p.name, p]));
  const tagObjects = new Map<string, Tag>();
  const replaced: [old: Item, item: Item, at: number][] = [];
  for (const i of changed) {
    const d = served[i];
    const old = before.items[i];
    const item = newItem(
      d,
      d.parent ? d.parent.id : null,
      tagCounts,
      tagObjects,
      pluginSettings.get(d.node.file.plugin)!,
      settings.siteUrl,
    );
    if (!sameFiling(old, item)) return undefined;
    replaced.push([old, item, i]);
  }

  const items = before.items.slice();
  const files = previous.files.slice();
  const feed = before.feed.slice();
  const feedPlace = new Map(before.feedPlace);
  const byPath = new Map(before.byPath);
  const built = new Map(previous.items);
  const lists = {
    type: new Map(before.lists.type),
    category: new Map(before.lists.category),
    tag: new Map(before.lists.tag),
    author: new Map(before.lists.author),
    year: new Map(before.lists.year),
  };
  /** Lists already copied for this patch (each copied once however many items it holds). */
  const copied = new Set<readonly Item[]>();
  /** Puts `item` where `old` is in the list of `key`; false when it is not there. */
  const replaceIn = (map: Map<string, readonly Item[]>, key: string, old: Item, item: Item) => {
    let list = map.get(key);
    const at = list ? list.indexOf(old) : -1;
    if (at < 0) return false;
    if (!copied.has(list!)) {
      list = list!.slice();
      copied.add(list);
      map.set(key, list);
    }
    (list as Item[])[at] = item;
    return true;
  };
  for (const [old, item, i] of replaced) {
    const file = served[i].node.file;
    built.delete(files[i]);
    built.set(file, item);
    files[i] = file;
    items[i] = item;
    // A later item of the same path holds it (a clash the build settled the same way).
    const path = `${item.type}/${item.uri}`;
    if (byPath.get(path) === old) byPath.set(path, item);
    if (!item.eligible) continue;
    const place = feedPlace.get(old);
    if (place === undefined) return undefined;
    feedPlace.delete(old);
    feedPlace.set(item, place);
    feed[place] = item;
    const listed = replaceIn(lists.type, item.type, old, item) &&
      replaceIn(lists.category, item.category, old, item) &&
      replaceIn(lists.year, item.date.slice(0, 4), old, item) &&
      [...new Set(item.tags.map((t) => t.slug))].every((tag) =>
        replaceIn(lists.tag, tag, old, item)
      ) &&
      [...new Set(item.authors.map((a) => a.slug))].every((author) =>
        replaceIn(lists.author, author, old, item)
      );
    if (!listed) return undefined;
  }
  warnings.push(...previous.duplicates);
  const index: Index = withLookups({
    settings,
    builtAt,
    generated: formatTimestamp(builtAt),
    items,
    feed,
    feedPlace,
    byPath,
    types: before.types,
    categories: before.categories,
    langs: before.langs,
    versions: before.versions,
    lists,
    counts: counts.map((c, i) => ({ ...c, feed: before.counts[i].feed })),
    warnings,
    reuse: undefined as unknown as Index["reuse"],
  }, patchedLookups(madeLookups(before), replaced));
  const reuse: Reuse = {
    kind: "index-reuse",
    items: built,
    trees,
    files,
    tagCounts,
    duplicates: previous.duplicates,
    index,
  };
  return Object.assign(index, { reuse });
}

/**
 * Whether `item` files where `old` did: the same id, path, URL, file,
 * eligibility, type, category, year, tags (names and slugs) and authors.
 */
function sameFiling(old: Item, item: Item): boolean {
  return old.id === item.id && old.type === item.type && old.uri === item.uri &&
    old.url === item.url && old.file === item.file && old.eligible === item.eligible &&
    old.category === item.category && old.date.slice(0, 4) === item.date.slice(0, 4) &&
    old.tags.length === item.tags.length &&
    old.tags.every((t, i) => t.slug === item.tags[i].slug && t.name === item.tags[i].name) &&
    old.authors.length === item.authors.length &&
    old.authors.every((a, i) => a.slug === item.authors[i].slug);
}

/** The previous index's lookups made so far, copied with the replaced items in them. */
function patchedLookups(
  made: Partial<IndexLookups>,
  replaced: readonly [old: Item, item: Item, at: number][],
): Partial<IndexLookups> {
  const patch = (map: ReadonlyMap<string, Item>, keyOf: (item: Item) => string | undefined) => {
    const copy = new Map(map);
    for (const [old, item] of replaced) {
      const key = keyOf(old);
      if (key !== undefined && copy.get(key) === old) copy.set(key, item);
    }
    return copy;
  };
  const urlPath = (item: Item) =>
    item.url.startsWith("/") ? item.url.replace(/^\/+|\/+$/g, "") : undefined;
  return {
    ...(made.byId ? { byId: patch(made.byId, (item) => item.id) } : {}),
    ...(made.feedById ? { feedById: patch(made.feedById, (item) => item.id) } : {}),
    ...(made.byUrl ? { byUrl: patch(made.byUrl, urlPath) } : {}),
    // The same tags of the same items: the same names and counts.
    ...(made.tags ? { tags: made.tags } : {}),
  };
}

/** Whether each of an item's tags has the count `tagCounts` gives its slug. */
function sameCounts(item: Item, tagCounts: ReadonlyMap<string, number>): boolean {
  for (const tag of item.tags) if (tag.count !== (tagCounts.get(tag.slug) ?? 0)) return false;
  return true;
}

/** Whether two lists hold the same values (`===`) in the same order. */
function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
