// A re-index after a few files changed, as a patch of the index before it
// (SPEC 17: a change rebuilds only what depends on it). When every served
// item stays where it was, with the same id, path, URL, feed eligibility,
// type, category, tags, authors and year, the new index is the previous one
// with those few items replaced: the item lists are copied (a copy reads
// one table; a build reads every item, which at 100,000 items was most of a
// re-index), the maps are overlays of the previous ones holding the entries
// that changed (`util/overlay_map.ts`), and only the filter lists that hold
// a replaced item are made again. Anything else (an item added, removed, moved, renamed or
// retagged) returns `undefined`, and the build makes the index whole.
// Differential tests hold the two to the same index.
import type { Warning } from "../source/parsed_file.ts";
import { formatTimestamp } from "../util/dates.ts";
import type { Index, IndexSettings, Reuse } from "./build.ts";
import type { Item, Tag } from "./item.ts";
import { eachFiling } from "./filing.ts";
import { keepsItem } from "./kept_item.ts";
import { patchedLookups, withLookups } from "./lookups.ts";
import { newItem } from "./new_item.ts";
import { OverlayMap } from "../util/overlay_map.ts";
import type { Placed, PluginTree } from "./plugin_tree.ts";

/** Above this share of the items replaced (and 16), a whole build costs no more than the patch. */
const PATCH_AT_MOST = 1 / 16;

/**
 * The index `before`, with the items of `served` that changed made again
 * and put in their places; `undefined` when a change
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
  before: Index,
  served: readonly Placed[],
  trees: ReadonlyMap<string, PluginTree>,
  settings: IndexSettings,
  builtAt: number,
  warnings: Warning[],
  counts: readonly { plugin: string; items: number; feed: number }[],
): Index | undefined {
  const previous = before.reuse as Reuse;
  if (before.settings !== settings || served.length !== before.items.length) return undefined;
  const limit = Math.max(16, Math.floor(served.length * PATCH_AT_MOST));
  const { files: madeFrom, tagCounts } = previous;
  const changed: number[] = [];
  for (let i = 0; i < served.length; i++) {
    const d = served[i];
    const old = before.items[i];
    if (old.id !== d.id || old.eligible !== d.eligible) return undefined;
    // The build's test of an item that keeps its object, with the previous tag counts
    // (which hold when no replaced item changes its tags, checked below). The file that
    // made `old` is `madeFrom[i]`: read in order, where the build looks it up in a map.
    if (madeFrom[i] === d.node.file && keepsItem(old, d, tagCounts)) continue;
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
  // The maps of 100,000 entries read through the few that changed, not copied (`OverlayMap`).
  const feedPlace = new OverlayMap(before.feedPlace);
  const byPath = new OverlayMap(before.byPath);
  const built = new OverlayMap(previous.items);
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
    // Each place the build files it under (once per filing, as the build adds it).
    let listed = true;
    eachFiling(item, (list, key) => listed &&= replaceIn(lists[list], key, old, item));
    if (!listed) return undefined;
  }
  warnings.push(...previous.duplicates);
  return withLookups({
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
    reuse: {
      kind: "index-reuse",
      items: built,
      trees,
      files,
      tagCounts,
      duplicates: previous.duplicates,
    } satisfies Reuse,
  }, patchedLookups(before, replaced));
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
