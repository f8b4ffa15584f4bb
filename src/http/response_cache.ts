/** The response cache's budget when none is given: 64 MB (SPEC 9 "Bounded memory"). */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * A least-recently-used cache bounded by the bytes its entries hold, never
 * by a count alone (SPEC 9): whatever sequence of requests fills it, it
 * holds at most `budget` bytes, but for the one entry most recently stored
 * when that entry alone is larger than the budget.
 */
export interface ResponseCache<V> {
  /** The entry for `key`, now the most recently used; `undefined` when absent. */
  get(key: string): V | undefined;
  /** Stores an entry of `bytes` bytes, evicting the least recently used ones beyond the budget. */
  set(key: string, value: V, bytes: number): void;
  /**
   * Sets the bytes an entry holds (it grew: an encoding was made for it),
   * evicting others beyond the budget; ignored unless `key` still holds `value`.
   */
  resize(key: string, value: V, bytes: number): void;
  /** Forgets every entry (the index they were made from was replaced). */
  clear(): void;
  /** Forgets every entry that `keep` does not want (a new index: those that changed with it). */
  retain(keep: (key: string, value: V) => boolean): void;
  /** Bytes held now. */
  readonly bytes: number;
  /** Entries held now. */
  readonly size: number;
}

/**
 * Creates a {@link ResponseCache} of at most `budget` bytes.
 *
 * @example
 * ```ts
 * import { createResponseCache } from "./response_cache.ts";
 * const cache = createResponseCache<string>(10);
 * cache.set("a", "first", 6);
 * cache.set("b", "second", 6); // "a" goes: 12 bytes would exceed 10
 * cache.get("a"); // undefined
 * cache.get("b"); // "second"
 * ```
 */
export function createResponseCache<V>(
  budget: number,
  evicted: (bytes: number) => void = () => {},
): ResponseCache<V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least
  // recently used entry first.
  const entries = new Map<string, { value: V; bytes: number }>();
  /**
   * The key used or set last, already at the end of `entries` when it is there: a run of
   * requests for one answer moves nothing (each move leaves a deleted entry for the map to
   * clear out, 5% of a repeated answer's CPU under load).
   */
  let newest: string | undefined;
  let held = 0;
  const evict = () => {
    let dropped = 0;
    for (const [key, entry] of entries) {
      if (held <= budget || entries.size <= 1) break;
      entries.delete(key);
      held -= entry.bytes;
      dropped += entry.bytes;
    }
    if (dropped > 0) evicted(dropped);
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (key !== newest) {
        entries.delete(key);
        entries.set(key, entry);
        newest = key;
      }
      return entry.value;
    },
    set(key, value, bytes) {
      const old = entries.get(key);
      if (old) {
        entries.delete(key);
        held -= old.bytes;
      }
      entries.set(key, { value, bytes });
      newest = key;
      held += bytes;
      evict();
    },
    resize(key, value, bytes) {
      const entry = entries.get(key);
      if (!entry || entry.value !== value) return;
      held += bytes - entry.bytes;
      entry.bytes = bytes;
      evict();
    },
    clear() {
      entries.clear();
      held = 0;
    },
    retain(keep) {
      for (const [key, entry] of entries) {
        if (keep(key, entry.value)) continue;
        entries.delete(key);
        held -= entry.bytes;
      }
    },
    get bytes() {
      return held;
    },
    get size() {
      return entries.size;
    },
  };
}
