// Whether a re-index keeps an item's object (SPEC 17): the one test the whole
// build (`build.ts`) and the patch (`patch_index.ts`) both make, so the two
// keep the same items.
import type { Item } from "./item.ts";
import type { Placed } from "./plugin_tree.ts";

/**
 * Whether `old`, the item the previous index made from the file `d` was
 * placed from, still is `d`'s item: the same id, file, time, parent,
 * children and feed eligibility, and its tags' counts the ones in
 * `tagCounts`. (The fields come from the file object, which the caller
 * compares.)
 *
 * @example
 * ```ts
 * import { keepsItem } from "./kept_item.ts";
 * keepsItem(undefined, {} as never, new Map()); // false: no item to keep
 * ```
 */
export function keepsItem(
  old: Item | undefined,
  d: Placed,
  tagCounts: ReadonlyMap<string, number>,
): old is Item {
  if (!old) return false;
  if (old.id !== d.id || old.file !== d.file || old.time !== d.time) return false;
  if (old.parent !== (d.parent ? d.parent.id : null) || old.eligible !== d.eligible) return false;
  if (!sameList(old.children, d.childIds)) return false;
  for (const tag of old.tags) if (tag.count !== (tagCounts.get(tag.slug) ?? 0)) return false;
  return true;
}

/**
 * Whether two lists hold the same values (`===`) in the same order.
 *
 * @example
 * ```ts
 * import { sameList } from "./kept_item.ts";
 * sameList(["a", "b"], ["a", "b"]); // true
 * ```
 */
export function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
