// Recording an index from the ids that changed since the index the journal
// recorded last (SPEC 12): what `planRecord` plans from the whole feed,
// planned from those ids alone.
import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import { type JournalChanges, type JournalEntry, type JournalState, planRecord } from "./state.ts";
import type { RecordedItem } from "./state.ts";

/**
 * What recording `index` changes in the journal, when `state` records the
 * index before it and `ids` are the ids whose items are not the objects
 * they were there (added, changed, removed): exactly what
 * `planRecord(state, every feed item, …)` gives. An id not among them kept
 * its item, so its key and its place in the feed or out of it, and
 * `planRecord` would find nothing to do for it; so it is planned over the
 * entries of these ids alone (and, when `purging`, every tombstone, in the
 * journal's order, so that those past the retention are dropped as a full
 * record drops them). The feed items among `ids` keep their feed order.
 *
 * @param purging whether a tombstone may be past the retention (see {@link oldestTombstone})
 *
 * @example
 * ```ts
 * import { planRecordChanged } from "./record_changed.ts";
 * import { emptyJournal } from "./state.ts";
 * declare const index: import("../index/build.ts").Index;
 * const changes = planRecordChanged(emptyJournal("j1"), index, ["docs_doc_a"], (item) => ({
 *   id: item.id, key: item.checksum, type: item.type, category: item.category,
 * }), Date.now(), 90 * 86_400_000, false);
 * ```
 */
export function planRecordChanged(
  state: JournalState,
  index: Index,
  ids: readonly string[],
  recordOf: (item: Item) => RecordedItem,
  now: number,
  retentionMs: number,
  purging: boolean,
): JournalChanges {
  const candidates = new Set(ids);
  const fed: Item[] = [];
  for (const id of candidates) {
    const item = index.byId.get(id);
    if (item !== undefined && index.feedPlace.has(item)) fed.push(item);
  }
  fed.sort((a, b) => index.feedPlace.get(a)! - index.feedPlace.get(b)!);
  const entries = new Map<string, JournalEntry>();
  if (purging) {
    for (const [id, entry] of state.entries) {
      const expired = entry.deleted !== null && now - entry.deleted > retentionMs;
      if (expired || candidates.has(id)) entries.set(id, entry);
    }
  } else {
    for (const id of candidates) {
      const entry = state.entries.get(id);
      if (entry !== undefined) entries.set(id, entry);
    }
  }
  return planRecord({ ...state, entries }, fed.map(recordOf), now, retentionMs);
}

/**
 * When the oldest tombstone of a journal left the feed (epoch ms;
 * `Infinity` when it holds none): no record before `oldest + retention`
 * can purge anything.
 *
 * @example
 * ```ts
 * import { oldestTombstone } from "./record_changed.ts";
 * import { emptyJournal } from "./state.ts";
 * oldestTombstone(emptyJournal("j1")); // Infinity
 * ```
 */
export function oldestTombstone(state: JournalState): number {
  let oldest = Infinity;
  for (const entry of state.entries.values()) {
    if (entry.deleted !== null && entry.deleted < oldest) oldest = entry.deleted;
  }
  return oldest;
}
