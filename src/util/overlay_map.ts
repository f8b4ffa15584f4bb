// A map that is another with a few entries changed, without a copy of its
// table: what a re-index patches (SPEC 17: a change costs what it changed).
// At 100,000 items a patch copied six maps of 100,000 entries, 75–590 ms
// of an edit and most of the garbage its collections then swept; an overlay
// holds the few entries that changed and reads the rest from the map before.

/** How many overlays may stand on one another before a new one copies the map under it. */
const MOST_LAYERS = 8;

/** A key of the map under an overlay that the overlay deleted. */
const DELETED: unique symbol = Symbol("deleted");

/**
 * A map read as `new Map(base)` with the same `set` and `delete` calls
 * made on it would read, in the same order: a key set that `base` holds
 * keeps its place, a new key (or one deleted, then set again) comes after
 * the others. `base` must not change while the overlay is read, and no
 * value may be `undefined`. An overlay of an overlay is one more layer to
 * each read (two small lookups); past {@link MOST_LAYERS} the new one starts
 * from a copy.
 *
 * @example
 * ```ts
 * import { OverlayMap } from "./overlay_map.ts";
 * const before = new Map([["a", 1], ["b", 2]]);
 * const after = new OverlayMap(before);
 * after.set("a", 10);
 * after.delete("b");
 * after.set("c", 3);
 * [...after]; // [["a", 10], ["c", 3]]
 * before.get("a"); // 1
 * ```
 */
export class OverlayMap<K, V> implements ReadonlyMap<K, V> {
  readonly #base: ReadonlyMap<K, V>;
  /** Overlays under this one, this one included. */
  readonly #layers: number;
  /** Keys of `base` given another value (in their place) or deleted. */
  readonly #changed = new Map<K, V | typeof DELETED>();
  /** How many keys of `base` were deleted. */
  #deleted = 0;
  /** Keys `base` does not hold (or that were deleted from it), in the order they were set. */
  readonly #added = new Map<K, V>();

  constructor(base: ReadonlyMap<K, V>) {
    const under = base instanceof OverlayMap ? base.#layers : 0;
    this.#base = under >= MOST_LAYERS ? new Map(base) : base;
    this.#layers = under >= MOST_LAYERS ? 1 : under + 1;
  }

  /** Whether `base` holds `key` and this overlay did not delete it. */
  #inBase(key: K): boolean {
    const changed = this.#changed.get(key);
    return changed === undefined ? this.#base.has(key) : changed !== DELETED;
  }

  /** Sets `key`, as `Map.prototype.set` does. */
  set(key: K, value: V): this {
    if (this.#added.has(key) || !this.#inBase(key)) this.#added.set(key, value);
    else this.#changed.set(key, value);
    return this;
  }

  /** Deletes `key`, as `Map.prototype.delete` does. */
  delete(key: K): boolean {
    if (this.#added.delete(key)) return true;
    if (!this.#inBase(key)) return false;
    this.#changed.set(key, DELETED);
    this.#deleted++;
    return true;
  }

  get(key: K): V | undefined {
    const added = this.#added.get(key);
    if (added !== undefined) return added;
    const changed = this.#changed.get(key);
    if (changed !== undefined) return changed === DELETED ? undefined : changed;
    return this.#base.get(key);
  }

  has(key: K): boolean {
    return this.#added.has(key) || this.#inBase(key);
  }

  get size(): number {
    return this.#base.size - this.#deleted + this.#added.size;
  }

  *entries(): MapIterator<[K, V]> {
    for (const [key, value] of this.#base) {
      const changed = this.#changed.get(key);
      if (changed === undefined) yield [key, value];
      else if (changed !== DELETED) yield [key, changed];
    }
    yield* this.#added;
  }

  *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return "OverlayMap";
  }
}
