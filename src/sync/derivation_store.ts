// The derivation cache on disk (SPEC 17): tables of the journal's SQLite
// database (the one state folder a server holds), beside the journal's own.
// Each write is one transaction: a crash at any moment (kill -9) leaves the
// rows of the last write that committed, each of which still says what its
// file's bytes were (size, time, inode, checksum), so a cache never serves
// a file that changed. The cache is a copy of what deriving gives: a table
// that is not what this version writes is dropped and made again, never a
// reason to set the journal aside.
import type { DatabaseSync } from "node:sqlite";
import type {
  CachedFileRow,
  CacheKey,
  CacheWrite,
  DerivationCache,
  OpenedCache,
} from "../pipeline/derivation_cache.ts";
import type { GitHistory, HistoryDates } from "../source/git.ts";

/** The cache's tables and their columns, in order. */
const TABLES: Record<string, { columns: string; create: string }> = {
  cache_meta: {
    columns: "key,value",
    create: "CREATE TABLE cache_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
  },
  cache_plugins: {
    columns: "name,fingerprint",
    create:
      "CREATE TABLE cache_plugins (name TEXT PRIMARY KEY, fingerprint TEXT NOT NULL) WITHOUT ROWID",
  },
  cache_files: {
    columns: "plugin,file,size,mtime,ino,checksum,read_at,extra,result",
    create: `CREATE TABLE cache_files (
      plugin TEXT NOT NULL, file TEXT NOT NULL, size REAL NOT NULL, mtime REAL NOT NULL,
      ino REAL NOT NULL, checksum TEXT, read_at REAL NOT NULL, extra TEXT, result TEXT NOT NULL,
      PRIMARY KEY (plugin, file)
    ) WITHOUT ROWID`,
  },
  cache_git: {
    columns: "path,first,last",
    create:
      "CREATE TABLE cache_git (path TEXT PRIMARY KEY, first REAL NOT NULL, last REAL NOT NULL) WITHOUT ROWID",
  },
};

/** Whether a table of the state database is the cache's (the journal's schema check passes over them). */
export function isCacheTable(name: string): boolean {
  return Object.hasOwn(TABLES, name);
}

/**
 * The derivation cache in `db` (the journal's open database, which this
 * process holds): its tables made where missing, and made again where they
 * are not what this version writes.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { derivationTables } from "./derivation_store.ts";
 * const cache = derivationTables(new DatabaseSync(":memory:"));
 * cache.open({ version: "v1", root: "/site/content", plugins: {} }).files.length; // 0
 * ```
 */
