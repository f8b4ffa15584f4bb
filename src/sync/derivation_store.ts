// The derivation cache on disk (SPEC 17): tables of the journal's SQLite
// database (the one state folder a server holds), beside the journal's own.
// The files' rows are kept in parts, each one JSON text, so a restart
// parses a few tens of texts and a change rewrites one part. Each write is
// one transaction: a crash at any moment (kill -9) leaves the parts of the
// last write that committed, each row of which still says what its file's
// bytes were (size, time, inode, checksum), so a cache never serves a file
// that changed. The cache is a copy of what deriving gives: a table that is
// not what this version writes is dropped and made again, never a reason
// to set the journal aside.
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
  cache_parts: {
    columns: "part,rows",
    create: "CREATE TABLE cache_parts (part INTEGER PRIMARY KEY, rows TEXT NOT NULL)",
  },
};

/**
 * Tables an earlier version of the cache made, dropped when found
 * (`cache_feed`: the kept full feed, a file of its own since, `sync/feed_image_file.ts`).
 */
const FORMER = ["cache_files", "cache_git", "cache_feed"];

/** Whether a table of the state database is the cache's (the journal's schema check passes over them). */
export function isCacheTable(name: string): boolean {
  return Object.hasOwn(TABLES, name) || FORMER.includes(name);
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
 * cache.open({ version: "v1", root: "/site/content", plugins: {} }).parts.length; // 0
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
  const former = FORMER.filter((name) => present.has(name));
  if (wrong.length > 0 || former.length > 0) {
    db.exec("BEGIN IMMEDIATE");
    try {
      for (const name of former) db.exec(`DROP TABLE ${name}`);
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
  const getPart = db.prepare("SELECT rows FROM cache_parts WHERE part = ?");
  const putPart = db.prepare(
    "INSERT INTO cache_parts (part, rows) VALUES (?, ?) ON CONFLICT (part) DO UPDATE SET rows = excluded.rows",
  );
  const dropPart = db.prepare("DELETE FROM cache_parts WHERE part = ?");

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
  /** A part's rows as kept (a part that does not parse holds none: its files are read again). */
  const rowsOf = (text: string | undefined): CachedFileRow[] => {
    if (text === undefined) return [];
    try {
      const rows = JSON.parse(text);
      return Array.isArray(rows) ? rows : [];
    } catch {
      return [];
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
      if (version !== key.version || root !== key.root) {
        const held = db.prepare("SELECT 1 FROM cache_parts LIMIT 1").get() !== undefined ||
          meta.has("git.head");
        if (held) {
          dropped = root !== key.root
            ? `it was made for another content root (${root})`
            : "it was made by another version of content-feed";
        }
        transaction(() => {
          db.exec("DELETE FROM cache_parts; DELETE FROM cache_plugins; DELETE FROM cache_meta;");
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
      const changed = new Set(
        [...kept.keys(), ...Object.keys(key.plugins)].filter((name) =>
          kept.get(name) !== key.plugins[name]
        ),
      );
      // The parts' numbers now, their text when each is read (94 MB at 100,000 files, read in
      // one piece in 150-220 ms): a start serving its kept feed reads them between turns.
      const stored = (db.prepare("SELECT part FROM cache_parts").all() as { part: number }[])
        .map(({ part }) => part);
      const textOf = (part: number): string | undefined => {
        try {
          return (getPart.get(part) as { rows?: string } | undefined)?.rows;
        } catch {
          return undefined; // a database that went away (a journal begun again): derived again
        }
      };
      /** Every part's rows, parsed here when a plugin's rows had to be dropped. */
      let parsed: { part: number; rows: CachedFileRow[] }[] | undefined;
      if (changed.size > 0) {
        const parts = parsed = stored.map((part) => ({ part, rows: rowsOf(textOf(part)) }));
        const forget = db.prepare("DELETE FROM cache_plugins WHERE name = ?");
        const putPlugin = db.prepare(
          "INSERT INTO cache_plugins (name, fingerprint) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET fingerprint = excluded.fingerprint",
        );
        transaction(() => {
          for (const part of parts) {
            const left = part.rows.filter((row) => !changed.has(row[0]));
            if (left.length === part.rows.length) continue;
            part.rows = left;
            putPart.run(part.part, JSON.stringify(left));
          }
          for (const name of changed) {
            const print = key.plugins[name];
            if (print === undefined) forget.run(name);
            else putPlugin.run(name, print);
          }
        });
      }
      let git: GitHistory | undefined;
      const head = meta.get("git.head");
      if (head !== undefined) {
        const files = new Map<string, HistoryDates>();
        try {
          const dates = JSON.parse(meta.get("git.files") ?? "[]") as [string, number, number][];
          for (const [path, first, last] of dates) files.set(path, { first, last });
          git = {
            head,
            prefix: meta.get("git.prefix") ?? "",
            shallow: shallowOf(meta.get("git.shallow")),
            replaced: meta.get("git.replaced") ?? "",
            files,
          };
        } catch {
          git = undefined; // read again from git
        }
      }
      return {
        // Read and parsed when first asked for, once.
        parts: stored.map((part, i) => {
          if (parsed) return () => parsed![i].rows;
          let rows: readonly CachedFileRow[] | undefined;
          return () => rows ??= rowsOf(textOf(part));
        }),
        ...(git ? { git } : {}),
        ...(dropped ? { dropped } : {}),
      };
    },
    write(change: CacheWrite) {
      transaction(() => {
        for (const [part, { upsert, remove }] of change.parts) {
          const byFile = new Map<string, CachedFileRow>();
          for (const row of rowsOf((getPart.get(part) as { rows?: string } | undefined)?.rows)) {
            byFile.set(`${row[0]}\n${row[1]}`, row);
          }
          for (const key of remove) byFile.delete(key);
          for (const row of upsert) byFile.set(`${row[0]}\n${row[1]}`, row);
          if (byFile.size === 0) dropPart.run(part);
          else putPart.run(part, JSON.stringify([...byFile.values()]));
        }
        const git = change.git;
        if (!git) return;
        const history = git.history;
        if (history === undefined) {
          db.exec(
            "DELETE FROM cache_meta WHERE key IN ('git.head', 'git.prefix', 'git.shallow', 'git.replaced', 'git.files')",
          );
          return;
        }
        const files: [string, number, number][] = [];
        for (const [path, dates] of history.files) files.push([path, dates.first, dates.last]);
        putMeta.run("git.head", history.head);
        putMeta.run("git.prefix", history.prefix);
        putMeta.run("git.shallow", history.shallow);
        putMeta.run("git.replaced", history.replaced);
        putMeta.run("git.files", JSON.stringify(files));
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

/**
 * The kept history's `shallow`: a digest of the boundary, `""` for a whole
 * history; `"true"` and `"false"`, as an earlier version kept it, read as a
 * boundary not known (read again) and as a whole history.
 */
function shallowOf(kept: string | undefined): string {
  return kept === undefined || kept === "false" ? "" : kept === "true" ? "shallow" : kept;
}
