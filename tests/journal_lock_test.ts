// SPEC 12 "Honest failure" with two servers on one state folder (an
// overlapping deploy): one writer per journal. The second server says so in
// one line and keeps a journal of its own in memory, so no cursor is ever
// answered short: every cursor given out by either server, asked of either
// after edits and restarts, answers every later change or is a 410.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createJournal } from "../src/sync/journal.ts";
import { openJournalStore } from "../src/sync/sqlite_store.ts";
import { cursorProblem } from "../src/sync/changes_since.ts";
import { planRecord } from "../src/sync/state.ts";
import { LONG, md, removeSite, writeSite } from "./helpers.ts";
import { OWN_RUNTIME, type Running, RUNTIMES, startServer } from "./server_helpers.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const HELD = /holds the sync journal/;

/** Files edited while only the second server runs. */
const LATER = 20;

describe("one writer per journal (in one process)", () => {
  it("a second open of a journal in use fails as held; the file is kept, and opens again once closed", async () => {
    const folder = await mkdtemp(join(tmpdir(), "content-feed-journal-"));
    try {
      const warnings: string[] = [];
      const first = openJournalStore(folder, (message) => warnings.push(message));
      const changes = planRecord(
        first.state,
        [
          { id: "a", key: "k", type: "docs", category: "doc" },
        ],
        0,
        1,
      );
      first.write(changes);
      assert.throws(() => openJournalStore(folder, (message) => warnings.push(message)), HELD);
      assert.equal(warnings.length, 0, "nothing moved aside");
      const second = createJournal({
        folder,
        retentionDays: 90,
        warn: (message) => warnings.push(message),
      });
      assert.equal(second.durable, false);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], HELD);
      assert.doesNotMatch(warnings[0], /\n/);
      // Its own journal: the first one's cursors are a 410 there, never a short answer.
      assert.notEqual(second.state.id, first.state.id);
      assert.match(
        cursorProblem(second.state, { journal: first.state.id, seq: 1 })!,
        /another journal/,
      );
      second.close();
      first.close();
      const again = openJournalStore(folder, (message) => warnings.push(message));
      assert.equal(again.state.id, first.state.id);
      assert.equal(again.state.head, 1);
      again.close();
      assert.equal(warnings.length, 1);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

const CONFIG = `parameters:
  service.content.config:
    url: https://example.com
    plugins: { docs: ~, api: ~ }
`;

/** The other runtime of the pair: two servers of two runtimes share one folder. */
const OTHER = OWN_RUNTIME === "deno" ? "node" : "deno";

const start = (runtime: string, root: string) =>
  startServer(RUNTIMES[runtime]("main.ts"), { CONTENT_CONFIG: join(root, "services.yaml") });

async function get(server: Running, path: string): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, body: await response.json() };
}

/** A feed item without its tags' counts: those change with other items (SPEC 12). */
const comparable = (item: Json) => ({
  ...item,
  tags: item.tags.map(({ name, slug }: Json) => ({ name, slug })),
});

async function feed(server: Running): Promise<Map<string, Json>> {
  const { body } = await get(server, "/api/content.json");
  return new Map(body.data.map((item: Json) => [item.id, comparable(item)]));
}

/** Waits until the server's feed has these titles (its watcher saw the edits). */
async function until(server: Running, titles: Record<string, string>): Promise<void> {
  for (let tries = 0;; tries++) {
    const items = await feed(server);
    if (Object.entries(titles).every(([id, title]) => items.get(id)?.title === title)) return;
    if (tries > 600) throw new Error(`${server.url} never showed ${JSON.stringify(titles)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The lines of the server's stderr that match `pattern`, once one does (or 10 s passed). */
async function said(server: Running, pattern: RegExp): Promise<string[]> {
  for (let tries = 0; tries < 200; tries++) {
    if (pattern.test(server.stderr())) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return server.stderr().split("\n").filter((line) => pattern.test(line));
}

/**
 * A sync from `cursor` to the end, applied to `mirror`: the cursor reached,
 * or `410` when the server cannot answer the cursor.
 */
async function sync(
  server: Running,
  mirror: Map<string, Json>,
  cursor: string,
): Promise<string | 410> {
  for (let first = true;; first = false) {
    const { status, body } = await get(server, `/api/content.json?since=${cursor}&limit=4`);
    if (status === 410 && first) return 410;
    assert.equal(status, 200, `since=${cursor}: ${JSON.stringify(body)}`);
    for (const item of body.data) mirror.set(item.id, comparable(item));
    for (const { id } of body.deleted) mirror.delete(id);
    cursor = body.meta.cursor;
    if (!body.meta.more) return cursor;
  }
}

/** A client of one server: its cursor and its mirror, and every cursor it was given. */
interface Client {
  cursor: string;
  mirror: Map<string, Json>;
}

describe("two servers of two runtimes on one state folder (SPEC 12 honest failure)", () => {
  it(
    `${OWN_RUNTIME} and ${OTHER}, through edits and restarts: every cursor answers every later change or is a 410`,
    {
      timeout: 180_000,
    },
    async () => {
      const files: Record<string, string> = {
        "services.yaml": CONFIG,
        "docs/hot.md": md({ title: "Hot 0" }, LONG),
      };
      for (let i = 0; i < LATER; i++) files[`docs/f${i}.md`] = md({ title: `F${i}` }, LONG);
      const root = await writeSite(files);
      const running: Running[] = [];
      const launch = async (runtime: string) => {
        const server = await start(runtime, root);
        running.push(server);
        return server;
      };
      const stop = async (server: Running) => {
        await server.stop();
        running.splice(running.indexOf(server), 1);
      };
      /** Every cursor handed out, with the mirror its client held then. */
      const given: { cursor: string; mirror: Map<string, Json>; by: string }[] = [];
      const follow = async (server: Running, client: Client, by: string) => {
        const reached = await sync(server, client.mirror, client.cursor);
        assert.notEqual(reached, 410, `${by}: its own cursor ${client.cursor}`);
        client.cursor = reached as string;
        given.push({ cursor: client.cursor, mirror: new Map(client.mirror), by });
      };
      try {
        let first = await launch(OWN_RUNTIME);
        let second = await launch(OTHER);
        /** The servers that found the folder free: the writers, which never say it is held. */
        const writers = [first];
        // The first holds the journal; the second says so, once, and keeps its own.
        assert.equal((await said(second, HELD)).length, 1, second.stderr());
        const a: Client = { cursor: "0", mirror: new Map() };
        const b: Client = { cursor: "0", mirror: new Map() };
        await follow(first, a, `${OWN_RUNTIME} 1`);
        await follow(second, b, `${OTHER} 1`);
        // Quick edits of one file, each asked for at once on the first server
        // (reading the file finds it changed: the server records each edit),
        // while the second's watcher may take several as one: their counts part.
        let hot = "Hot 0";
        for (let i = 1; i <= 15; i++) {
          hot = `Hot ${i}`;
          await writeFile(join(root, "docs/hot.md"), md({ title: hot }, LONG));
          await (await fetch(`${first.url}/docs/hot.md`)).arrayBuffer();
          await follow(first, a, `${OWN_RUNTIME} 1`);
        }
        await until(first, { docs_doc_hot: hot });
        await until(second, { docs_doc_hot: hot });
        await follow(first, a, `${OWN_RUNTIME} 1`);
        await follow(second, b, `${OTHER} 1`);
        const beforeStop = a.cursor;
        // The first stops; edits only the second sees (more than the 15 by which their
        // counts may have parted); the first starts again.
        await stop(first);
        const titles: Record<string, string> = {};
        for (let i = 0; i < LATER; i++) {
          titles[`docs_doc_f${i}`] = `F${i}, edited`;
          await writeFile(join(root, `docs/f${i}.md`), md({ title: `F${i}, edited` }, LONG));
          if (i % 3 === 0) await follow(second, b, `${OTHER} 1`);
        }
        await until(second, titles);
        await follow(second, b, `${OTHER} 1`);
        first = await launch(OWN_RUNTIME);
        writers.push(first);
        // Its cursor from before the stop answers exactly the later changes.
        {
          const { status, body } = await get(first, `/api/content.json?since=${beforeStop}`);
          assert.equal(status, 200);
          assert.deepEqual(
            body.data.map((x: Json) => x.id).sort(),
            Object.keys(titles).sort(),
          );
          assert.deepEqual(body.deleted, []);
        }
        await follow(first, a, `${OWN_RUNTIME} 2`);
        // The second restarts while the first holds the folder: a journal of its own again.
        await stop(second);
        second = await launch(OTHER);
        assert.equal((await said(second, HELD)).length, 1, second.stderr());
        const c: Client = { cursor: "0", mirror: new Map() };
        await follow(second, c, `${OTHER} 2`);
        // More edits, a deletion and a new file, seen by both.
        await writeFile(join(root, "docs/f1.md"), md({ title: "F1, again" }, LONG));
        await rm(join(root, "docs/f2.md"));
        await writeFile(join(root, "docs/g.md"), md({ title: "G" }, LONG));
        const last = { docs_doc_f1: "F1, again", docs_doc_g: "G" };
        await until(first, last);
        await until(second, last);
        // Every cursor handed out, asked of both servers now running.
        let answered = 0, gone = 0;
        for (const server of running) {
          const now = await feed(server);
          assert.equal(now.has("docs_doc_f2"), false);
          for (const old of given) {
            const mirror = new Map(old.mirror);
            const reached = await sync(server, mirror, old.cursor);
            if (reached === 410) {
              gone++;
              continue;
            }
            answered++;
            assert.deepEqual(mirror, now, `${old.cursor} (from ${old.by}) asked of ${server.url}`);
          }
        }
        for (const writer of writers) assert.doesNotMatch(writer.stderr(), HELD);
        // Each server answered the cursors of its own journal (not all 410s).
        assert.ok(answered > 0 && gone > 0, `${answered} answered, ${gone} gone`);
      } finally {
        for (const server of [...running]) await server.stop();
        await removeSite(root);
      }
    },
  );
});

describe("the writer keeps the journal's lock while it serves (its state folder in the content)", () => {
  it(`${OWN_RUNTIME}: a second server finds the journal held, and so does a third after it`, {
    timeout: 60_000,
  }, async () => {
    // The state folder is the default one, in the watched content root. Under Deno a watcher
    // that heard of the journal file (the second server opening it, to find it held) opened
    // and closed it, and the writer's lock was gone: the third server took the journal too.
    const root = await writeSite({
      "services.yaml": CONFIG,
      "docs/hot.md": md({ title: "Hot 0" }, LONG),
    });
    const running: Running[] = [];
    try {
      const first = await start(OWN_RUNTIME, root);
      running.push(first);
      for (let round = 1; round <= 2; round++) {
        const next = await start(OWN_RUNTIME, root);
        running.push(next);
        assert.equal((await said(next, HELD)).length, 1, `server ${round + 1}: ${next.stderr()}`);
        await next.stop();
        running.splice(running.indexOf(next), 1);
        // An edit the first serves, its watcher past the other's open and close of the journal.
        await writeFile(join(root, "docs/hot.md"), md({ title: `Hot ${round}` }, LONG));
        await until(first, { docs_doc_hot: `Hot ${round}` });
      }
      assert.doesNotMatch(first.stderr(), HELD);
    } finally {
      for (const server of running) await server.stop();
      await removeSite(root);
    }
  });
});