export function derivationTables(db: DatabaseSync): DerivationCache {
  const present = new Map(
    (db.prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'cache\\_%' ESCAPE '\\'",
    ).all() as { name: string }[]).map(({ name }) => [
      name,
      (db.prepare("SELECT name FROM pragma_table_info(?)").all(name) as { name: string }[])
        .map((column) => column.name).join(","),
    ]),
  );
  const wrong = Object.entries(TABLES).filter(([name, { columns }]) =>
    present.get(name) !== columns
  );
  if (wrong.length > 0) {
    db.exec("BEGIN IMMEDIATE");
    try {
      for (const [name, { create }] of wrong) {
        if (present.has(name)) db.exec(`DROP TABLE ${name}`);
        db.exec(create);
      }
      db.exec("COMMIT");
    } catch (error) {
      rollback(db);
      throw error;
    }
  }
  const putMeta = db.prepare(
    "INSERT INTO cache_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  );
  const putFile = db.prepare(
    `INSERT INTO cache_files (plugin, file, size, mtime, ino, checksum, read_at, extra, result)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (plugin, file) DO UPDATE SET size = excluded.size, mtime = excluded.mtime,
       ino = excluded.ino, checksum = excluded.checksum, read_at = excluded.read_at,
       extra = excluded.extra, result = excluded.result`,
  );
  const dropFile = db.prepare("DELETE FROM cache_files WHERE plugin = ? AND file = ?");
  const putGit = db.prepare(
    `INSERT INTO cache_git (path, first, last) VALUES (?, ?, ?)
     ON CONFLICT (path) DO UPDATE SET first = excluded.first, last = excluded.last`,
  );
  const dropGit = db.prepare("DELETE FROM cache_git WHERE path = ?");

  /**
   * Runs `work` in one transaction, committed without waiting for the disk
   * (`synchronous = NORMAL` for it, the journal's own records keep `FULL`):
   * in WAL mode a process killed at any moment loses no committed
   * transaction and leaves a database that opens; a machine that loses power
   * may lose the last ones, which only means files derived again. The cache
   * is a copy: its writes need not cost the journal's syncs.
   */
  const transaction = (work: () => void) => {
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("BEGIN IMMEDIATE");
    try {
      work();
      db.exec("COMMIT");
    } catch (error) {
      rollback(db);
      throw error;
    } finally {
      try {
        db.exec("PRAGMA synchronous = FULL");
      } catch {
        // a database that failed: the error above is the one to report
      }
    }
  };

  return {
    open(key: CacheKey): OpenedCache {
      const meta = new Map(
        (db.prepare("SELECT key, value FROM cache_meta").all() as {
          key: string;
          value: string;
        }[]).map((row) => [row.key, row.value]),
      );
      let dropped: string | undefined;
      const version = meta.get("version");
      const root = meta.get("root");
      const hasRows = (db.prepare("SELECT 1 FROM cache_files LIMIT 1").get()) !== undefined ||
        (db.prepare("SELECT 1 FROM cache_git LIMIT 1").get()) !== undefined;
      if (version !== key.version || root !== key.root) {
        if (hasRows) {
          dropped = root !== key.root
            ? `it was made for another content root (${root})`
            : "it was made by another version of content-feed";
        }
        transaction(() => {
          db.exec("DELETE FROM cache_files; DELETE FROM cache_git; DELETE FROM cache_plugins;");
          db.exec("DELETE FROM cache_meta");
          putMeta.run("version", key.version);
          putMeta.run("root", key.root);
        });
        meta.clear();
      }
      // A plugin whose configuration (or generator, or authors) changed is derived again.
      const kept = new Map(
        (db.prepare("SELECT name, fingerprint FROM cache_plugins").all() as {
          name: string;
          fingerprint: string;
        }[]).map((row) => [row.name, row.fingerprint]),
      );
      const stale = [...kept].filter(([name, print]) => key.plugins[name] !== print);
      const fresh = Object.entries(key.plugins).filter(([name, print]) => kept.get(name) !== print);
      if (stale.length > 0 || fresh.length > 0) {
        const dropPlugin = db.prepare("DELETE FROM cache_files WHERE plugin = ?");
        const forget = db.prepare("DELETE FROM cache_plugins WHERE name = ?");
        const putPlugin = db.prepare(
          "INSERT INTO cache_plugins (name, fingerprint) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET fingerprint = excluded.fingerprint",
        );
        transaction(() => {
          for (const [name] of stale) {
            dropPlugin.run(name);
            forget.run(name);
          }
          for (const [name, print] of fresh) {
            dropPlugin.run(name);
            putPlugin.run(name, print);
          }
        });
      }
      const files = (db.prepare(
        "SELECT plugin, file, size, mtime, ino, checksum, read_at, extra, result FROM cache_files",
      ).all() as Record<string, string | number | null>[]).map((row): CachedFileRow => ({
        plugin: row.plugin as string,
        file: row.file as string,
        size: row.size as number,
        mtime: row.mtime as number,
        ino: row.ino as number,
        checksum: row.checksum as string | null,
        readAt: row.read_at as number,
        extra: row.extra as string | null,
        result: row.result as string,
      }));
      let git: GitHistory | undefined;
      const head = meta.get("git.head");
      if (head !== undefined) {
        const history = new Map<string, HistoryDates>();
        for (
          const row of db.prepare("SELECT path, first, last FROM cache_git").all() as {
            path: string;
            first: number;
            last: number;
          }[]
        ) history.set(row.path, { first: row.first, last: row.last });
        git = {
          head,
          prefix: meta.get("git.prefix") ?? "",
          shallow: meta.get("git.shallow") === "true",
          files: history,
        };
      }
      return { files, ...(git ? { git } : {}), ...(dropped ? { dropped } : {}) };
    },
    write(change: CacheWrite) {
      transaction(() => {
        for (const { plugin, file } of change.remove) dropFile.run(plugin, file);
        for (const row of change.upsert) {
          putFile.run(
            row.plugin,
            row.file,
            row.size,
            row.mtime,
            row.ino,
            row.checksum,
            row.readAt,
            row.extra,
            row.result,
          );
        }
        const git = change.git;
        if (!git) return;
        const history = git.history;
        if (history === undefined || git.whole) db.exec("DELETE FROM cache_git");
        if (history === undefined) {
          db.exec("DELETE FROM cache_meta WHERE key IN ('git.head', 'git.prefix', 'git.shallow')");
          return;
        }
        const paths = git.whole ? history.files.keys() : git.paths;
        for (const path of paths) {
          const dates = history.files.get(path);
          if (dates) putGit.run(path, dates.first, dates.last);
          else dropGit.run(path);
        }
        putMeta.run("git.head", history.head);
        putMeta.run("git.prefix", history.prefix);
        putMeta.run("git.shallow", String(history.shallow));
      });
    },
  };
}

function rollback(db: DatabaseSync): void {
  try {
    db.exec("ROLLBACK");
  } catch {
    // SQLite rolled back already
  }
}
