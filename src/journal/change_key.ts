import type { Item } from "../index/item.ts";

/**
 * What an item's feed form says apart from the base URL and tag counts
 * (SPEC 12: an item *changes* when its file's checksum changes or any field
 * of its feed item other than a tag's `count` changes). The journal keeps a
 * hash of it per id. `link`, a root-relative `image` and `url` are kept as
 * the index holds them, relative: a base URL is the request's, not the
 * content's.
 *
 * @example
 * ```ts
 * import { changeKey } from "./change_key.ts";
 * declare const item: import("../index/item.ts").Item;
 * changeKey(item); // '["docs_doc_intro","9f2c…","docs","doc","intro",…]'
 * ```
 */
export function changeKey(item: Item): string {
  return JSON.stringify([
    item.id,
    item.checksum,
    item.type,
    item.category,
    item.uri,
    item.image,
    item.title,
    item.description,
    item.authors.map((a) => [a.name, a.slug]),
    item.tags.map((t) => [t.name, t.slug]),
    item.date,
    item.last_update,
    item.time,
    item.url,
  ]);
}
