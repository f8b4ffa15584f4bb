// The service's change journal (SPEC 12): records each new index, durably
// where it can, and holds the state that requests answer `since` from.
import type { Index } from "../index/build.ts";
import type { IndexChanges } from "../index/changes.ts";
import type { Item } from "../index/item.ts";
import type { DerivationCache } from "../pipeline/derivation_cache.ts";
import { createChangeKeys } from "./change_key.ts";
import { oldestTombstone, planRecordChanged } from "./record_changed.ts";
import {
  JOURNAL_FILE,
  type JournalStore,
  JournalUnavailable,
  openJournalStore,
} from "./sqlite_store.ts";
import {
  applyChanges,
  emptyJournal,
  forkJournal,
  type JournalState,
  planRecord,
  type RecordedItem,
} from "./state.ts";

/** The journal a service keeps. */
export interface Journal {
  /** The journal as of the last index recorded. */
  readonly state: JournalState;
  /**
   * Its id and last sequence number, what a cursor is made of: read
   * without the journal's entries while no index was recorded yet.
   */
  readonly cursor: { readonly id: string; readonly head: number };
  /** Whether it is kept on disk now (else it lasts as long as the process). */
  readonly durable: boolean;
  /**
   * The derivation cache kept in the journal's database (SPEC 17), while
   * the journal is kept on disk; `undefined` when it lives in memory.
   */
  readonly cache: DerivationCache | undefined;
  /**
   * Records an index's feed (SPEC 12): its changes are written (in one
   * transaction, when durable) before the new state is returned, so no
   * cursor is given out for a change that a crash could lose. When the
   * write fails (a full disk), the journal goes on in memory under a new id
   * ({@link forkJournal}), with one warning: never a cursor for a change the
   * file does not hold.
   *
   * With `changes` against the index it recorded last, only their ids are
   * compared (the rest kept their items, so their keys); else, as at a
   * start (changes made while no server ran), the whole feed is.
   */
  record(index: Index, now: number, changes?: IndexChanges): JournalState;
  /** An item's change key, as records compare them (made once per item object). */
  keyOf(item: Item): string;
  /** Closes the database, and lets another server have it. */
  close(): void;
}

/** Options of {@link createJournal}. */
export interface JournalOptions {
  /** The state folder; `undefined`: in memory (a snapshot's, or a test's). */
  readonly folder?: string;
  /** The journal to start from when there is no folder (a snapshot's). */
  readonly initial?: JournalState;
  /** Days a deletion stays in the journal. */
  readonly retentionDays: number;
  /** Where the one warning goes when the journal cannot be kept on disk. */
  readonly warn: (message: string) => void;
}

const DAY = 86_400_000;

/**
 * The journal of a service: in the SQLite file of `folder` (SPEC 12), or in
 * memory with one warning when the file cannot be used: another server
 * holds it (one writer per journal), or the folder cannot be written (a
 * read-only deployment, a full disk). Cursors of a journal in memory last as
 * long as the process; the file is kept as it was, and a later start goes on
 * with it.
 *
 * @example
 * ```ts
 * import { createJournal } from "./journal.ts";
 * const journal = createJournal({ folder: "/site/.content-feed", retentionDays: 90, warn: console.warn });
 * // journal.record(index, Date.now()) after each index build
 * ```
 */
export function createJournal(options: JournalOptions): Journal {
  let store: JournalStore | undefined;
  if (options.folder !== undefined) {
    try {
      store = openJournalStore(options.folder, options.warn);
    } catch (error) {
      options.warn(
        error instanceof JournalUnavailable && error.reason === "held"
          ? `${error.message}: another server on this state folder? This one keeps a journal of its own in memory, whose cursors last as long as this process, and no derivation cache`
          : `${options.folder}: cannot keep the sync journal there (${
            (error as Error).message
          }); it lives in memory, and its cursors last as long as this process${
            error instanceof JournalUnavailable && !error.fileKept
              ? ""
              : ` (${JOURNAL_FILE} is kept for a later start)`
          }; every start derives every file`,
      );
    }
  }
  /**
   * The journal as of the last index recorded: read from the file on first
   * use (a restart answers its kept feed before; `cursor` needs no entries).
   */
  let state: JournalState | undefined = store ? undefined : options.initial ?? emptyJournal();
  const current = (): JournalState => {
    if (state !== undefined) return state;
    try {
      return state = store!.state;
    } catch (error) {
      closeQuietly(store!);
      store = undefined;
      options.warn(
        `${options.folder}: cannot read the sync journal (${
          (error as Error).message
        }); it lives in memory, and its cursors last as long as this process (${JOURNAL_FILE} is kept for a later start)`,
      );
      return state = emptyJournal();
    }
  };
  /** The index `state` records: changes against it need only their ids compared. */
  let recorded: Index | undefined;
  /** No tombstone left the feed before this (epoch ms; `undefined`: not known, look). */
  let oldest: number | undefined;
  const retentionMs = options.retentionDays * DAY;
  // An item object is the same in the next index when nothing about it changed.
  const keys = new WeakMap<Item, string>();
  const changeKey = createChangeKeys();
  const keyOf = (item: Item) => {
    let key = keys.get(item);
    if (key === undefined) {
      key = changeKey(item);
      keys.set(item, key);
    }
    return key;
  };
  return {
    get state() {
      return current();
    },
    get cursor() {
      return state ?? store?.opened ?? current();
    },
    get durable() {
      return store !== undefined;
    },
    get cache() {
      return store?.cache;
    },
    keyOf,
    record(index, now, since) {
      const recordOf = (item: Item): RecordedItem => ({
        id: item.id,
        key: keyOf(item),
        type: item.type,
        category: item.category,
        ...(item.lang !== null ? { lang: item.lang } : {}),
        ...(item.version !== null ? { version: item.version } : {}),
      });
      let before = current();
      let changes;
      if (since?.previous !== undefined && since.previous === recorded) {
        oldest ??= oldestTombstone(before);
        const purging = now - oldest > retentionMs;
        const ids = [...since.added, ...since.changed, ...since.removed];
        changes = planRecordChanged(before, index, ids, recordOf, now, retentionMs, purging);
        // A record that could purge may drop the oldest tombstone: the next one looks again.
        // One that leaves a tombstone leaves it at `now`.
        if (purging) oldest = undefined;
        else if (changes.upserts.some(([, entry]) => entry.deleted !== null)) {
          oldest = Math.min(oldest, now);
        }
      } else {
        // A start (or a journal that recorded another index): the whole feed, as changes
        // made while no server ran are found only so.
        changes = planRecord(before, index.feed.map(recordOf), now, retentionMs);
        oldest = undefined;
      }
      if (store !== undefined) {
        try {
          store.write(changes);
        } catch (error) {
          // The file keeps what it held (the write was one transaction);
          // cursors of the changes it could not take must not be of its id.
          closeQuietly(store);
          store = undefined;
          before = forkJournal(before);
          options.warn(
            `${options.folder}: cannot write the sync journal (${
              (error as Error).message
            }); it goes on in memory under a new id: cursors given out before are still answered, later ones last as long as this process (${JOURNAL_FILE} is kept for a later start)`,
          );
        }
      }
      const after = state = applyChanges(before, changes);
      recorded = index;
      return after;
    },
    close() {
      if (store !== undefined) closeQuietly(store);
      store = undefined;
    },
  };
}

/** Closes a store whose file may be failing: there is nothing more to do with it. */
function closeQuietly(store: JournalStore): void {
  try {
    store.close();
  } catch {
    // a close that cannot checkpoint leaves the log for the next open
  }
}
