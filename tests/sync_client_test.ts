// The reference client (examples/sync_client.ts) against the real server
// (`main.ts`, watching its content, under the runtime running this file),
// through seeded random edits: after every sync its SQLite mirror equals a
// fresh full feed; a new journal (a 410) makes it start over.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { mulberry32 } from "../bench/site.ts";
import { openMirror, sync } from "../examples/sync_client.ts";
import { comparable as withoutGenerated } from "../bench/chaos_ops.ts";
import { createContentApi } from "../mod.ts";
import { LONG, md, memoryLogger, removeSite, writeSite } from "./helpers.ts";
import { OWN_RUNTIME, type Running, RUNTIMES, startServer } from "./server_helpers.ts";

const CONFIG = `parameters:
  service.content.config:
    url: https://example.com
    plugins: { docs: ~, blog: ~, api: ~ }
`;

// deno-lint-ignore no-explicit-any
type Json = any;

const start = (root: string) =>
  startServer(RUNTIMES[OWN_RUNTIME]("main.ts"), { CONTENT_CONFIG: join(root, "services.yaml") });

/**
 * The live feed's cursor once the feed is what a fresh start on the same
 * files serves (the watcher has caught up with every edit): a value, not a
 * quiet spell. The deadline only bounds the wait.
 */
async function settled(server: Running, config: string): Promise<string> {
  const fresh = await freshFeed(config);
  for (let tries = 0; tries < 400; tries++) {
    const live = withoutGenerated(await (await fetch(`${server.url}/api/content.json`)).text());
    if (withoutCursor(live) === withoutCursor(fresh)) return JSON.parse(live).meta.cursor;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`${server.url} never served what a fresh start on the files serves`);
}

/** The feed a fresh start on `config` serves (it keeps a journal of its own, in memory). */
async function freshFeed(config: string): Promise<string> {
  const api = await createContentApi({ config, logger: memoryLogger() });
  try {
    return withoutGenerated(
      await (await api.fetch(new Request("https://example.com/api/content.json"))).text(),
    );
  } finally {
    api.close();
  }
}

/** A feed without its journal's position, which is each server's own. */
const withoutCursor = (feed: string) => feed.replace(/"cursor":"[^"]*"/, '"cursor":"…"');

/** A feed item without its tags' counts, which change with other items (SPEC 12). */
const comparable = ({ tags, ...item }: Json) => ({
  ...item,
  tags: tags.map(({ name, slug }: Json) => ({ name, slug })),
});

describe("the reference sync client (examples/sync_client.ts)", () => {
  it("keeps a SQLite mirror equal to the feed through random edits, and starts over on a 410", {
    timeout: 120_000,
  }, async () => {
    const files: Record<string, string> = { "services.yaml": CONFIG };
    for (let i = 0; i < 12; i++) files[`docs/d${i}.md`] = md({ title: `Doc ${i}` }, LONG);
    const root = await writeSite(files);
    const mirrorFile = `${root}.mirror.sqlite`;
    const db = openMirror(mirrorFile);
    const random = mulberry32(5);
    const paths = Object.keys(files).filter((p) => p.endsWith(".md"));
    let made = 12;
    let server = await start(root);
    const check = async (round: string) => {
      const cursor = await settled(server, join(root, "services.yaml"));
      const done = await sync(server.url, db);
      const body = await (await fetch(`${server.url}/api/content.json?include=body`)).json();
      assert.equal(body.meta.cursor, cursor, "the index changed during the check");
      const mirror = new Map(
        (db.prepare("SELECT id, body, item FROM items").all() as Json[]).map((row) => [
          row.id,
          comparable({ ...JSON.parse(row.item), body: row.body }),
        ]),
      );
      const feed = new Map(body.data.map((item: Json) => [item.id, comparable(item)]));
      assert.deepEqual(mirror, feed, round);
      return done;
    };
    try {
      await check("first sync");
      for (let round = 0; round < 6; round++) {
        for (let n = 1 + Math.floor(random() * 4); n > 0; n--) {
          const path = paths[Math.floor(random() * paths.length)];
          const roll = random();
          if (roll < 0.2 && paths.length > 4) {
            paths.splice(paths.indexOf(path), 1);
            await rm(join(root, path), { force: true });
          } else if (roll < 0.45) {
            const next = `${random() < 0.5 ? "docs" : "blog"}/n${++made}.md`;
            paths.push(next);
            await mkdir(dirname(join(root, next)), { recursive: true });
            await writeFile(join(root, next), md({ title: `New ${made}` }, LONG));
          } else {
            await writeFile(join(root, path), md({ title: `Edited ${round}` }, `${LONG} ${n}`));
          }
        }
        await check(`round ${round}`);
      }
      // Nothing changed: one request.
      assert.equal((await check("idle")).requests, 1);
      // Another journal (its state folder gone): the client's cursor is a 410, and it starts over.
      await server.stop();
      await rm(join(root, ".content-feed"), { recursive: true, force: true });
      server = await start(root);
      const done = await check("after a new journal");
      assert.ok(done.requests >= 2, "a 410, then a sync from since=0");
    } finally {
      await server.stop();
      db.close();
      await removeSite(root);
      await rm(mirrorFile, { force: true });
    }
  });
});
