// Answering a cursor from the change journal (SPEC 12): whether the journal
// can answer it (`410 Gone` when not), and the changes after it, a page at
// a time. Pure: reads a journal state, never changes it.
import { entriesBySeq, firstAfter } from "../util/by_seq.ts";
import type { JournalEntry, JournalState } from "./state.ts";

/** What a `since` answer is narrowed to (SPEC 12: `type`, `category`, and a variant's `lang` and `version`). */
export interface SinceFilter {
  readonly type?: string;
  readonly category?: string;
  readonly lang?: string;
  readonly version?: string;
}

/**
 * Whether a journal entry (an item in the feed, or its tombstone) passes a
 * `since` filter.
 *
 * @example
 * ```ts
 * import { passes } from "./changes_since.ts";
 * const entry = {
 *   seq: 1, born: 1, lives: [], key: "k", type: "docs", category: "doc", deleted: null,
 * };
 * passes(entry, { type: "blog" }); // false
 * ```
 */
export function passes(entry: JournalEntry, filter: SinceFilter): boolean {
  return (filter.type === undefined || entry.type === filter.type) &&
    (filter.category === undefined || entry.category === filter.category) &&
    (filter.lang === undefined || entry.lang === filter.lang) &&
    (filter.version === undefined || entry.version === filter.version);
}

/** One change after a cursor: the id, and when it left the feed (`null`: it is in the feed). */
export interface Change {
  /** The item's id. */
  readonly id: string;
  /** Its position: where the next page starts when it is a page's last. */
  readonly seq: number;
  /** Epoch ms at which it left the feed; `null`: it is in the feed. */
  readonly deleted: number | null;
}

/** The changes after a cursor (SPEC 12 `since`), a page of them at most. */
export interface ChangesAnswer {
  /** The changes of this page, in change order, each id once. */
  readonly changes: readonly Change[];
  /** The changes after the cursor that match, before paging. */
  readonly total: number;
  /** Where the next sync starts: after the last change returned, or the head when none remain. */
  readonly cursor: number;
  /** Whether changes remain after `cursor`. */
  readonly more: boolean;
}

/**
 * The changes after position `after` (SPEC 12), at most `limit` of them:
 * every id in the feed whose last change is after it, and every id that
 * left after it and that a client at `after` holds (the cursor lies in one
 * of the id's stays: since `0`, no deletions at all), filtered by type and
 * category. Each change sits at the first of the id's positions after the
 * cursor (where its stay began, else its last change), so a sync that pages
 * on while an id changes again still meets the id where it first would
 * have: no id can move past a client and leave unseen. Pure; the caller
 * has checked the cursor with {@link cursorProblem}. A request for
 * `since=0` is a listing instead (`listing.ts`): a position is a client's
 * state only once the listing has reached the head it was of.
 *
 * @example
 * ```ts
 * import { changesSince } from "./changes_since.ts";
 * import { emptyJournal } from "./state.ts";
 * changesSince(emptyJournal("j1"), 0, {}).more; // false
 * ```
 */
export function changesSince(
  state: JournalState,
  after: number,
  filter: SinceFilter,
  limit?: number,
): ChangesAnswer {
  // Entries in order of their last change, sorted once per journal state.
  const list = entriesBySeq(state.entries);
  // Only ids whose last change is after the cursor can be news: binary search for the first.
  const low = firstAfter(list, after);
  const matches: Change[] = [];
  for (let i = low; i < list.length; i++) {
    const [id, entry] = list[i];
    if (!passes(entry, filter)) continue;
    if (entry.deleted === null) {
      matches.push({ id, seq: entry.born > after ? entry.born : entry.seq, deleted: null });
    } else if (entry.lives.some(([born, left]) => born <= after && after < left)) {
      matches.push({ id, seq: entry.seq, deleted: entry.deleted });
    }
  }
  matches.sort((a, b) => a.seq - b.seq);
  if (limit === undefined || limit >= matches.length) {
    return { changes: matches, total: matches.length, cursor: state.head, more: false };
  }
  const changes = matches.slice(0, limit);
  return { changes, total: matches.length, cursor: changes.at(-1)!.seq, more: true };
}

/**
 * Why the journal cannot answer a cursor (SPEC 12, a `410 Gone`), or
 * `undefined` when it can: a cursor of another journal (but for the one it
 * was forked from, up to the fork), one past the head, or one before the
 * horizon. `0` is always answered.
 *
 * @example
 * ```ts
 * import { cursorProblem } from "./changes_since.ts";
 * import { emptyJournal } from "./state.ts";
 * cursorProblem(emptyJournal("j1"), { journal: "other", seq: 3 }); // "…another journal…"
 * ```
 */
export function cursorProblem(
  state: JournalState,
  cursor: { readonly journal: string | undefined; readonly seq: number },
): string | undefined {
  if (cursor.journal === undefined) return undefined;
  const parent = state.forkOf;
  const ofParent = parent !== undefined && cursor.journal === parent.id;
  if (cursor.journal !== state.id && !(ofParent && cursor.seq <= parent.head)) {
    return "the cursor is from another journal (another server, or a journal started again)";
  }
  if (cursor.seq > state.head) return "the cursor is past the journal's last change";
  if (cursor.seq < state.horizon) {
    return "the cursor is older than the journal's retention: deletions since then were forgotten";
  }
  return undefined;
}
