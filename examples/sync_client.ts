// A pipeline's sync loop (SPEC 12): mirrors a content feed into a local
// SQLite table with full-text search, one small request per sync when
// little changed. The client (content-feed/client) pages, starts over on a
// 410 and retries; this file stores each batch and its cursor together.
//
//   deno run -A examples/sync_client.ts http://localhost:8000 mirror.sqlite [--every 10]
//   deno run -A examples/sync_client.ts http://localhost:8000 mirror.sqlite --search "deno deploy"
//
// Also runs under `node` and `bun`. In your own project, import the client
// as `import { FeedClient } from "content-feed/client";`.
import { DatabaseSync } from "node:sqlite";
import process from "node:process";
import { FeedClient } from "../client.ts";

/** Opens (or creates) a mirror: the items with their text indexed, and the cursor. */
export function openMirror(file: string): DatabaseSync {
  const db = new DatabaseSync(file);
  db.exec(`CREATE TABLE IF NOT EXISTS cursor (one INTEGER PRIMARY KEY CHECK (one = 1), value TEXT);
    CREATE VIRTUAL TABLE IF NOT EXISTS items USING fts5(id UNINDEXED, title, body, item UNINDEXED);`);
  return db;
}

/** What one sync did. */
export interface Synced {
  readonly changed: number;
  readonly deleted: number;
  readonly requests: number;
}

/** Brings the mirror up to date with the feed at `site` (its base URL). */
export async function sync(site: string, db: DatabaseSync): Promise<Synced> {
  const row = db.prepare("SELECT value FROM cursor").get() as { value: string } | undefined;
  const drop = db.prepare("DELETE FROM items WHERE id = ?");
  const add = db.prepare("INSERT INTO items (id, title, body, item) VALUES (?, ?, ?, ?)");
  const save = db.prepare("INSERT OR REPLACE INTO cursor (one, value) VALUES (1, ?)");
  let changed = 0, deleted = 0, requests = 0;
  const client = new FeedClient(site, {
    fetch: (request) => {
      requests++;
      return fetch(request);
    },
  });
  const batches = client.changes({ since: row?.value ?? "0", include: ["body"], limit: 500 });
  for await (const batch of batches) {
    // One transaction a batch: the cursor moves with the changes it stands for.
    db.exec("BEGIN");
    if (batch.reset) db.exec("DELETE FROM items"); // another journal: the sync started over
    for (const item of batch.upserts) {
      drop.run(item.id);
      const { body, ...fields } = item;
      add.run(item.id, item.title, body ?? "", JSON.stringify(fields));
    }
    for (const id of batch.deletions) drop.run(id);
    save.run(batch.cursor);
    db.exec("COMMIT");
    changed += batch.upserts.length;
    deleted += batch.deletions.length;
  }
  return { changed, deleted, requests };
}

/** Full-text search in the mirror: ids and titles, best match first. */
export function search(db: DatabaseSync, terms: string): { id: string; title: string }[] {
  const query = terms.split(/\s+/).filter(Boolean).map((t) => `"${t.replaceAll('"', '""')}"`);
  return db.prepare("SELECT id, title FROM items WHERE items MATCH ? ORDER BY rank LIMIT 20")
    .all(query.join(" ")) as { id: string; title: string }[];
}

if (import.meta.main ?? process.argv[1]?.endsWith("sync_client.ts")) {
  const [site, file, flag, value] = process.argv.slice(2);
  if (!site || !file) {
    console.error(
      "usage: sync_client.ts <site URL> <mirror.sqlite> [--every <s> | --search <terms>]",
    );
    process.exit(2);
  }
  const db = openMirror(file);
  if (flag === "--search") {
    for (const hit of search(db, value ?? "")) console.log(`${hit.id}\t${hit.title}`);
  } else {
    do {
      const done = await sync(site.replace(/\/+$/, ""), db);
      console.log(
        `synced: ${done.changed} changed, ${done.deleted} deleted, ${done.requests} request(s)`,
      );
      if (flag === "--every") await new Promise((r) => setTimeout(r, Number(value) * 1000));
    } while (flag === "--every");
  }
}
