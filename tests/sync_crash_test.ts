// SPEC 12 "Durable", with the real server (`main.ts`, under the runtime
// running this file): killed with SIGKILL while it is idle and while content
// changes under it, restarted on the same state folder. A cursor it gave out
// is answered after the restart, and syncing from it reaches the feed; what
// changed while it was down arrives as ordinary changes and deletions.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { mulberry32 } from "../bench/site.ts";
import { LONG, md, removeSite, writeSite } from "./helpers.ts";
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

/** Kills a server with SIGKILL (no chance to finish anything) and waits for it to be gone. */
async function kill(server: Running): Promise<void> {
  const gone = new Promise((resolve) => server.process.on("exit", resolve));
  server.process.kill("SIGKILL");
  await gone;
}

async function get(server: Running, path: string): Promise<Json> {
  const response = await fetch(`${server.url}${path}`);
  const body = await response.json();
  return { status: response.status, body };
}

/** A feed item without its tags' counts: those change with other items (SPEC 12). */
const comparable = (item: Json) => ({
  ...item,
  tags: item.tags.map(({ name, slug }: Json) => ({ name, slug })),
});

/** Syncs `mirror` from `cursor` until `more` is false; returns the cursor reached. */
async function syncAll(server: Running, mirror: Map<string, Json>, cursor: string) {
  for (;;) {
    const { status, body } = await get(server, `/api/content.json?since=${cursor}&limit=7`);
    assert.equal(status, 200, `since=${cursor}: ${JSON.stringify(body)}`);
    for (const item of body.data) mirror.set(item.id, comparable(item));
    for (const { id } of body.deleted) mirror.delete(id);
    cursor = body.meta.cursor;
    if (!body.meta.more) return cursor;
  }
}

async function feed(server: Running): Promise<Map<string, Json>> {
  const { body } = await get(server, "/api/content.json");
  return new Map(body.data.map((item: Json) => [item.id, comparable(item)]));
}

describe("the journal across kill -9 (SPEC 12)", () => {
  it("a restart answers an old cursor with exactly what changed while the server was down", {
    timeout: 60_000,
  }, async () => {
    const root = await writeSite({
      "services.yaml": CONFIG,
      "docs/a.md": md({ title: "A" }, LONG),
      "docs/b.md": md({ title: "B" }, LONG),
      "docs/c.md": md({ title: "C" }, LONG),
    });
    try {
      let server = await start(root);
      const mirror = new Map<string, Json>();
      const cursor = await syncAll(server, mirror, "0");
      await kill(server);
      await writeFile(join(root, "docs/a.md"), md({ title: "A, edited offline" }, LONG));
      await rm(join(root, "docs/b.md"));
      await writeFile(join(root, "docs/d.md"), md({ title: "D" }, LONG));
      server = await start(root);
      try {
        const { body } = await get(server, `/api/content.json?since=${cursor}`);
        // Changes found at start-up are recorded in feed order; a and d are
        // ordered by their files' times (whole seconds), so either may lead.
        const order = [...(await feed(server)).keys()].filter((id) => id !== "docs_doc_c");
        assert.deepEqual([...order].sort(), ["docs_doc_a", "docs_doc_d"]);
        assert.deepEqual(body.data.map((x: Json) => x.id), order);
        assert.equal(
          body.data.find((x: Json) => x.id === "docs_doc_a").title,
          "A, edited offline",
        );
        assert.deepEqual(body.deleted.map((x: Json) => x.id), ["docs_doc_b"]);
        assert.equal(body.meta.cursor.split(".")[0], cursor.split(".")[0], "the same journal");
      } finally {
        await server.stop();
      }
    } finally {
      await removeSite(root);
    }
  });

  it(
    "killed during bursts of changes, eight times: the journal opens, and no cursor given out loses a change",
    {
      timeout: 120_000,
    },
    async () => {
      const random = mulberry32(7);
      const files: SiteFiles = { "services.yaml": CONFIG };
      for (let i = 0; i < 20; i++) {
        files[`${i % 2 ? "docs" : "blog"}/f${i}.md`] = md({ title: `F${i}` }, LONG);
      }
      const root = await writeSite(files);
      let made = 20;
      const paths = Object.keys(files).filter((p) => p.endsWith(".md"));
      const change = async () => {
        const path = paths[Math.floor(random() * paths.length)];
        if (random() < 0.2 && paths.length > 5) {
          paths.splice(paths.indexOf(path), 1);
          await rm(join(root, path), { force: true });
        } else if (random() < 0.3) {
          const next = `${random() < 0.5 ? "docs" : "blog"}/n${++made}.md`;
          paths.push(next);
          await mkdir(dirname(join(root, next)), { recursive: true });
          await writeFile(join(root, next), md({ title: `N${made}` }, LONG));
        } else {
          await writeFile(join(root, path), md({ title: `Edited ${random()}` }, LONG));
        }
      };
      try {
        // Cursors given out, each with the mirror a client held when it got it.
        const given: { cursor: string; mirror: Map<string, Json> }[] = [];
        let mirror = new Map<string, Json>();
        let cursor = "0";
        for (let crash = 0; crash < 8; crash++) {
          const server = await start(root);
          assert.doesNotMatch(server.stderr(), /unreadable|cannot keep the sync journal/);
          // After the restart every cursor given out before it is answered, and reaches the feed.
          for (const old of given.slice(-3)) {
            const copy = new Map(old.mirror);
            await syncAll(server, copy, old.cursor);
            assert.deepEqual(copy, await feed(server), `from ${old.cursor} after crash ${crash}`);
          }
          cursor = await syncAll(server, mirror, cursor);
          assert.deepEqual(mirror, await feed(server), `crash ${crash}`);
          // A burst of changes while a client syncs, and a SIGKILL somewhere in it.
          const killAt = 50 + Math.floor(random() * 700);
          const t0 = Date.now();
          let killed = false;
          const burst = (async () => {
            while (!killed) {
              await change();
              await new Promise((resolve) => setTimeout(resolve, 5 + random() * 40));
            }
          })();
          while (Date.now() - t0 < killAt) {
            try {
              const { status, body } = await get(
                server,
                `/api/content.json?since=${cursor}&limit=5`,
              );
              if (status !== 200) continue;
              for (const item of body.data) mirror.set(item.id, comparable(item));
              for (const { id } of body.deleted) mirror.delete(id);
              cursor = body.meta.cursor;
              given.push({ cursor, mirror: new Map(mirror) });
            } catch {
              // the request raced the kill
            }
          }
          await kill(server);
          killed = true;
          await burst;
          mirror = new Map(given.at(-1)?.mirror ?? mirror);
          cursor = given.at(-1)?.cursor ?? cursor;
        }
        const server = await start(root);
        try {
          cursor = await syncAll(server, mirror, cursor);
          assert.deepEqual(mirror, await feed(server));
        } finally {
          await server.stop();
        }
      } finally {
        await removeSite(root);
      }
    },
  );
});

type SiteFiles = Record<string, string>;
