// SPEC 12, the journal as a value: what a record changes, what a cursor is
// answered, when a cursor is gone, and the durable store under it.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { DatabaseSync } from "node:sqlite";
import { mkdtemp, open, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatCursor, parseCursor } from "../src/sync/cursor.ts";
import { changesSince, cursorProblem } from "../src/sync/changes_since.ts";
import {
  applyChanges,
  emptyJournal,
  forkJournal,
  type JournalState,
  planRecord,
  type RecordedItem,
} from "../src/sync/state.ts";
import { JournalUnavailable, openJournalStore } from "../src/sync/sqlite_store.ts";
import { createChangeKeys } from "../src/sync/change_key.ts";

const changeKey = createChangeKeys();
import type { Item } from "../src/index/item.ts";
import { LONG, md, removeSite, serviceOn, type TestSite, writeSite } from "./helpers.ts";

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
    lang: null,
    version: null,
    variant_of: null,
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
      // SPEC 16.3's fields, each apart from the others when set.
      { lang: "fr" },
      { version: "fr" },
      { variant_of: "fr" },
      { lang: "fr", version: "2.0" },
      { version: "2.0", variant_of: "docs_doc_a" },
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

describe("a journal forked when its file cannot be written (SPEC 12 honest failure)", () => {
  it("answers the cursors of the journal it went on from, up to the fork, and gives its own", () => {
    let j = record(emptyJournal("j1"), [item("a"), item("b")]);
    const before = j.head;
    j = forkJournal(j, "j2");
    j = record(j, [item("a", "k2"), item("c")]);
    assert.equal(j.id, "j2");
    assert.equal(cursorProblem(j, { journal: "j1", seq: before }), undefined);
    assert.equal(cursorProblem(j, { journal: "j1", seq: 1 }), undefined);
    assert.deepEqual(since(j, before), {
      data: ["a", "c"],
      deleted: ["b"],
      cursor: j.head,
      more: false,
      total: 3,
    });
    // Past the fork, a cursor of the first journal is one this journal never gave.
    assert.match(cursorProblem(j, { journal: "j1", seq: before + 1 })!, /another journal/);
    assert.equal(cursorProblem(j, { journal: "j2", seq: j.head }), undefined);
    assert.match(cursorProblem(j, { journal: "j3", seq: 1 })!, /another journal/);
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

  it("moves aside a SQLite file of another schema or program, and begins a new journal", async () => {
    const folder = await mkdtemp(join(tmpdir(), "content-feed-journal-"));
    try {
      const cases: [string, string][] = [
        ["CREATE TABLE notes (a, b); INSERT INTO notes VALUES (1, 2);", "notes"],
        ["CREATE TABLE meta (name, value);", "meta"],
        [
          "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);" +
          "CREATE TABLE entries (id, seq, born, key, type, category, deleted, lives);" +
          "INSERT INTO meta VALUES ('version', '2'), ('id', 'x'), ('head', '0'), ('horizon', '0');",
          "schema version 2",
        ],
      ];
      for (const [sql, why] of cases) {
        const db = new DatabaseSync(join(folder, "journal.sqlite"));
        db.exec(sql);
        db.close();
        const warnings: string[] = [];
        const store = openJournalStore(folder, (message) => warnings.push(message));
        assert.equal(store.state.head, 0);
        assert.equal(warnings.length, 1);
        assert.match(warnings[0], new RegExp(`not a journal.*${why}.*moved to`));
        store.close();
        await rm(join(folder, "journal.sqlite"));
      }
      assert.equal((await readdir(folder)).filter((f) => /unreadable/.test(f)).length, 3);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("keeps a journal it cannot open to write, and says why", async () => {
    const folder = await mkdtemp(join(tmpdir(), "content-feed-journal-"));
    try {
      // A file where the state folder should be: the folder cannot be made.
      await writeFile(join(folder, "state"), "a file");
      assert.throws(
        () => openJournalStore(join(folder, "state"), () => assert.fail("no warning")),
        (error: Error) => error instanceof JournalUnavailable && error.reason === "unusable",
      );
      assert.deepEqual(await readdir(folder), ["state"]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("reads its entries on first use: the cursor comes first, and damaged entries move the file aside then", async () => {
    const folder = await mkdtemp(join(tmpdir(), "content-feed-journal-"));
    try {
      const first = openJournalStore(folder, () => {});
      const ids = Array.from({ length: 3000 }, (_, i) => `docs_page-${i}-${"x".repeat(40)}`);
      const changes = planRecord(first.state, ids.map((id) => item(id)), 7, 90 * DAY);
      first.write(changes);
      const written = applyChanges(first.state, changes);
      first.close();
      // Intact: the cursor is the file's, and the entries are all there when asked for.
      const intact = openJournalStore(folder, assert.fail);
      assert.deepEqual(intact.opened, { id: written.id, head: written.head });
      assert.deepEqual(intact.state, written);
      intact.close();
      // The entries' pages overwritten (the file's second half): the meta still reads.
      const file = join(folder, "journal.sqlite");
      const bytes = await readFile(file);
      bytes.fill(0x5a, Math.floor(bytes.length / 2));
      await writeFile(file, bytes);
      const warnings: string[] = [];
      const damaged = openJournalStore(folder, (message) => warnings.push(message));
      assert.deepEqual(damaged.opened, { id: written.id, head: written.head });
      assert.deepEqual(warnings, []);
      assert.equal(damaged.state.head, 0);
      assert.notEqual(damaged.state.id, written.id);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /moved to .*journal\.sqlite\.unreadable-\d+.*since=0/);
      // The new journal is the one written from then on.
      const begun = damaged.state;
      const next = planRecord(begun, [item("a")], 8, 90 * DAY);
      damaged.write(next);
      damaged.close();
      const reopened = openJournalStore(folder, assert.fail);
      assert.deepEqual(reopened.state, applyChanges(begun, next));
      assert.deepEqual([...reopened.state.entries.keys()], ["a"]);
      reopened.close();
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

/** Mounts a tmpfs of `size` on a new folder; `undefined` where `mount` is not allowed (not root). */
async function mountTmpfs(size: string): Promise<string | undefined> {
  const folder = await mkdtemp(join(tmpdir(), "content-feed-tmpfs-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", folder]);
  if (mounted.status === 0) return folder;
  await rm(folder, { recursive: true, force: true });
  return undefined;
}

async function unmount(folder: string): Promise<void> {
  spawnSync("umount", [folder]);
  await rm(folder, { recursive: true, force: true });
}

/** Fills the file system of `folder` to the last byte; returns the filler file to remove. */
async function fill(folder: string): Promise<string> {
  const path = join(folder, "filler");
  const handle = await open(path, "w");
  try {
    for (const size of [1 << 16, 1 << 12, 1]) {
      const chunk = new Uint8Array(size).fill(7);
      for (;;) {
        try {
          await handle.write(chunk);
        } catch (error) {
          if ((error as { code?: string }).code !== "ENOSPC") throw error;
          break;
        }
      }
    }
  } finally {
    await handle.close();
  }
  return path;
}

const SITE_CONFIG = (state: string) =>
  `parameters:
  service.content.config:
    url: https://example.com
    state: ${JSON.stringify(state)}
    plugins: { docs: ~, api: ~ }
`;

/** The ids of a `since` answer from a service, data and deleted apart. */
async function sinceIds(s: TestSite, cursor: string) {
  const { status, body } = await s.json(`/api/content.json?since=${cursor}`);
  if (status !== 200) return { status };
  return {
    status,
    data: body.data.map((x: { id: string }) => x.id).sort(),
    deleted: body.deleted.map((x: { id: string }) => x.id).sort(),
  };
}

/** The warnings that speak of the sync journal. */
const journalWarnings = (s: TestSite) => s.log.warnings().filter((line) => /journal/.test(line));

describe("the journal on a full or read-only file system (SPEC 12 durable, honest failure)", () => {
  it(
    "a full disk keeps journal.sqlite: one warning, cursors still answered, and a start with space again goes on with it",
    {
      timeout: 60_000,
    },
    async (t) => {
      const disk = await mountTmpfs("2m");
      if (disk === undefined) return t.skip("mount -t tmpfs is not allowed here (needs root)");
      const root = await writeSite({
        "services.yaml": SITE_CONFIG(join(disk, "state")),
        "docs/a.md": md({ title: "A" }, LONG),
        "docs/b.md": md({ title: "B" }, LONG),
      });
      try {
        const first = await serviceOn(root);
        const cursor = first.api.cursor;
        assert.deepEqual(journalWarnings(first), []);
        await first.close();
        const filler = await fill(disk);
        await writeFile(join(root, "docs/b.md"), md({ title: "B, edited" }, LONG));
        await writeFile(join(root, "docs/c.md"), md({ title: "C" }, LONG));
        // Start-up on the full disk: the new index cannot be written.
        const full = await serviceOn(root);
        let forked: string;
        try {
          const warnings = journalWarnings(full);
          assert.equal(warnings.length, 1, warnings.join("\n"));
          assert.doesNotMatch(warnings[0], /moved|not a journal/);
          assert.deepEqual(
            (await readdir(join(disk, "state"))).filter((f) => /unreadable/.test(f)),
            [],
          );
          // The journal it went on from still answers the cursors it gave out, completely.
          assert.deepEqual(await sinceIds(full, cursor), {
            status: 200,
            data: ["docs_doc_b", "docs_doc_c"],
            deleted: [],
          });
          forked = full.api.cursor;
          assert.notEqual(forked.split(".")[0], cursor.split(".")[0], "a journal of its own");
          // Later changes: recorded in memory, no second warning.
          await rm(join(root, "docs/a.md"));
          await full.api.reload();
          assert.deepEqual(await sinceIds(full, forked), {
            status: 200,
            data: [],
            deleted: ["docs_doc_a"],
          });
          assert.deepEqual(await sinceIds(full, cursor), {
            status: 200,
            data: ["docs_doc_b", "docs_doc_c"],
            deleted: ["docs_doc_a"],
          });
          assert.equal(journalWarnings(full).length, 1);
        } finally {
          await full.close();
        }
        await rm(filler);
        await writeFile(join(root, "docs/d.md"), md({ title: "D" }, LONG));
        const again = await serviceOn(root);
        try {
          assert.deepEqual(journalWarnings(again), []);
          assert.equal(again.api.cursor.split(".")[0], cursor.split(".")[0], "the same journal");
          assert.deepEqual(await sinceIds(again, cursor), {
            status: 200,
            data: ["docs_doc_b", "docs_doc_c", "docs_doc_d"],
            deleted: ["docs_doc_a"],
          });
          // A cursor of the journal kept in memory is gone with it: a 410, never a short answer.
          assert.deepEqual(await sinceIds(again, forked), { status: 410 });
        } finally {
          await again.close();
        }
      } finally {
        await removeSite(root);
        await unmount(disk);
      }
    },
  );

  it(
    "a disk that fills up while serving: the server keeps serving, and never gives a cursor the file cannot answer",
    {
      timeout: 60_000,
    },
    async (t) => {
      const disk = await mountTmpfs("2m");
      if (disk === undefined) return t.skip("mount -t tmpfs is not allowed here (needs root)");
      const root = await writeSite({
        "services.yaml": SITE_CONFIG(join(disk, "state")),
        "docs/a.md": md({ title: "A" }, LONG),
      });
      try {
        const serving = await serviceOn(root);
        const cursor = serving.api.cursor;
        let forked: string;
        try {
          const filler = await fill(disk);
          await writeFile(join(root, "docs/b.md"), md({ title: "B" }, LONG));
          await serving.api.reload();
          const warnings = journalWarnings(serving);
          assert.equal(warnings.length, 1, warnings.join("\n"));
          assert.match(warnings[0], /cannot write the sync journal \(database or disk is full\)/);
          assert.deepEqual(await sinceIds(serving, cursor), {
            status: 200,
            data: ["docs_doc_b"],
            deleted: [],
          });
          forked = serving.api.cursor;
          assert.notEqual(forked.split(".")[0], cursor.split(".")[0]);
          await writeFile(join(root, "docs/c.md"), md({ title: "C" }, LONG));
          await serving.api.reload();
          assert.deepEqual(await sinceIds(serving, forked), {
            status: 200,
            data: ["docs_doc_c"],
            deleted: [],
          });
          assert.equal(journalWarnings(serving).length, 1);
          await rm(filler);
        } finally {
          await serving.close();
        }
        const again = await serviceOn(root);
        try {
          assert.deepEqual(journalWarnings(again), []);
          assert.equal(again.api.cursor.split(".")[0], cursor.split(".")[0], "the same journal");
          assert.deepEqual(await sinceIds(again, cursor), {
            status: 200,
            data: ["docs_doc_b", "docs_doc_c"],
            deleted: [],
          });
          assert.deepEqual(await sinceIds(again, forked), { status: 410 });
        } finally {
          await again.close();
        }
      } finally {
        await removeSite(root);
        await unmount(disk);
      }
    },
  );

  it(
    "a read-only state folder keeps journal.sqlite, and a start with it writable again goes on with it",
    {
      timeout: 60_000,
    },
    async (t) => {
      const disk = await mountTmpfs("2m");
      if (disk === undefined) return t.skip("mount -t tmpfs is not allowed here (needs root)");
      const root = await writeSite({
        "services.yaml": SITE_CONFIG(join(disk, "state")),
        "docs/a.md": md({ title: "A" }, LONG),
      });
      try {
        const first = await serviceOn(root);
        const cursor = first.api.cursor;
        await first.close();
        const before = await readFile(join(disk, "state", "journal.sqlite"));
        assert.equal(spawnSync("mount", ["-o", "remount,ro", disk]).status, 0);
        await writeFile(join(root, "docs/b.md"), md({ title: "B" }, LONG));
        const readOnly = await serviceOn(root);
        try {
          const warnings = journalWarnings(readOnly);
          assert.equal(warnings.length, 1, warnings.join("\n"));
          assert.doesNotMatch(warnings[0], /moved|not a journal/);
          // The file could not be opened to be written: a journal of its own, whose cursors
          // are not the file's (a 410, never a short answer).
          assert.deepEqual(await sinceIds(readOnly, cursor), { status: 410 });
          assert.notEqual(readOnly.api.cursor.split(".")[0], cursor.split(".")[0]);
        } finally {
          await readOnly.close();
        }
        assert.equal(spawnSync("mount", ["-o", "remount,rw", disk]).status, 0);
        assert.deepEqual(await readFile(join(disk, "state", "journal.sqlite")), before);
        const again = await serviceOn(root);
        try {
          assert.deepEqual(journalWarnings(again), []);
          assert.deepEqual(await sinceIds(again, cursor), {
            status: 200,
            data: ["docs_doc_b"],
            deleted: [],
          });
        } finally {
          await again.close();
        }
      } finally {
        await removeSite(root);
        await unmount(disk);
      }
    },
  );
});
