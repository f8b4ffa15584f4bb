// INTERIM (until the pipeline branch adds these as fields of the Index).
import type { Index } from "./build.ts";
import type { Item } from "./item.ts";

const feedMaps = new WeakMap<Index, ReadonlyMap<string, Item>>();
const servedMaps = new WeakMap<Index, ReadonlyMap<string, Item>>();
const urlMaps = new WeakMap<Index, ReadonlyMap<string, Item>>();
const tagLists = new WeakMap<Index, readonly { name: string; slug: string; count: number }[]>();

/** Interim. */
export function lookups(index: Index): {
  feedById: ReadonlyMap<string, Item>;
  byId: ReadonlyMap<string, Item>;
  byUrl: ReadonlyMap<string, Item>;
  tags: readonly { name: string; slug: string; count: number }[];
} {
  return {
    get feedById() {
      let map = feedMaps.get(index);
      if (!map) feedMaps.set(index, map = new Map(index.feed.map((item) => [item.id, item])));
      return map;
    },
    get byId() {
      let map = servedMaps.get(index);
      if (!map) {
        map = new Map([...index.byPath.values()].map((item) => [item.id, item]));
        servedMaps.set(index, map);
      }
      return map;
    },
    get byUrl() {
      let map = urlMaps.get(index);
      if (!map) {
        const made = new Map<string, Item>();
        for (const item of index.byPath.values()) {
          if (item.url.startsWith("/")) made.set(item.url.replace(/^\/+|\/+$/g, ""), item);
        }
        urlMaps.set(index, map = made);
      }
      return map;
    },
    get tags() {
      let tags = tagLists.get(index);
      if (!tags) {
        const bySlug = new Map<string, { name: string; slug: string; count: number }>();
        for (const item of index.feed) {
          for (const { name, slug, count } of item.tags) {
            if (!bySlug.has(slug)) bySlug.set(slug, { name, slug, count });
          }
        }
        tags = [...bySlug.values()].sort((a, b) =>
          b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
        );
        tagLists.set(index, tags);
      }
      return tags;
    },
  };
}
