// content-feed/client (client.ts): a mirror kept through seeded random
// edits (add, edit, delete, rename, draft on/off) against the real service
// equals the feed after every sync, with edits between its batches and
// syncs stopped and resumed from a saved cursor; a new journal (410)
// starts over with `reset`; network errors and 5xx are retried, bounded,
// never sooner than Retry-After; a server that would make it loop is an
// error; a bad limit is a RangeError before any request.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { mulberry32 } from "../bench/site.ts";
import { FeedClient, FeedError } from "../client.ts";
import { getJson, RETRY_DEFAULTS, retryAfter } from "../src/client/retry.ts";
import { serviceOn, site, type TestSite } from "./helpers.ts";
import { randomEdits } from "./random_edits.ts";
import { ROOT } from "./server_helpers.ts";

const CONFIG = `parameters:
  service.content.config:
    url: https://example.com
    plugins: { docs: ~, blog: ~, api: ~ }
`;
const BASE = "http://localhost:8000";
/** Retries without waiting: the tests count attempts, never time. */
const FAST = { retries: 4, baseDelayMs: 1, maxDelayMs: 1000 };

// deno-lint-ignore no-explicit-any
type Json = any;

/** A feed item without its tags' counts, which change with other items (SPEC 12). */
const comparable = ({ tags, ...item }: Json) => ({
  ...item,
  tags: tags.map(({ name, slug }: Json) => ({ name, slug })),
});

async function feedOf(s: TestSite, query = ""): Promise<Map<string, Json>> {
  const { body } = await s.json(`/api/content.json?${query}`);
  return new Map(body.data.map((item: Json) => [item.id, comparable(item)]));
}

/** A client of `s`'s service, in process, counting its requests. */
function clientOf(s: { api: TestSite["api"] }, wrap?: (request: Request) => Promise<Response>) {
  const seen = { requests: 0 };
  const client = new FeedClient(BASE, {
    fetch: (request) => {
      seen.requests++;
      return wrap ? wrap(request) : s.api.fetch(request);
    },
    retry: FAST,
  });
  return { client, seen };
}

