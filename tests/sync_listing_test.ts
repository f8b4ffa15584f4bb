// SPEC 12, a paged `since=0`: the listing of the feed as of its first page,
// each current id once and no deletion, on a journal with tombstones and a
// long history; the changes made while it pages come after it; a restart
// in the middle goes on correctly, or answers 410, never a wrong listing.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { mulberry32 } from "../bench/site.ts";
import { formatCursor, parseCursor } from "../src/sync/cursor.ts";
import { listingPage } from "../src/sync/listing.ts";
import { applyChanges, emptyJournal, type JournalState, planRecord } from "../src/sync/state.ts";
import { LONG, md, serviceOn, site, type TestSite } from "./helpers.ts";
import { randomEdits } from "./random_edits.ts";

const CONFIG = `parameters:
  service.content.config:
    url: https://example.com
    plugins: { docs: ~, blog: ~, api: ~ }
`;
const DAY = 86_400_000;

// deno-lint-ignore no-explicit-any
type Json = any;

/** A cursor inside a listing, or a listing's start. */
const listing = (cursor: string) => cursor === "0" || cursor.includes("_");

/** The feed's items by id, without their tags' counts (they change with other items). */
async function feedOf(s: TestSite): Promise<Map<string, Json>> {
  const { body } = await s.json("/api/content.json");
  return new Map(body.data.map((item: Json) => [item.id, comparable(item)]));
}

const comparable = ({ tags, ...item }: Json) => ({
  ...item,
  tags: tags.map(({ name, slug }: Json) => ({ name, slug })),
});

/** A site whose journal has a long history: `rounds` random edits, each re-indexed. */
async function historied(rounds: number, seed: number, now?: () => number) {
  const s = await site({ "services.yaml": CONFIG }, now ? { now } : {});
  const edits = randomEdits(s.root, seed);
  await edits.start(40);
  await s.api.reload();
  const began = s.api.cursor;
  for (let i = 0; i < rounds; i++) {
    await edits.next(30);
    if (i % 3 === 0) await s.api.reload();
  }
  await s.api.reload();
  return { s, edits, began };
}

/** One sync from `cursor` until `more` is false; `between` runs between two pages. */
async function syncAll(
  s: TestSite,
  mirror: Map<string, Json>,
  cursor: string,
  query: string,
  between: (page: number) => Promise<void> = () => Promise.resolve(),
) {
  const listed: string[] = [];
  const delivered: string[] = [];
  const deleted: string[] = [];
  const pages: Json[] = [];
  for (;;) {
    const { status, body } = await s.json(`/api/content.json?since=${cursor}${query}`);
    assert.equal(status, 200, JSON.stringify(body));
    pages.push({ from: cursor, body });
    if (listing(cursor)) {
      assert.deepEqual(body.deleted, [], `a listing's page deletes nothing (from ${cursor})`);
      for (const item of body.data) listed.push(item.id);
    }
    for (const item of body.data) delivered.push(item.id);
    for (const { id } of body.deleted) deleted.push(id);
    for (const item of body.data) mirror.set(item.id, comparable(item));
    for (const { id } of body.deleted) mirror.delete(id);
    cursor = body.meta.cursor;
    if (!body.meta.more) return { cursor, listed, delivered, deleted, pages };
    await between(pages.length);
  }
}

