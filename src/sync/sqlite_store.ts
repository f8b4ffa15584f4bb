// The journal on disk (SPEC 12 "Durable"): a SQLite database through
// node:sqlite (in Deno, Bun and Node 24; no native module), in the state
// folder. Every record is one transaction, written before its cursor is
// given out: a crash at any moment (kill -9) loses no change whose cursor a
// client holds, and leaves a database that opens. One process at a time
// holds it (SPEC 12 "Honest failure": two writers would give one sequence
// number to two changes, and answer cursors short).
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import type { CacheKey, DerivationCache } from "../pipeline/derivation_cache.ts";
import { derivationTables, isCacheTable } from "./derivation_store.ts";
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
  /**
   * The journal as the file held it when opened. Its entries are read on
   * first use (10,000 of them took about 100 ms under Deno, before a
   * restart could answer its kept feed); throws as `openJournalStore` does
   * when they cannot be read, after moving a damaged file aside.
   */
  readonly state: JournalState;
  /** The file's id and last sequence number when opened (read with the file, not its entries). */
  readonly opened: { readonly id: string; readonly head: number };
  /** Writes one record's changes in one transaction (durable when it returns). */
  write(changes: JournalChanges): void;
  /** The derivation cache kept in the same database (SPEC 17). */
  readonly cache: DerivationCache;
  /** Closes the database, and so lets another server have it. */
  close(): void;
}

/**
 * Why the journal file cannot be used now, though it may be a good journal:
 * another process holds it (`held`), or it cannot be written or read here
 * (`unusable`: a full disk, a read-only or unwritable folder, an I/O error).
 * The file is left as it is, for a later start to go on with.
 */
export class JournalUnavailable extends Error {
  /** `held`: another process has it open; `unusable`: it cannot be opened or written here. */
  readonly reason: "held" | "unusable";
  /** Whether a journal file is there, left as it is for a later start. */
  readonly fileKept: boolean;

  /**
   * @example
   * ```ts
   * import { JournalUnavailable } from "./sqlite_store.ts";
   * new JournalUnavailable("held", "database is locked").reason; // "held"
   * ```
   */
  constructor(reason: "held" | "unusable", message: string, fileKept = true) {
    super(message);
    this.name = "JournalUnavailable";
    this.reason = reason;
    this.fileKept = fileKept;
  }
}

/** A file that is not a journal this version can read: another schema, another program's. */
class NotAJournal extends Error {
  override name = "NotAJournal";
}

/**
 * Opens (or creates) the journal in `folder`, and holds it: while it is
 * open, no other process (or other connection in this one) can open it, so
 * a journal has one writer and sequence numbers are never given twice.
 * Closing it, or the process ending in any way (kill -9 too), lets it go:
 * the lock is the operating system's, on the open file.
 *
 * A file that is not a journal (not a SQLite database, a damaged one, a
 * SQLite database of another schema or program) is moved aside
 * (`journal.sqlite.unreadable-<time>`) and a new journal begins, with a
 * warning: its cursors are then answered with `410`, and clients sync again
 * from `0`. A journal that cannot be used now is never moved aside.
 *
 * @throws {JournalUnavailable} when another process holds the journal, or
 *   the folder or the file cannot be created, read or written (a full disk,
 *   a read-only folder): the file is kept, and the caller keeps the journal
 *   in memory
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
  const file = `${folder}/${JOURNAL_FILE}`;
  let store: JournalStore;
  try {
    mkdirSync(folder, { recursive: true });
    store = open(file);
  } catch (error) {
    if (!isNotAJournal(error)) throw unavailable(file, error);
    store = openAside(file, error, warn);
  }
  // A file whose entries turn out damaged when first read is moved aside then, as at the open.
  // The cache handed out before goes on in the new file: opened there with the same key (so it
  // is this version's and root's), its rows begin again.
  let cacheIn = store;
  let openedWith: CacheKey | undefined;
  const cache: DerivationCache = {
    open: (key) => {
      openedWith = key;
      cacheIn = store;
      return store.cache.open(key);
    },
    write: (change) => {
      if (cacheIn !== store && openedWith !== undefined) store.cache.open(openedWith);
      cacheIn = store;
      store.cache.write(change);
    },
  };
  return {
    get state() {
      try {
        return store.state;
      } catch (error) {
        if (!isNotAJournal(error)) throw unavailable(file, error);
        try {
          store.close();
        } catch {
          // a damaged file: nothing to keep of it
        }
        store = openAside(file, error, warn);
        return store.state;
      }
    },
    get opened() {
      return store.opened;
    },
    write: (changes) => store.write(changes),
    cache,
    close: () => store.close(),
  };
}

/** Moves a file that is no journal of this version aside, says so, and begins a new journal. */
function openAside(file: string, error: unknown, warn: (message: string) => void): JournalStore {
  const aside = `${file}.unreadable-${Date.now()}`;
  try {
    renameSync(file, aside);
    warn(
      `${file}: not a journal this version can read (${
        (error as Error).message
      }); moved to ${aside} and a new journal begun (clients sync again from since=0)`,
    );
    return open(file);
  } catch (again) {
    throw unavailable(file, again);
  }
}

