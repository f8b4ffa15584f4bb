// The filter lists of an index (SPEC 6.1): which lists a feed item is
// filed under, said once for the whole build (`build.ts`), which adds each
// item to them, and the patch (`patch_index.ts`), which puts a changed item
// in its old item's places.
import type { Item } from "./item.ts";

/** The filter lists an index keeps: the feed's items by each filter's value. */
export type FilterList = "type" | "category" | "tag" | "author" | "year";

/**
 * Calls `file` with each filter list `item` is filed under and its key
 * there: its type, category, each tag's slug, each author's slug and the
 * year of its date, in that order.
 *
 * @example
 * ```ts
 * import { eachFiling } from "./filing.ts";
 * declare const item: import("./item.ts").Item;
 * const keys: string[] = [];
 * eachFiling(item, (list, key) => keys.push(`${list}=${key}`)); // ["type=docs", …, "year=2026"]
 * ```
 */
export function eachFiling(item: Item, file: (list: FilterList, key: string) => void): void {
  file("type", item.type);
  file("category", item.category);
  for (const tag of item.tags) file("tag", tag.slug);
  for (const author of item.authors) file("author", author.slug);
  file("year", item.date.slice(0, 4));
}
