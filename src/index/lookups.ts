// The index's lookups by id, by URL and of its tags: fields of the index,
// each made on its first use and kept with the index (a start that serves
// no item route never makes them).
import type { Index } from "./build.ts";
import type { Item } from "./item.ts";
import { OverlayMap } from "../util/overlay_map.ts";

/** The lookups an index holds (see {@link Index}). */
export type IndexLookups = Pick<Index, "byId" | "feedById" | "byUrl" | "tags">;

/** A tag of the feed with the number of feed items that carry it. */
type TagCount = IndexLookups["tags"][number];

/** What the lookups are made from. */
interface Indexed {
  readonly feed: readonly Item[];
  /** Served items by `type/uri`. */
  readonly byPath: ReadonlyMap<string, Item>;
}

/**
 * The index with its lookups as fields, each made once, on its first read
 * (they are not enumerable: the index's own data stays what it was).
 *
 * @example
 * ```ts
 * import { withLookups } from "./lookups.ts";
 * const index = withLookups({ feed: [], byPath: new Map() });
 * index.byId.size; // 0
 * index.tags; // []
 * ```
 */
export function withLookups<T extends Indexed>(
  index: T,
  made: Partial<IndexLookups> = {},
): T & IndexLookups {
  let { byId, feedById, byUrl, tags } = made;
  return Object.defineProperties(index, {
    byId: { get: () => byId ??= servedById(index.byPath) },
    feedById: { get: () => feedById ??= new Map(index.feed.map((item) => [item.id, item])) },
    byUrl: { get: () => byUrl ??= servedByUrl(index.byPath) },
    tags: { get: () => tags ??= feedTags(index.feed) },
    [MADE]: { value: () => ({ byId, feedById, byUrl, tags }) },
  }) as T & IndexLookups;
}

/** The key of an index's lookups made so far (see {@link patchedLookups}). */
const MADE = Symbol("made lookups");

/**
 * The lookups `before` has made so far (none is made here), copied with
 * each replaced item in its old item's place: what an index patched from
 * `before` (`patch_index.ts`) starts with, instead of making its own from
 * every item. The replaced items keep their ids and URLs, and their tags'
 * names and counts, so the keys and the tag list are the same.
 *
 * @example
 * ```ts
 * import { patchedLookups, withLookups } from "./lookups.ts";
 * const before = withLookups({ feed: [], byPath: new Map() });
 * patchedLookups(before, []).byId; // undefined: never made
 * before.byId;
 * patchedLookups(before, []).byId?.size; // 0
 * ```
 */
export function patchedLookups(
  before: object,
  replaced: readonly (readonly [old: Item, item: Item, ...rest: unknown[]])[],
): Partial<IndexLookups> {
  const made = (before as { [MADE]?: () => Partial<IndexLookups> })[MADE]?.() ?? {};
  const patch = (map: ReadonlyMap<string, Item>, keyOf: (item: Item) => string | undefined) => {
    const copy = new OverlayMap(map);
    for (const [old, item] of replaced) {
      const key = keyOf(old);
      if (key !== undefined && copy.get(key) === old) copy.set(key, item);
    }
    return copy;
  };
  const id = (item: Item) => item.id;
  return {
    ...(made.byId ? { byId: patch(made.byId, id) } : {}),
    ...(made.feedById ? { feedById: patch(made.feedById, id) } : {}),
    ...(made.byUrl ? { byUrl: patch(made.byUrl, urlKey) } : {}),
    ...(made.tags ? { tags: made.tags } : {}),
  };
}

/** Every served item by id: the feed's, and those only the item routes serve (not indexable). */
function servedById(byPath: ReadonlyMap<string, Item>): ReadonlyMap<string, Item> {
  return new Map([...byPath.values()].map((item) => [item.id, item]));
}

/** Served items by the path of their page URL, without slashes at either end (`get_content`'s link). */
function servedByUrl(byPath: ReadonlyMap<string, Item>): ReadonlyMap<string, Item> {
  const made = new Map<string, Item>();
  for (const item of byPath.values()) {
    const key = urlKey(item);
    if (key !== undefined) made.set(key, item);
  }
  return made;
}

/** An item's key in `byUrl`: its root-relative URL without slashes at either end. */
function urlKey(item: Item): string | undefined {
  return item.url.startsWith("/") ? item.url.replace(/^\/+|\/+$/g, "") : undefined;
}

/** The feed's tags with their counts, most used first, then by name (the `list_tags` tool). */
function feedTags(feed: readonly Item[]): readonly TagCount[] {
  const bySlug = new Map<string, TagCount>();
  for (const item of feed) {
    for (const { name, slug, count } of item.tags) {
      if (!bySlug.has(slug)) bySlug.set(slug, { name, slug, count });
    }
  }
  return [...bySlug.values()].sort((a, b) =>
    b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  );
}
