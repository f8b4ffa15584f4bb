// A paged `since=0` as a listing (SPEC 12): the feed as of the journal's
// head when the listing began, each id once and no deletion, a page at a
// time; the cursor carries that head and the position reached, so the
// server keeps nothing per client. Pure: reads a journal state.
import { entriesBySeq, firstAfter } from "../util/by_seq.ts";
import { passes, type SinceFilter } from "./changes_since.ts";
import type { JournalState } from "./state.ts";

/** A page of a listing. */
export interface ListingPage {
  /** The ids of this page, in the order of their last change. */
  readonly ids: readonly string[];
  /** The ids the listing still held after `after`, this page's among them: before paging. */
  readonly total: number;
  /** The position of this page's last id: where the next page starts. */
  readonly last: number;
  /** Whether ids remain after this page. */
  readonly more: boolean;
}

/**
 * A page of the listing of the feed as of position `at` (SPEC 12): the ids
 * in the feed at `at` whose last change is at or before it, after position
 * `after`, at most `limit` of them, filtered. An id that changed or left
 * after `at` is not listed: it is a change after `at`, answered once the
 * listing is done (`changesSince(state, at)`), so every id reaches the
 * client once, in its current form, and no deletion names an id the
 * listing skipped but the one case the docs name (an id the listing had not
 * reached yet when it left). Each id sits at its last change, a position no
 * other id has, and which does not move while it is listed: so pages never
 * overlap, whatever changes between them. Pure; the caller has checked
 * `at` with `cursorProblem` (the journal, the head, the horizon).
 *
 * @example
 * ```ts
 * import { listingPage } from "./listing.ts";
 * import { applyChanges, emptyJournal, planRecord } from "./state.ts";
 * const start = emptyJournal("j1");
 * const items = ["a", "b", "c"].map((id) => ({ id, key: "k", type: "docs", category: "doc" }));
 * const journal = applyChanges(start, planRecord(start, items, 0, 0));
 * listingPage(journal, journal.head, 0, {}, 2); // { ids: ["a", "b"], total: 3, last: 2, more: true }
 * ```
 */
export function listingPage(
  state: JournalState,
  at: number,
  after: number,
  filter: SinceFilter,
  limit?: number,
): ListingPage {
  const list = entriesBySeq(state.entries);
  const low = firstAfter(list, after);
  const ids: string[] = [];
  let total = 0;
  let last = after;
  for (let i = low; i < list.length && list[i][1].seq <= at; i++) {
    const [id, entry] = list[i];
    if (entry.deleted !== null || !passes(entry, filter)) continue;
    total++;
    if (limit === undefined || ids.length < limit) {
      ids.push(id);
      last = entry.seq;
    }
  }
  return { ids, total, last, more: total > ids.length };
}
