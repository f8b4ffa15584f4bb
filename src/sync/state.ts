// The change journal as a value (SPEC 12): for every id that is or was in
// the feed, the sequence number of its last change, and a tombstone for an
// id that left. Pure: the service records each new index into it and keeps
// it durable elsewhere (sqlite_store.ts); a snapshot carries it.

/** One id's line in the journal. */
export interface JournalEntry {
  /** The sequence number of the id's last change: it entered, changed or left the feed. */
  readonly seq: number;
  /**
   * Where the id's current stay in the feed began (for a tombstone, its
   * last stay). A sync that starts before it gets the id at this position,
   * even if the id changed again since: so a client whose cursor is past it
   * holds the id.
   */
  readonly born: number;
  /**
   * The id's ended stays, `[born, left]` (left: the tombstone's sequence
   * number): a client whose cursor lies in one holds the id from that stay,
   * so its leaving is news to that client, and to no other.
   */
  readonly lives: readonly (readonly [number, number])[];
  /** A hash of the item's feed form as it was last recorded (`change_key.ts`). */
  readonly key: string;
  /** The item's type (a `since` filtered by type still sees its tombstone). */
  readonly type: string;
  /** The item's category. */
  readonly category: string;
  /** Epoch ms at which the id left the feed; `null` while it is in it. */
  readonly deleted: number | null;
}

/** The journal at one point: what a cursor is checked and answered against. */
export interface JournalState {
  /** The journal's id, part of every cursor it gives out. */
  readonly id: string;
  /** The last sequence number given out (0: nothing recorded yet). */
  readonly head: number;
  /**
   * Cursors before it cannot be answered: a tombstone at it or before it was
   * dropped after the retention period, so a client there may miss a deletion.
   */
  readonly horizon: number;
  /** Every id the journal knows, in the feed or not. */
  readonly entries: ReadonlyMap<string, JournalEntry>;
  /**
   * The journal this one goes on from, up to its head then (see
   * {@link forkJournal}): its cursors up to there are answered too.
   */
  readonly forkOf?: { readonly id: string; readonly head: number };
}

/** An item as the journal records it. */
export interface RecordedItem {
  readonly id: string;
  /** A hash of its feed form (`change_key.ts`). */
  readonly key: string;
  readonly type: string;
  readonly category: string;
}

/** What recording one index changes: written in one transaction, then applied. */
export interface JournalChanges {
  /** Entries to write, each id once, in the order their sequence numbers were given. */
  readonly upserts: readonly (readonly [string, JournalEntry])[];
  /** Tombstones past the retention period, to drop. */
  readonly purged: readonly string[];
  /** The new head. */
  readonly head: number;
  /** The new horizon. */
  readonly horizon: number;
}

/** The ended stays of an id that has none yet (shared: one per id would be 10,000 arrays). */
const NO_LIVES: readonly (readonly [number, number])[] = Object.freeze([]);

/**
 * An empty journal with a new random id.
 *
 * @example
 * ```ts
 * import { emptyJournal } from "./state.ts";
 * emptyJournal().head; // 0
 * ```
 */
export function emptyJournal(id: string = newJournalId()): JournalState {
  return { id, head: 0, horizon: 0, entries: new Map() };
}

/**
 * The journal going on under a new id, in memory, when its file can no
 * longer be written (a full disk): the changes it records from now on have
 * cursors of the new id, which no other journal gives, so a restart that
 * goes on with the file answers them `410`, never short. The cursors given
 * out before the fork (`state.id`, up to `state.head`) are still answered:
 * the new journal holds every change after them.
 *
 * @example
 * ```ts
 * import { cursorProblem, emptyJournal, forkJournal } from "./state.ts";
 * const fork = forkJournal(emptyJournal("j1"), "j2");
 * cursorProblem(fork, { journal: "j1", seq: 0 }); // undefined: answered
 * ```
 */
export function forkJournal(state: JournalState, id: string = newJournalId()): JournalState {
  return { ...state, id, forkOf: { id: state.id, head: state.head } };
}

/** A random journal id: ten lowercase hexadecimal digits. */
export function newJournalId(): string {
  return crypto.randomUUID().replaceAll("-", "").slice(0, 10);
}