/**
 * Whether an error says the file is no journal of this version: not a
 * database, a damaged one, or another schema. Every other error (a full
 * disk, an I/O error, a read-only or unwritable folder, a lock) says nothing
 * against the file, which is then kept.
 */
function isNotAJournal(error: unknown): boolean {
  if (error instanceof NotAJournal) return true;
  const code = primaryCode(error);
  if (code !== undefined) return code === SQLITE_NOTADB || code === SQLITE_CORRUPT;
  // Deno's node:sqlite gives no code: SQLite's own texts for those two.
  return /^(file is not a database|database disk image is malformed)\b/.test(
    (error as Error)?.message ?? "",
  );
}

const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;

/** SQLite's primary result code of an error (node:sqlite's `errcode`, Node and Bun), if any. */
function primaryCode(error: unknown): number | undefined {
  const code = (error as { errcode?: unknown })?.errcode;
  return typeof code === "number" ? code & 0xff : undefined;
}

/** The error as the caller sees it: held by another process, or unusable here. */
function unavailable(file: string, error: unknown): JournalUnavailable {
  const message = (error as Error)?.message ?? String(error);
  const code = primaryCode(error);
  const held = code === undefined
    ? /^database (table )?is locked\b/.test(message)
    : code === SQLITE_BUSY || code === SQLITE_LOCKED;
  if (held) {
    return new JournalUnavailable(
      "held",
      `${file}: another process holds the sync journal (${message})`,
    );
  }
  const folder = file.slice(0, file.lastIndexOf("/"));
  const why = folderProblem(folder);
  return new JournalUnavailable(
    "unusable",
    why === undefined || message.includes(why) ? message : `${why}: ${message}`,
    isFile(file),
  );
}

/**
 * What is wrong with a state folder, in words, where the file system says
 * (SQLite's own message for a read-only folder is "disk I/O error", and
 * Node's for a file in its place "EEXIST … mkdir"); `undefined` when a file
 * can be made in it.
 */
function folderProblem(folder: string): string | undefined {
  try {
    if (!statSync(folder).isDirectory()) return `${folder} is a file, not a folder`;
  } catch (error) {
    return `${folder} cannot be made (${(error as { code?: string }).code ?? "error"})`;
  }
  const probe = `${folder}/.probe-${process.pid}`;
  try {
    writeFileSync(probe, "");
    rmSync(probe, { force: true });
    return undefined;
  } catch (error) {
    const code = (error as { code?: string }).code ?? "error";
    const said = code === "EROFS"
      ? "a read-only file system"
      : code === "ENOSPC"
      ? "the disk is full"
      : code === "EACCES" || code === "EPERM"
      ? "no permission to write"
      : code;
    return `${folder} cannot be written (${said})`;
  }
}

/** Whether a path is a file (a journal a later start may go on with). */
function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The columns of each table of a journal, in order. */
const SCHEMA: Record<string, string> = {
  entries: "id,seq,born,key,type,category,deleted,lives,lang,version",
  meta: "key,value",
};
/**
 * The entries' columns before an item had a locale and a version (SPEC
 * 16.3): such a journal is the same journal, and gains the two columns
 * (each entry's is `NULL`: none), so its cursors go on.
 */
const ENTRIES_BEFORE_VARIANTS = "id,seq,born,key,type,category,deleted,lives";

