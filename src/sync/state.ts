// The change journal as a value (SPEC 12): for every id that is or was in
// the feed, the sequence number of its last change, and a tombstone for an
// id that left. Pure: the service records each new index into it and keeps
// it durable elsewhere (sqlite_store.ts); a snapshot carries it. Cursors
// are answered from it in changes_since.ts.
import { sha256HexSync } from "../util/sha256.ts";

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
  /** The item's locale (a `since` filtered by `lang` still sees its tombstone); absent: none. */
  readonly lang?: string;
  /** The item's version (SPEC 16.3); absent: none. */
  readonly version?: string;
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
  /** Its locale and version (SPEC 16.3), where the site has them. */
  readonly lang?: string;
  readonly version?: string;
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
 * import { cursorProblem } from "./changes_since.ts";
 * import { emptyJournal, forkJournal } from "./state.ts";
 * const fork = forkJournal(emptyJournal("j1"), "j2");
 * cursorProblem(fork, { journal: "j1", seq: 0 }); // undefined: answered
 * ```
 */
export function forkJournal(state: JournalState, id: string = newJournalId()): JournalState {
  return { ...state, id, forkOf: { id: state.id, head: state.head } };
}

/**
 * The id of a journal that recorded one index and nothing before it, made
 * from what it recorded (each id and its change key, in sequence order)
 * instead of chance: ten hexadecimal digits, the same for the same feed
 * and another one after any change (SPEC 12: a change is what changes a
 * key). A static build (`content-feed build`) has no journal to go on
 * with: its cursor says which content it holds, and two builds of the same
 * content give the same bytes.
 *
 * @example
 * ```ts
 * import { applyChanges, contentJournalId, emptyJournal, planRecord } from "./state.ts";
 * const start = emptyJournal("0");
 * const recorded = applyChanges(start, planRecord(start, [
 *   { id: "docs_doc_a", key: "k1", type: "docs", category: "doc" },
 * ], 0, 0));
 * contentJournalId(recorded); // ten hexadecimal digits
 * ```
 */
export function contentJournalId(state: JournalState): string {
  const lines: string[] = [];
  for (const [id, entry] of state.entries) {
    if (entry.deleted === null) lines.push(`${entry.seq}\t${id}\t${entry.key}\n`);
  }
  return sha256HexSync(lines.join("")).slice(0, 10);
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
      ...(item.lang !== undefined ? { lang: item.lang } : {}),
      ...(item.version !== undefined ? { version: item.version } : {}),
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