describe("a paged since=0 is a listing of the feed when it began (SPEC 12)", () => {
  it("on an idle server with tombstones and a long history: each current id once, no deletion", async () => {
    const { s, began } = await historied(150, 7);
    try {
      const feed = await feedOf(s);
      const head = s.api.cursor;
      // The history left tombstones: ids that were in the feed at its start and left.
      const left = (await s.json(`/api/content.json?since=${began}`)).body.deleted;
      assert.ok(left.length >= 20, `${left.length} tombstones`);
      for (const limit of [1, 3, 7, 20]) {
        const mirror = new Map<string, Json>();
        const { cursor, delivered, deleted, pages } = await syncAll(
          s,
          mirror,
          "0",
          `&limit=${limit}`,
        );
        // Nothing changed while it paged: every page is the listing's.
        assert.equal(new Set(delivered).size, delivered.length, `an id twice (limit=${limit})`);
        assert.deepEqual(deleted, [], `limit=${limit}`);
        assert.deepEqual(mirror, feed, `limit=${limit}`);
        assert.equal(pages.length, Math.ceil(feed.size / limit), `requests (limit=${limit})`);
        assert.equal(pages[0].body.meta.total, feed.size);
        assert.equal(cursor, head, "the last page's cursor is the head the listing was of");
        for (const { body } of pages.slice(0, -1)) assert.match(body.meta.cursor, /_/);
      }
      // Unpaged: the same items, the same cursor.
      const all = (await s.json("/api/content.json?since=0")).body;
      assert.deepEqual(new Set(all.data.map((item: Json) => item.id)), new Set(feed.keys()));
      assert.deepEqual([all.meta.cursor, all.meta.more, all.deleted], [head, false, []]);
    } finally {
      await s.close();
    }
  });

  it("keeps a filter's listing apart: by type, each of its ids once", async () => {
    const { s } = await historied(60, 11);
    try {
      const feed = await feedOf(s);
      const blog = [...feed.values()].filter((item) => item.type === "blog");
      const mirror = new Map<string, Json>();
      const { delivered, deleted } = await syncAll(s, mirror, "0", "&limit=2&type=blog");
      assert.equal(new Set(delivered).size, delivered.length);
      assert.deepEqual(deleted, []);
      assert.deepEqual([...mirror.values()].sort(byId), blog.sort(byId));
    } finally {
      await s.close();
    }
  });

  it("edits while it pages come after it: the listing holds ids of its first page only, once", async () => {
    for (const seed of [1, 2, 3]) {
      const { s, edits } = await historied(90, 100 + seed);
      try {
        const random = mulberry32(seed);
        const atStart = await feedOf(s);
        const touched = new Set<string>();
        const mirror = new Map<string, Json>();
        const log: string[] = [];
        const { listed } = await syncAll(s, mirror, "0", "&limit=4", async () => {
          for (let n = Math.floor(random() * 3); n > 0; n--) {
            const before = await feedOf(s);
            log.push(await edits.next(30));
            await s.api.reload();
            const after = await feedOf(s);
            for (const id of new Set([...before.keys(), ...after.keys()])) {
              if (JSON.stringify(before.get(id)) !== JSON.stringify(after.get(id))) {
                touched.add(id);
              }
            }
          }
        });
        assert.ok(touched.size > 5, log.join("\n"));
        assert.equal(new Set(listed).size, listed.length, log.join("\n"));
        for (const id of listed) assert.ok(atStart.has(id), `${id} listed, not in the first feed`);
        // Every id no edit touched is in the listing, in its form of the first page.
        for (const [id] of atStart) {
          if (!touched.has(id)) assert.ok(listed.includes(id), `${id} not listed`);
        }
        assert.deepEqual(mirror, await feedOf(s), log.join("\n"));
      } finally {
        await s.close();
      }
    }
  });

  it("goes on after a restart in the middle, offline edits after it; a new journal is a 410", async () => {
    const { s, edits } = await historied(60, 21);
    const root = s.root;
    let again: TestSite | undefined;
    try {
      const mirror = new Map<string, Json>();
      const first = (await s.json("/api/content.json?since=0&limit=5")).body;
      for (const item of first.data) mirror.set(item.id, comparable(item));
      const listedFirst: string[] = first.data.map((item: Json) => item.id);
      assert.match(first.meta.cursor, /_/);
      await s.api.close();
      // While no server runs: edits, deletions, renames, a new file.
      const log: string[] = [];
      for (let i = 0; i < 8; i++) log.push(await edits.next(30));
      await writeFile(join(root, "docs/offline.md"), md({ title: "Offline" }, LONG));
      again = await serviceOn(root);
      const { listed } = await syncAll(again, mirror, first.meta.cursor, "&limit=5");
      const all = [...listedFirst, ...listed];
      assert.equal(new Set(all).size, all.length, log.join("\n"));
      assert.ok(!listed.includes("docs_doc_offline"), "a file added offline comes after it");
      assert.deepEqual(mirror, await feedOf(again), log.join("\n"));
      // A listing begun on a journal that is gone (its state folder removed): a 410, at once.
      const begun = (await again.json("/api/content.json?since=0&limit=5")).body.meta.cursor;
      await again.api.close();
      await rm(join(root, ".content-feed"), { recursive: true, force: true });
      again = await serviceOn(root);
      const gone = await again.json(`/api/content.json?since=${begun}&limit=5`);
      assert.equal(gone.status, 410);
      assert.match(gone.body.detail, /since=0/);
    } finally {
      await again?.api.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it("is a 410 once a deletion made while it paged is past the retention", async () => {
    let clock = Date.UTC(2026, 0, 1);
    const { s, edits } = await historied(30, 31, () => clock);
    try {
      const first = (await s.json("/api/content.json?since=0&limit=3")).body;
      // Files leave while the client pages, and the client comes back 91 days later.
      for (const path of edits.paths.slice(0, 5)) await rm(join(s.root, path));
      await s.api.reload();
      clock += 91 * DAY;
      await writeFile(join(s.root, "docs/later.md"), md({ title: "Later" }, LONG));
      await s.api.reload();
      const late = await s.json(`/api/content.json?since=${first.meta.cursor}&limit=3`);
      assert.equal(late.status, 410);
      assert.match(late.body.detail, /retention/);
    } finally {
      await s.close();
    }
  });

  it("answers a malformed listing cursor with a 400 naming since", async () => {
    const { s } = await historied(3, 41);
    try {
      const [journal, head] = s.api.cursor.split(".");
      for (const bad of [`${journal}.${head}_${head}`, `${journal}.3_0`, `${journal}.3_2_1`]) {
        const { status, body } = await s.json(`/api/content.json?since=${bad}`);
        assert.equal(status, 400, bad);
        assert.match(body.detail, /since/);
      }
    } finally {
      await s.close();
    }
  });
});

const byId = (a: Json, b: Json) => a.id < b.id ? -1 : 1;

describe("the listing as a value (SPEC 12)", () => {
  const item = (id: string, key = "k") => ({ id, key, type: "docs", category: "doc" });
  const record = (j: JournalState, ids: string[], keys: Record<string, string> = {}) =>
    applyChanges(j, planRecord(j, ids.map((id) => item(id, keys[id])), 0, 90 * DAY));

  it("lists the ids in the feed at its head and unchanged since, in pages that never overlap", () => {
    let j = record(emptyJournal("j"), ["a", "b", "c", "d"]); // 1-4
    j = record(j, ["a", "b", "c", "d"], { a: "k2" }); // a: 5
    j = record(j, ["a", "c", "d", "e"], { a: "k2" }); // e: 6, b leaves: 7
    const at = j.head;
    const first = listingPage(j, at, 0, {}, 2);
    assert.deepEqual(first, { ids: ["c", "d"], total: 4, last: 4, more: true });
    // Meanwhile: c changes (not listed again: it comes after the listing), e leaves, f enters.
    j = record(j, ["a", "c", "d", "f"], { a: "k2", c: "k3" });
    assert.deepEqual(listingPage(j, at, first.last, {}, 2), {
      ids: ["a"],
      total: 1,
      last: 5,
      more: false,
    });
    assert.deepEqual(listingPage(j, at, 0, { type: "blog" }), {
      ids: [],
      total: 0,
      last: 0,
      more: false,
    });
  });

  it("spells a listing's cursor with its head and position, the position below the head", () => {
    assert.equal(formatCursor("j1", 9, 4), "j1.9_4");
    assert.deepEqual(parseCursor("j1.9_4"), { journal: "j1", seq: 9, listed: 4 });
    for (const bad of ["j1.9_9", "j1.9_10", "j1.9_0", "j1.9_04", "j1.9_", "j1._4", "0_1"]) {
      assert.equal(parseCursor(bad), undefined, bad);
    }
  });
});
