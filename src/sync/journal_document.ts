// A journal as a snapshot carries it (SPEC 12 "Edges and replicas"): every
// replica of one snapshot answers the same cursors.
import { compareText } from "../util/compare.ts";
import type { JournalState } from "./state.ts";

/**
 * A journal as a snapshot carries it: rows of `[id, seq, born, key, type,
 * category, deleted, lives]`, then `lang` and `version` where the entry has
 * either (SPEC 16.3; a site without locales or versions writes what it did).
 */
export interface SnapshotJournal {
  /** The journal's id (in every cursor it gives out). */
  readonly id: string;
  /** Its last sequence number. */
  readonly head: number;
  /** Cursors before it are answered 410. */
  readonly horizon: number;
  /** Every id it knows, in id order. */
  readonly entries: readonly (readonly [
    string,
    number,
    number,
    string,
    string,
    string,
    number | null,
    readonly (readonly [number, number])[],
    (string | null)?,
    (string | null)?,
  ])[];
}

/**
 * A journal state as a snapshot stores it, ids in order.
 *
 * @example
 * ```ts
 * import { journalToSnapshot } from "./journal_document.ts";
 * import { emptyJournal } from "./state.ts";
 * journalToSnapshot(emptyJournal("j1")); // { id: "j1", head: 0, horizon: 0, entries: [] }
 * ```
 */
export function journalToSnapshot(state: JournalState): SnapshotJournal {
  return {
    id: state.id,
    head: state.head,
    horizon: state.horizon,
    entries: [...state.entries].sort((a, b) => compareText(a[0], b[0])).map((
      [id, e],
    ) => {
      const row = [id, e.seq, e.born, e.key, e.type, e.category, e.deleted, e.lives] as const;
      return e.lang === undefined && e.version === undefined
        ? row
        : [...row, e.lang ?? null, e.version ?? null] as const;
    }),
  };
}

/**
 * A snapshot's journal as a state to answer from.
 *
 * @example
 * ```ts
 * import { journalFromSnapshot, journalToSnapshot } from "./journal_document.ts";
 * import { emptyJournal } from "./state.ts";
 * journalFromSnapshot(journalToSnapshot(emptyJournal("j1"))).head; // 0
 * ```
 */
export function journalFromSnapshot(
  carried: { readonly id: string; readonly head: number },
): JournalState {
  const journal = carried as SnapshotJournal;
  return {
    id: journal.id,
    head: journal.head,
    horizon: journal.horizon,
    entries: new Map(
      journal.entries.map((
        [id, seq, born, key, type, category, deleted, lives, lang, version],
      ) => [id, {
        seq,
        born,
        key,
        type,
        category,
        ...(lang != null ? { lang } : {}),
        ...(version != null ? { version } : {}),
        deleted,
        lives,
      }]),
    ),
  };
}
