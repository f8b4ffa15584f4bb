// SPEC 12, the journal as a value: what a record changes, what a cursor is
// answered, when a cursor is gone, and the durable store under it.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatCursor, parseCursor } from "../src/journal/cursor.ts";
import {
  applyChanges,
  changesSince,
  cursorProblem,
  emptyJournal,
  type JournalState,
  planRecord,
  type RecordedItem,
} from "../src/journal/state.ts";
import { openJournalStore } from "../src/journal/sqlite_store.ts";
import { changeKey } from "../src/journal/change_key.ts";
import type { Item } from "../src/index/item.ts";

const DAY = 86_400_000;
const item = (id: string, key = "k", type = "docs", category = "doc"): RecordedItem => ({
  id,
  key,
  type,
  category,
});

/** Records `items` into `state` at `now` (retention 90 days). */
function record(state: JournalState, items: RecordedItem[], now = 0): JournalState {
  return applyChanges(state, planRecord(state, items, now, 90 * DAY));
}

/** The ids of a `since` answer: data and deleted apart, in change order. */
function since(state: JournalState, after: number, limit?: number, filter = {}) {
  const answer = changesSince(state, after, filter, limit);
  return {
    data: answer.changes.filter((c) => c.deleted === null).map((c) => c.id),
    deleted: answer.changes.filter((c) => c.deleted !== null).map((c) => c.id),
    cursor: answer.cursor,
    more: answer.more,
    total: answer.total,
  };
}

describe("an item's change key (SPEC 12: what counts as a change)", () => {
  const base: Item = {
    id: "docs_doc_a",
    checksum: "c".repeat(64),
    type: "docs",
    category: "doc",
    uri: "a",
    url: "/docs/a",
    image: null,
    title: "A",
    description: "About a.",
    authors: [{ name: "Ana", slug: "ana" }],
    tags: [{ name: "Deno", slug: "deno", count: 3 }],
    date: "2026-01-01",
    last_update: "2026-01-02",
    time: 1,
    body: undefined,
    parent: null,
    children: [],
    indexable: true,
    searchable: true,
    eligible: true,
    file: "docs/a.md",
  };

  it("changes with every field of the feed item, and not with a tag's count", () => {
    const key = changeKey(base);
    assert.match(key, /^[0-9a-f]{32}$/);
    assert.equal(changeKey({ ...base }), key);
    assert.equal(changeKey({ ...base, tags: [{ ...base.tags[0], count: 9 }] }), key);
    assert.equal(changeKey({ ...base, parent: "x", file: "other.md", searchable: false }), key);
    const changes: Partial<Item>[] = [
      { id: "docs_doc_b" },
      { checksum: "d".repeat(64) },
      { type: "blog" },
      { category: "post" },
      { uri: "b" },
      { url: "/a" },
      { image: "/a.png" },
      { image: "" },
      { title: "A." },
      { description: "About a" },
      { authors: [{ name: "Ana", slug: "ana-p" }] },
      { authors: [] },
      { tags: [{ name: "deno", slug: "deno", count: 3 }] },
      { tags: [] },
      { date: "2026-01-03" },
      { last_update: "2026-01-03" },
      { time: 2 },
      // Fields that run together alike as text: their lengths tell them apart.
      { title: "", description: "AAbout a." },
    ];
    const keys = new Set([key]);
    for (const change of changes) {
      const other = changeKey({ ...base, ...change });
      assert.ok(!keys.has(other), JSON.stringify(change));
      keys.add(other);
    }
  });

  it("stays the same from one release to the next (a journal kept on disk compares with it)", () => {
    // A new hash would make every item of a kept journal a change at the next start.
    assert.equal(changeKey(base), "908c8337c44716053f31aa893e5c9140");
  });
});

describe("the journal's record (SPEC 12)", () => {
  it("numbers new and changed ids in feed order, then tombstones in id order", () => {
    let j = record(emptyJournal("j"), [item("b"), item("a"), item("c")]);
    assert.deepEqual([...j.entries].map(([id, e]) => [id, e.seq]), [["b", 1], ["a", 2], ["c", 3]]);
    j = record(j, [item("a", "k2"), item("d")], 5);
    assert.equal(j.head, 7);
    assert.deepEqual(
      [...j.entries].sort((x, y) => x[1].seq - y[1].seq).map(([id, e]) => [id, e.seq, e.deleted]),
      [["a", 4, null], ["d", 5, null], ["b", 6, 5], ["c", 7, 5]],
    );
  });

  it("changes nothing, not even the head, for an unchanged feed", () => {
    const j = record(emptyJournal("j"), [item("a"), item("b")]);
    const changes = planRecord(j, [item("a"), item("b")], 1, 90 * DAY);
    assert.deepEqual(changes.upserts, []);
    assert.equal(applyChanges(j, changes), j);
  });

  it("drops tombstones past the retention and moves the horizon past them", () => {
    let j = record(emptyJournal("j"), [item("a"), item("b")], 0);
    j = record(j, [item("a")], 10 * DAY); // b leaves: tombstone 3
    j = record(j, [item("a"), item("c")], 101 * DAY); // 91 days later: b is forgotten
    assert.equal(j.entries.has("b"), false);
    assert.equal(j.horizon, 3);
    assert.match(cursorProblem(j, { journal: "j", seq: 2 })!, /retention/);
    assert.equal(cursorProblem(j, { journal: "j", seq: 3 }), undefined);
  });
});

