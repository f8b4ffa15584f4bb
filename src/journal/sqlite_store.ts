// The journal on disk (SPEC 12 "Durable"): a SQLite database through
// node:sqlite (in Deno, Bun and Node 24; no native module), in the state
// folder. Every record is one transaction, written before its cursor is
// given out: a crash at any moment (kill -9) loses no change whose cursor a
// client holds, and leaves a database that opens.
import { mkdirSync, renameSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import {
  emptyJournal,
  type JournalChanges,
  type JournalEntry,
  type JournalState,
} from "./state.ts";

/** The journal file's name in the state folder. */
export const JOURNAL_FILE = "journal.sqlite";

/** The schema's version, in `meta`; another version is not read. */
const VERSION = "1";

/** A journal kept in a SQLite file. */
export interface JournalStore {
  /** The journal as the file held it when opened. */
  readonly state: JournalState;
  /** Writes one record's changes in one transaction (durable when it returns). */
  write(changes: JournalChanges): void;
  /** Closes the database. */
  close(): void;
}

/**
 * Opens (or creates) the journal in `folder`. A file that is not a journal
 * this version can read is moved aside (`journal.sqlite.unreadable-<time>`)
 * and a new journal begins, with a warning: its cursors are then answered
 * with `410`, and clients sync again from `0`.
 *
 * @throws when the folder cannot be created or written (the caller keeps
 *   the journal in memory then)
 *
 * @example
 * ```ts
 * import { openJournalStore } from "./sqlite_store.ts";
 * const store = openJournalStore("/site/content/.content-feed", console.warn);
 * store.state.head; // 0 for a new journal
 * store.close();
 * ```
 */
export function openJournalStore(folder: string, warn: (message: string) => void): JournalStore {
  mkdirSync(folder, { recursive: true });
  const file = `${folder}/${JOURNAL_FILE}`;
  try {
    return open(file);
  } catch (error) {
    if (isUnwritable(error)) throw error;
    const aside = `${file}.unreadable-${Date.now()}`;
    renameSync(file, aside);
    warn(
      `${file}: not a journal this version can read (${
        (error as Error).message
      }); moved to ${aside} and a new journal begun (clients sync again from since=0)`,
    );
    return open(file);
  }
}

/** Whether an error says the folder or file cannot be written (not that the file is damaged). */
function isUnwritable(error: unknown): boolean {
  const text = `${(error as { code?: string }).code ?? ""} ${(error as Error).message ?? ""}`;
  return /EACCES|EPERM|EROFS|readonly|read-only|unable to open|permission/i.test(text);
}

function open(file: string): JournalStore {
  const db = new DatabaseSync(file);
  try {
    // WAL: a commit is one append to the log, and a reader never blocks.
    // FULL: the log is synced at every commit, so a cursor given out after
    // a commit survives a crash of the machine too, not only of the process.
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = FULL");
    // A small page cache: the journal is read once at start-up and then only
    // appended to; SQLite's default 2 MB was most of what it cost a server
    // at 10,000 items (bench: peak memory after start).
    db.exec("PRAGMA cache_size = -256");
    db.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS entries (
        id TEXT PRIMARY KEY, seq INTEGER NOT NULL, born INTEGER NOT NULL, key TEXT NOT NULL,
        type TEXT NOT NULL, category TEXT NOT NULL, deleted INTEGER, lives TEXT NOT NULL
      ) WITHOUT ROWID;`);
    const meta = new Map(
      (db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[])
        .map((row) => [row.key, row.value]),
    );
    let state: JournalState;
    if (meta.size === 0) {
      state = emptyJournal();
      const put = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
      db.exec("BEGIN");
      put.run("version", VERSION);
      put.run("id", state.id);
      put.run("head", "0");
      put.run("horizon", "0");
      db.exec("COMMIT");
    } else {
      if (meta.get("version") !== VERSION) {
        throw new Error(`schema version ${meta.get("version")}, not ${VERSION}`);
      }
      const entries = new Map<string, JournalEntry>();
      for (
        const row of db.prepare(
          "SELECT id, seq, born, key, type, category, deleted, lives FROM entries",
        ).iterate() as Iterable<Record<string, string | number | null>>
      ) {
        entries.set(row.id as string, {
          seq: Number(row.seq),
          born: Number(row.born),
          key: row.key as string,
          type: row.type as string,
          category: row.category as string,
          deleted: row.deleted === null ? null : Number(row.deleted),
          lives: JSON.parse(row.lives as string),
        });
      }
      state = {
        id: meta.get("id")!,
        head: Number(meta.get("head")),
        horizon: Number(meta.get("horizon")),
        entries,
      };
    }
    const upsert = db.prepare(
      `INSERT INTO entries (id, seq, born, key, type, category, deleted, lives)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, born = excluded.born, key = excluded.key,
         type = excluded.type, category = excluded.category, deleted = excluded.deleted,
         lives = excluded.lives`,
    );
    const purge = db.prepare("DELETE FROM entries WHERE id = ?");
    const setMeta = db.prepare("UPDATE meta SET value = ? WHERE key = ?");
    return {
      state,
      write(changes) {
        if (changes.upserts.length === 0 && changes.purged.length === 0) return;
        db.exec("BEGIN IMMEDIATE");
        try {
          for (const id of changes.purged) purge.run(id);
          for (const [id, e] of changes.upserts) {
            upsert.run(
              id,
              e.seq,
              e.born,
              e.key,
              e.type,
              e.category,
              e.deleted,
              JSON.stringify(e.lives),
            );
          }
          setMeta.run(String(changes.head), "head");
          setMeta.run(String(changes.horizon), "horizon");
          db.exec("COMMIT");
        } catch (error) {
          db.exec("ROLLBACK");
          throw error;
        }
      },
      close: () => db.close(),
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