describe("content-feed/client keeps a mirror (SPEC 12)", () => {
  for (const [seed, include] of [[1, ""], [2, "body"], [3, ""]] as const) {
    it(
      `equals the feed after every sync through random edits (seed ${seed}${
        include ? ", bodies" : ""
      })`,
      async () => {
        const s = await site({ "services.yaml": CONFIG });
        try {
          const edits = randomEdits(s.root, seed);
          await edits.start(10);
          await s.api.reload();
          const { client } = clientOf(s);
          const random = mulberry32(seed * 7);
          const mirror = new Map<string, Json>();
          let saved = "0";
          const log: string[] = [];
          let resets = 0;
          for (let round = 0; round < 25; round++) {
            for (let n = Math.floor(random() * 4); n > 0; n--) log.push(await edits.next());
            await s.api.reload();
            const limit = 1 + Math.floor(random() * 4);
            // A sync, with edits between its batches; some stop half-way and go on from the
            // cursor they saved, as a pipeline that was stopped does.
            let stopped = false;
            for (;;) {
              const options = include ? { since: saved, limit, include } : { since: saved, limit };
              stopped = false;
              for await (const batch of client.changes(options)) {
                if (batch.reset) {
                  resets++;
                  mirror.clear();
                }
                for (const item of batch.upserts) mirror.set(item.id, comparable(item));
                for (const id of batch.deletions) mirror.delete(id);
                saved = batch.cursor;
                if (batch.more && random() < 0.3) {
                  log.push(`(between batches) ${await edits.next()}`);
                  await s.api.reload();
                }
                if (batch.more && random() < 0.15) {
                  stopped = true;
                  break;
                }
              }
              if (!stopped) break;
            }
            assert.deepEqual(
              mirror,
              await feedOf(s, include ? `include=${include}` : ""),
              log.join("\n"),
            );
          }
          assert.equal(resets, 0);
          // Up to date: one request says so.
          const idle = clientOf(s);
          const batches = [];
          for await (const batch of idle.client.changes({ since: saved })) batches.push(batch);
          assert.equal(idle.seen.requests, 1);
          assert.deepEqual(batches.map((b) => [b.upserts.length, b.deletions.length, b.more]), [
            [0, 0, false],
          ]);
        } finally {
          await s.close();
        }
      },
    );
  }

  it("starts over from since=0 with reset: true when the server has a new journal (410)", async () => {
    const s = await site({ "services.yaml": CONFIG });
    const root = s.root;
    let again: TestSite | undefined;
    try {
      const edits = randomEdits(root, 9);
      await edits.start(8);
      await s.api.reload();
      const mirror = new Map<string, Json>();
      let saved = "0";
      for await (const batch of clientOf(s).client.changes({ limit: 3 })) {
        for (const item of batch.upserts) mirror.set(item.id, comparable(item));
        saved = batch.cursor;
      }
      // A stale entry the new journal will never delete: the reset must clear it.
      mirror.set("docs_doc_stale", {});
      await s.api.close();
      await rm(join(root, ".content-feed"), { recursive: true, force: true });
      for (let i = 0; i < 4; i++) await edits.next();
      again = await serviceOn(root);
      const { client, seen } = clientOf(again);
      const resets: boolean[] = [];
      for await (const batch of client.changes({ since: saved, limit: 3 })) {
        resets.push(batch.reset);
        if (batch.reset) mirror.clear();
        for (const item of batch.upserts) mirror.set(item.id, comparable(item));
        for (const id of batch.deletions) mirror.delete(id);
      }
      assert.equal(resets[0], true);
      assert.ok(resets.slice(1).every((reset) => !reset), "only the first batch resets");
      assert.equal(seen.requests, 1 + resets.length, "one 410, then the pages from since=0");
      assert.deepEqual(mirror, await feedOf(again));
    } finally {
      await again?.api.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("content-feed/client retries what passes, and stops", () => {
  it("retries a fetch that fails twice, and goes on", async () => {
    const s = await site({ "services.yaml": CONFIG });
    try {
      await randomEdits(s.root, 4).start(5);
      await s.api.reload();
      let failures = 0;
      const { client, seen } = clientOf(s, (request) => {
        if (failures++ < 2) return Promise.reject(new TypeError("fetch failed"));
        return s.api.fetch(request);
      });
      const ids = [];
      for await (const batch of client.changes({ limit: 2 })) {
        ids.push(...batch.upserts.map((item) => item.id));
      }
      assert.deepEqual(new Set(ids), new Set((await feedOf(s)).keys()));
      assert.equal(seen.requests, 2 + Math.ceil(ids.length / 2));
    } finally {
      await s.close();
    }
  });

  it("retries a 503 no sooner than its Retry-After, and a network error with backoff", async () => {
    const answers = [
      new Response('{"detail":"a file changed"}', {
        status: 503,
        headers: { "retry-after": "2" },
      }),
      "network",
      new Response('{"meta":{"cursor":"j.1"},"data":[],"deleted":[]}', { status: 200 }),
    ];
    const waits: number[] = [];
    const { body } = await getJson(
      (_request) => {
        const next = answers.shift()!;
        return next === "network"
          ? Promise.reject(new TypeError("connection reset"))
          : Promise.resolve(next as Response);
      },
      new URL(`${BASE}/api/content.json?since=0`),
      new Headers(),
      RETRY_DEFAULTS,
      undefined,
      (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
      () => 0.5,
    );
    assert.deepEqual(body, { meta: { cursor: "j.1" }, data: [], deleted: [] });
    // 2 s asked (more than the first backoff), then the second backoff: 2 × 250 ms, jittered.
    assert.deepEqual(waits, [2000, 375]);
    assert.equal(
      retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.UTC(2015, 9, 21, 7, 27, 58)),
      2000,
    );
  });

  it("gives up after its retries, and at once when Retry-After is longer than it waits", async () => {
    let calls = 0;
    const down = new FeedClient(BASE, {
      fetch: () => {
        calls++;
        return Promise.resolve(new Response("bad gateway", { status: 502 }));
      },
      retry: FAST,
    });
    await assert.rejects(
      async () => {
        for await (const _ of down.changes()) { /* nothing arrives */ }
      },
      (error: unknown) => error instanceof FeedError && error.status === 502,
    );
    assert.equal(calls, FAST.retries + 1);
    calls = 0;
    const busy = new FeedClient(BASE, {
      fetch: () => {
        calls++;
        return Promise.resolve(
          new Response("", { status: 503, headers: { "retry-after": "3600" } }),
        );
      },
      retry: FAST,
    });
    await assert.rejects(() => busy.manifest(), /retry after 3600 s/);
    assert.equal(calls, 1);
  });

  it("is an error, never a loop, when the server answers more: true with the same cursor twice", async () => {
    let calls = 0;
    const client = new FeedClient(BASE, {
      fetch: () => {
        calls++;
        const body = { meta: { cursor: "j.5", more: true }, data: [{ id: "a" }], deleted: [] };
        return Promise.resolve(Response.json(body));
      },
      retry: FAST,
    });
    const batches = [];
    await assert.rejects(
      async () => {
        for await (const batch of client.changes({ limit: 1 })) batches.push(batch);
      },
      (error: unknown) => error instanceof FeedError && /a second time.*loop/.test(error.message),
    );
    assert.equal(calls, 2);
    assert.equal(batches.length, 1);
    // A server that sends the client back to a cursor it asked before, by its Link, too.
    let page = 0;
    const cycling = new FeedClient(BASE, {
      fetch: () => {
        const cursor = ["j.1", "j.2"][page++ % 2];
        return Promise.resolve(
          Response.json({ meta: { cursor, more: true }, data: [], deleted: [] }),
        );
      },
    });
    await assert.rejects(async () => {
      for await (const _ of cycling.changes()) { /* j.1, j.2, then j.1 again */ }
    }, FeedError);
    assert.equal(page, 3);
  });

  it("throws a RangeError for a limit outside 1-10000 before any request", () => {
    let calls = 0;
    const client = new FeedClient(BASE, {
      fetch: () => {
        calls++;
        return Promise.reject(new Error("no request expected"));
      },
    });
    for (const limit of [0, -1, 10_001, 1.5, Number.NaN, Infinity]) {
      assert.throws(() => client.changes({ limit }), RangeError, String(limit));
    }
    assert.equal(calls, 0);
    assert.doesNotThrow(() => client.changes({ limit: 10_000 }));
  });

  it("says what a 400 was", async () => {
    const s = await site({ "services.yaml": CONFIG });
    try {
      const { client } = clientOf(s);
      await assert.rejects(
        async () => {
          for await (const _ of client.changes({ type: "nope" })) { /* a 400 */ }
        },
        (error: unknown) =>
          error instanceof FeedError && error.status === 400 && /type/.test(error.detail ?? ""),
      );
    } finally {
      await s.close();
    }
  });
});

describe("content-feed/client reads items and the manifest (SPEC 7, 6.2)", () => {
  it("gets an item by id or by link (on its own server), and undefined for one not served", async () => {
    const s = await site({ "services.yaml": CONFIG });
    try {
      const edits = randomEdits(s.root, 6);
      await edits.start(6);
      await s.api.reload();
      const { client, seen } = clientOf(s);
      const feed = (await s.json("/api/content.json")).body.data;
      const first = feed[0];
      // Links name the configured host (https://example.com): asked of the client's own server.
      assert.match(first.link, /^https:\/\/example\.com\//);
      const byLink = await client.item(first.link);
      assert.deepEqual(byLink, (await s.json(new URL(first.link).pathname)).body);
      assert.equal(typeof byLink!.body, "string");
      const byId = await client.item(first.id, { include: ["sections"] });
      assert.equal(byId!.id, first.id);
      assert.ok(Array.isArray(byId!.sections));
      const before = seen.requests;
      await client.item(feed[1].id);
      assert.equal(seen.requests, before + 1, "ids and links are kept between calls");
      assert.equal(await client.item("docs_doc_nope"), undefined);
      assert.equal(await client.item(`${BASE}/docs/nope.json`), undefined);
      // An id added since the links were read: they are read again.
      await edits.next(100); // an add or an edit (at least 100 files wanted)
      await s.api.reload();
      const added = (await s.json("/api/content.json")).body.data.find((item: Json) =>
        !feed.some((old: Json) => old.id === item.id)
      );
      assert.equal((await client.item(added.id))!.id, added.id);
    } finally {
      await s.close();
    }
  });

  it("lists the manifest: ids, checksums, last updates and the cursor", async () => {
    const s = await site({ "services.yaml": CONFIG });
    try {
      await randomEdits(s.root, 8).start(7);
      await s.api.reload();
      const { client } = clientOf(s);
      const manifest = await client.manifest();
      const feed = (await s.json("/api/content.json?fields=id,checksum,last_update")).body;
      assert.deepEqual(manifest.items, feed.data);
      assert.equal(manifest.cursor, s.api.cursor);
      const blog = await client.manifest({ type: "blog" });
      assert.deepEqual(
        blog.items.map((entry) => entry.id),
        feed.data.filter((entry: Json) => entry.id.startsWith("blog_")).map((e: Json) => e.id),
      );
    } finally {
      await s.close();
    }
  });
});

describe("content-feed/client is dependency-free", () => {
  it("imports nothing but its own files: no package, no node: module", () => {
    const files = [
      "client.ts",
      ...readdirSync(join(ROOT, "src", "client")).map((name) => `src/client/${name}`),
    ];
    let seen = 0;
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), "utf8");
      const specifiers = [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)";$/gm)];
      seen += specifiers.length;
      for (const [, specifier] of specifiers) {
        const own = file === "client.ts" ? /^\.\/src\/client\/\w+\.ts$/ : /^\.\/\w+\.ts$/;
        assert.match(specifier, own, `${file} imports ${specifier}`);
      }
      assert.doesNotMatch(text, /\bimport\(/, file);
      assert.doesNotMatch(text, /\b(?:Deno|Bun|process|require)\./, file);
    }
    assert.ok(seen >= 8, `${seen} imports found: the pattern still reads them`);
  });
});