describe("since (SPEC 12)", () => {
  it("answers what entered or changed and what left, each id once, never in both", () => {
    let j = record(emptyJournal("j"), [item("a"), item("b"), item("c")]);
    const cursor = j.head;
    j = record(j, [item("a", "k2"), item("c"), item("d")]);
    assert.deepEqual(since(j, cursor), {
      data: ["a", "d"],
      deleted: ["b"],
      cursor: j.head,
      more: false,
      total: 3,
    });
    assert.deepEqual(since(j, j.head).data, []);
  });

  it("since=0 lists every current item and no deletion", () => {
    let j = record(emptyJournal("j"), [item("a"), item("b")]);
    j = record(j, [item("b"), item("c")]);
    assert.deepEqual(since(j, 0), {
      data: ["b", "c"],
      deleted: [],
      cursor: 4,
      more: false,
      total: 2,
    });
  });

  it("tells a deletion only to clients that hold the id", () => {
    let j = record(emptyJournal("j"), [item("a")]); // a: 1
    const before = j.head; // a client that got a
    j = record(j, [item("a"), item("b")]); // b: 2
    const mid = j.head;
    j = record(j, [item("a")]); // b leaves: 3
    const after = j.head;
    j = record(j, [item("a"), item("b")]); // b back: 4
    j = record(j, [item("a")]); // b leaves again: 5
    assert.deepEqual(since(j, before).deleted, []); // never had b
    assert.deepEqual(since(j, mid).deleted, ["b"]); // holds b from its first stay
    assert.deepEqual(since(j, after).deleted, []); // was told at 3
    assert.deepEqual(since(j, 4).deleted, ["b"]); // holds b from its second stay
  });

  it("pages by limit, and a page goes on where the last one ended", () => {
    const j = record(emptyJournal("j"), ["a", "b", "c", "d", "e"].map((id) => item(id)));
    const first = since(j, 0, 2);
    assert.deepEqual(first, { data: ["a", "b"], deleted: [], cursor: 2, more: true, total: 5 });
    const second = since(j, first.cursor, 2);
    assert.deepEqual([second.data, second.more], [["c", "d"], true]);
    const last = since(j, second.cursor, 2);
    assert.deepEqual([last.data, last.cursor, last.more], [["e"], 5, false]);
  });

  it("keeps an id where a paging client meets it, though it changed again meanwhile", () => {
    let j = record(emptyJournal("j"), ["a", "b", "c", "d"].map((id) => item(id)));
    const page = since(j, 0, 2); // a, b; c and d are still ahead
    j = record(j, [item("a"), item("b"), item("c", "k2"), item("d")]); // c changes: 5
    j = record(j, [item("a"), item("b"), item("d")]); // c leaves: 6
    // The client never got c: no deletion of it, and d is still ahead of it.
    assert.deepEqual(since(j, page.cursor), {
      data: ["d"],
      deleted: [],
      cursor: j.head,
      more: false,
      total: 1,
    });
  });

  it("filters by type and category, tombstones included", () => {
    let j = record(emptyJournal("j"), [item("a", "k", "docs"), item("p", "k", "blog", "post")]);
    const cursor = j.head;
    j = record(j, [item("a", "k2", "docs")]);
    assert.deepEqual(since(j, cursor, undefined, { type: "blog" }).deleted, ["p"]);
    assert.deepEqual(since(j, cursor, undefined, { type: "docs" }), {
      data: ["a"],
      deleted: [],
      cursor: j.head,
      more: false,
      total: 1,
    });
    assert.deepEqual(since(j, cursor, undefined, { category: "post" }).deleted, ["p"]);
  });

  it("a cursor of another journal, past the head or malformed cannot be answered", () => {
    const j = record(emptyJournal("j1"), [item("a")]);
    assert.match(cursorProblem(j, { journal: "j2", seq: 1 })!, /another journal/);
    assert.match(cursorProblem(j, { journal: "j1", seq: 2 })!, /past/);
    assert.equal(cursorProblem(j, { journal: undefined, seq: 0 }), undefined);
    assert.deepEqual(parseCursor(formatCursor("j1", 7)), { journal: "j1", seq: 7 });
    for (
      const bad of [
        "",
        "1",
        "j1.",
        ".3",
        "j1.03",
        "J1.3",
        "j1.-3",
        "j1.1.2",
        "j1.99999999999999999",
      ]
    ) {
      assert.equal(parseCursor(bad), undefined, bad);
    }
  });
});

describe("the journal in SQLite (SPEC 12 durable)", () => {
  it("keeps what was written across an open and a close", async () => {
    const folder = await mkdtemp(join(tmpdir(), "content-feed-journal-"));
    try {
      const store = openJournalStore(folder, () => {});
      const start = store.state;
      const changes = planRecord(start, [item("a"), item("b")], 7, 90 * DAY);
      store.write(changes);
      const written = applyChanges(start, changes);
      store.close();
      const again = openJournalStore(folder, () => {});
      assert.deepEqual(again.state, written);
      again.close();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("moves a damaged file aside, with a warning, and begins a new journal", async () => {
    const folder = await mkdtemp(join(tmpdir(), "content-feed-journal-"));
    try {
      await writeFile(join(folder, "journal.sqlite"), "this is not a database".repeat(100));
      const warnings: string[] = [];
      const store = openJournalStore(folder, (message) => warnings.push(message));
      assert.equal(store.state.head, 0);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /moved to .*journal\.sqlite\.unreadable-\d+.*since=0/);
      store.close();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
