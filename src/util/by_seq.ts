// A map's entries in order of their `seq`, sorted once per map: the
// journal answers each `since` by a binary search over them (SPEC 12), and
// a journal state is answered many times between two records. A bounded
// pure memo: keyed weakly by the map, so it holds one array per map still
// in use and never keeps a map alive; each array is a function of its map
// alone, for a map that is never changed once given here (a journal
// state's entries never are: each record makes a new map).
const sorted = new WeakMap<object, readonly (readonly [unknown, { readonly seq: number }])[]>();

/**
 * The entries of `map` in ascending order of `seq`, the same array for the
 * same map on every call. `map` must not change after its first call.
 *
 * @example
 * ```ts
 * import { entriesBySeq } from "./by_seq.ts";
 * const entries = new Map([["b", { seq: 2 }], ["a", { seq: 1 }]]);
 * entriesBySeq(entries).map(([id]) => id); // ["a", "b"]
 * entriesBySeq(entries) === entriesBySeq(entries); // true
 * ```
 */
export function entriesBySeq<K, V extends { readonly seq: number }>(
  map: ReadonlyMap<K, V>,
): readonly (readonly [K, V])[] {
  let list = sorted.get(map) as readonly (readonly [K, V])[] | undefined;
  if (!list) {
    list = [...map].sort((a, b) => a[1].seq - b[1].seq);
    sorted.set(map, list);
  }
  return list;
}

/**
 * The index of the first entry of `list` (in ascending `seq`, as
 * {@link entriesBySeq} gives it) whose `seq` is above `after`, by binary
 * search: where the news after a cursor begins.
 *
 * @example
 * ```ts
 * import { entriesBySeq, firstAfter } from "./by_seq.ts";
 * const list = entriesBySeq(new Map([["a", { seq: 1 }], ["b", { seq: 3 }]]));
 * firstAfter(list, 2); // 1
 * ```
 */
export function firstAfter(
  list: readonly (readonly [unknown, { readonly seq: number }])[],
  after: number,
): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (list[mid][1].seq <= after) low = mid + 1;
    else high = mid;
  }
  return low;
}