/**
 * What recording the feed items `current` (in feed order) changes in the
 * journal (SPEC 12): an id that is new, back, or whose key differs gets the
 * next sequence number, in feed order; an id in the journal but not in
 * `current` gets a tombstone, in id order (so two replicas recording the
 * same index give the same numbers); a tombstone older than `retentionMs`
 * is dropped, and the horizon moves past it. Pure.
 *
 * @example
 * ```ts
 * import { emptyJournal, planRecord } from "./state.ts";
 * const changes = planRecord(emptyJournal("j1"), [
 *   { id: "docs_doc_a", key: "k1", type: "docs", category: "doc" },
 * ], Date.UTC(2026, 0, 1), 90 * 86_400_000);
 * changes.head; // 1
 * ```
 */
export function planRecord(
  state: JournalState,
  current: readonly RecordedItem[],
  now: number,
  retentionMs: number,
): JournalChanges {
  let head = state.head;
  const upserts: [string, JournalEntry][] = [];
  const present = new Set<string>();
  for (const item of current) {
    present.add(item.id);
    const old = state.entries.get(item.id);
    if (old && old.deleted === null && old.key === item.key) continue;
    const seq = ++head;
    const stays = old !== undefined && old.deleted === null;
    upserts.push([item.id, {
      seq,
      born: stays ? old.born : seq,
      key: item.key,
      type: item.type,
      category: item.category,
      deleted: null,
      lives: old?.lives ?? NO_LIVES,
    }]);
  }
  const gone: string[] = [];
  for (const [id, entry] of state.entries) {
    if (entry.deleted === null && !present.has(id)) gone.push(id);
  }
  gone.sort();
  for (const id of gone) {
    const old = state.entries.get(id)!;
    const seq = ++head;
    upserts.push([id, { ...old, seq, deleted: now, lives: [...old.lives, [old.born, seq]] }]);
  }
  let horizon = state.horizon;
  const purged: string[] = [];
  for (const [id, entry] of state.entries) {
    if (entry.deleted !== null && now - entry.deleted > retentionMs && !present.has(id)) {
      purged.push(id);
      horizon = Math.max(horizon, entry.seq);
    }
  }
  return { upserts, purged, head, horizon };
}

/**
 * The journal with `changes` applied (a new value; `state` is unchanged).
 *
 * @example
 * ```ts
 * import { applyChanges, emptyJournal, planRecord } from "./state.ts";
 * const start = emptyJournal("j1");
 * const next = applyChanges(start, planRecord(start, [], 0, 0));
 * ```
 */
export function applyChanges(state: JournalState, changes: JournalChanges): JournalState {
  if (changes.upserts.length === 0 && changes.purged.length === 0) return state;
  const entries = new Map(state.entries);
  for (const id of changes.purged) entries.delete(id);
  for (const [id, entry] of changes.upserts) entries.set(id, entry);
  return { ...state, head: changes.head, horizon: changes.horizon, entries };
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

/** Entries in order of their last change, one array per journal state (made on its first `since`). */
const ordered = new WeakMap<JournalState, readonly (readonly [string, JournalEntry])[]>();

/**
 * The changes after position `after` (SPEC 12), at most `limit` of them:
 * every id in the feed whose last change is after it, and every id that
 * left after it and that a client at `after` holds (the cursor lies in one
 * of the id's stays: since `0`, no deletions at all), filtered by type and
 * category. Each change sits at the first of the id's positions after the
 * cursor (where its stay began, else its last change), so a sync that pages
 * on while an id changes again still meets the id where it first would
 * have: no id can move past a client and leave unseen. Pure; the caller
 * has checked the cursor with {@link cursorProblem}.
 *
 * @example
 * ```ts
 * import { changesSince, emptyJournal } from "./state.ts";
 * changesSince(emptyJournal("j1"), 0, {}).more; // false
 * ```
 */
export function changesSince(
  state: JournalState,
  after: number,
  filter: { readonly type?: string; readonly category?: string },
  limit?: number,
): ChangesAnswer {
  let list = ordered.get(state);
  if (!list) {
    list = [...state.entries].sort((a, b) => a[1].seq - b[1].seq);
    ordered.set(state, list);
  }
  // Only ids whose last change is after the cursor can be news: binary search for the first.
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (list[mid][1].seq <= after) low = mid + 1;
    else high = mid;
  }
  const matches: Change[] = [];
  for (let i = low; i < list.length; i++) {
    const [id, entry] = list[i];
    if (filter.type !== undefined && entry.type !== filter.type) continue;
    if (filter.category !== undefined && entry.category !== filter.category) continue;
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
 * import { cursorProblem, emptyJournal } from "./state.ts";
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