function open(file: string): JournalStore {
  const db = new DatabaseSync(file);
  try {
    // EXCLUSIVE: the first read takes the file's lock and keeps it until
    // the database is closed, so a second server on this folder cannot
    // open it (SQLITE_BUSY), and gives no sequence number this one gives.
    // The operating system drops the lock with the process, however it
    // ends. It also keeps WAL's index in this process's memory: no -shm file.
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    // WAL: a commit is one append to the log.
    // FULL: the log is synced at every commit, so a cursor given out after
    // a commit survives a crash of the machine too, not only of the process.
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = FULL");
    // A small page cache: the journal is read once at start-up and then only
    // appended to; SQLite's default 2 MB was most of what it cost a server
    // at 10,000 items (bench: peak memory after start).
    db.exec("PRAGMA cache_size = -256");
    // The derivation cache's tables (derivation_store.ts) are its own to check.
    const tables = (db.prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
    ).all() as { name: string }[]).filter(({ name }) => !isCacheTable(name));
    if (tables.length === 0) {
      // One transaction: a crash leaves no half-made journal.
      db.exec(`BEGIN IMMEDIATE;
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE entries (
          id TEXT PRIMARY KEY, seq INTEGER NOT NULL, born INTEGER NOT NULL, key TEXT NOT NULL,
          type TEXT NOT NULL, category TEXT NOT NULL, deleted INTEGER, lives TEXT NOT NULL,
          lang TEXT, version TEXT
        ) WITHOUT ROWID;
        COMMIT;`);
    } else {
      for (const { name } of tables) {
        const columns = (db.prepare("SELECT name FROM pragma_table_info(?)").all(name) as {
          name: string;
        }[]).map((column) => column.name).join(",");
        if (name === "entries" && columns === ENTRIES_BEFORE_VARIANTS) {
          db.exec(`BEGIN IMMEDIATE;
            ALTER TABLE entries ADD COLUMN lang TEXT;
            ALTER TABLE entries ADD COLUMN version TEXT;
            COMMIT;`);
        } else if (SCHEMA[name] !== columns) {
          throw new NotAJournal(`table ${name} (${columns}) is not a journal's`);
        }
      }
      if (tables.length !== Object.keys(SCHEMA).length) {
        throw new NotAJournal(`tables ${tables.map((t) => t.name).join(", ")}, not a journal's`);
      }
    }
    const meta = new Map(
      (db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[])
        .map((row) => [row.key, row.value]),
    );
    let state: JournalState | undefined;
    let readState: () => JournalState;
    let opened: JournalStore["opened"];
    if (meta.size === 0) {
      const empty = state = emptyJournal();
      readState = () => empty;
      opened = { id: empty.id, head: 0 };
      const put = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
      db.exec("BEGIN");
      put.run("version", VERSION);
      put.run("id", state.id);
      put.run("head", "0");
      put.run("horizon", "0");
      db.exec("COMMIT");
    } else {
      if (meta.get("version") !== VERSION) {
        throw new NotAJournal(`schema version ${meta.get("version")}, not ${VERSION}`);
      }
      const [id, head, horizon] = [meta.get("id"), meta.get("head"), meta.get("horizon")];
      const counts = [head, horizon].every((n) => /^\d{1,15}$/.test(n ?? ""));
      if (!/^[0-9a-z]{1,32}$/.test(id ?? "") || !counts) {
        throw new NotAJournal(`meta id ${id}, head ${head}, horizon ${horizon}`);
      }
      readState = () => {
        const entries = new Map<string, JournalEntry>();
        // `all`, not `iterate`: Deno's `iterate` ends without an error at a damaged page (a
        // journal read as empty), where `all` throws SQLite's "malformed" as Node and Bun do.
        const rows = db.prepare(
          "SELECT id, seq, born, key, type, category, deleted, lives, lang, version FROM entries",
        ).all() as Record<string, string | number | null>[];
        for (const row of rows) {
          entries.set(row.id as string, {
            seq: Number(row.seq),
            born: Number(row.born),
            key: row.key as string,
            type: row.type as string,
            category: row.category as string,
            ...(row.lang !== null ? { lang: row.lang as string } : {}),
            ...(row.version !== null ? { version: row.version as string } : {}),
            deleted: row.deleted === null ? null : Number(row.deleted),
            lives: JSON.parse(row.lives as string),
          });
        }
        return { id: id!, head: Number(head), horizon: Number(horizon), entries };
      };
      opened = { id: id!, head: Number(head) };
    }
    const upsert = db.prepare(
      `INSERT INTO entries (id, seq, born, key, type, category, deleted, lives, lang, version)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, born = excluded.born, key = excluded.key,
         type = excluded.type, category = excluded.category, deleted = excluded.deleted,
         lives = excluded.lives, lang = excluded.lang, version = excluded.version`,
    );
    const purge = db.prepare("DELETE FROM entries WHERE id = ?");
    // A cache whose tables cannot be made (a full disk) is no reason to keep the journal in memory.
    let cache: DerivationCache;
    try {
      cache = derivationTables(db);
    } catch (error) {
      const fail = () => {
        throw error;
      };
      cache = { open: fail, write: fail };
    }
    const setMeta = db.prepare("UPDATE meta SET value = ? WHERE key = ?");
    return {
      get state() {
        return state ??= readState();
      },
      opened,
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
              e.lang ?? null,
              e.version ?? null,
            );
          }
          setMeta.run(String(changes.head), "head");
          setMeta.run(String(changes.horizon), "horizon");
          db.exec("COMMIT");
        } catch (error) {
          // SQLite may have rolled back already (a full disk, an I/O error):
          // the write's own error is the one to report.
          try {
            db.exec("ROLLBACK");
          } catch {
            // no transaction left to roll back
          }
          throw error;
        }
      },
      cache,
      close: () => db.close(),
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
