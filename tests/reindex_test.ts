// A re-index re-uses what did not change (parsed files, plugin trees, items
// and their JSON). It must serve exactly what a fresh start on the same
// folder serves; this test edits a site step by step and compares the two.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { appendFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createContentApi } from "../mod.ts";
import {
  buildIndexFrom,
  buildIndexInTurns,
  type Index,
  indexSettings,
  ITEMS_PART,
} from "../src/index/build.ts";
import { createPipeline, fixedSource } from "../src/pipeline/pipeline.ts";
import type { Item } from "../src/index/item.ts";
import type { IndexedFile } from "../src/fields/indexed_file.ts";
import { createContentFilesLoader } from "../src/pipeline/content_files.ts";
import { loadConfigFile } from "../src/config/load.ts";
import {
  configFor,
  copySite,
  docsSite,
  git,
  HAS_GIT,
  LONG,
  md,
  memoryLogger,
  removeSite,
  replicaOf,
  site,
  writeSite,
} from "./helpers.ts";

const now = () => Date.UTC(2026, 10, 21, 9, 15, 2);
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

/** Everything a client can see: the feed, every item's JSON form, the sitemap, the warnings. */
async function everything(fetch: (r: Request) => Promise<Response>, warnings: string[]) {
  const get = (path: string) => fetch(new Request(`http://localhost:8000${path}`));
  const feed = await (await get("/api/content.json")).json();
  const items: Record<string, unknown> = {};
  for (const item of feed.data) {
    items[item.link] = await (await get(new URL(item.link).pathname)).json();
  }
  const sitemap = await (await get("/sitemap.xml")).text();
  return { feed, items, sitemap, warnings: [...warnings].sort() };
}

describe("re-index", () => {
  it("serves what a fresh start serves, after each of a series of edits", async () => {
    const s = await site({
      "academy/c.md": md({ title: "Course", tags: ["Shared"] }, LONG),
      "academy/c/m.md": md({ title: "Module" }, LONG),
      "academy/c/m/l1.md": md({ title: "L1" }, `${LONG} ${words(300)}`),
      "academy/c/m/l2.md": md({ title: "L2", tags: ["Shared", "Other"] }, LONG),
      "docs/a.md": md({ title: "A", tags: ["Shared"] }, LONG),
      "docs/a/b.md": md({ title: "B", sidebar_position: 2 }, LONG),
      "docs/a/c.md": md({ title: "C", sidebar_position: 1 }, LONG),
      "blog/2026-01-01-post.md": md({ title: "Post", tags: ["Other"] }, LONG),
    }, { now });
    const edits: [string, string | undefined][] = [
      ["docs/a/b.md", md({ title: "B2", tags: ["Shared", "New"] }, LONG)], // tag counts elsewhere change
      ["academy/c/m/l1.md", md({ title: "L1" }, `${LONG} ${words(900)}`)], // module and course time change
      ["docs/a/c.md", md({ title: "C", slug: "renamed", sidebar_position: 3 }, LONG)], // parent's children
      ["docs/a.md", md({ title: "A", draft: true }, LONG)], // a draft hides its subtree
      ["docs/a.md", md({ title: "A", tags: ["Shared"] }, LONG)],
      ["docs/a/d.md", md({ title: "D", slug: "b" }, LONG)], // a uri clash: a warning
      ["blog/2026-01-01-post.md", undefined], // removed
      ["academy/c/m/l2.md", md({ title: "L2" }, "short")], // no longer indexable
      ["docs/a/b.md", "---\ntitle: [unclosed\n---\nbody"], // bad YAML: left out, warned
    ];
    try {
      for (const [path, text] of edits) {
        const abs = join(s.root, path);
        if (text === undefined) await rm(abs);
        else await writeFile(abs, text);
        await s.api.reload([abs]);
        // A fresh start on the same files and journal: a copy (one service writes a journal).
        const copy = await copySite(s.root);
        const fresh = memoryLogger();
        const api = await createContentApi({
          config: join(copy, "services.yaml"),
          logger: fresh,
          now,
        });
        const index = s.api.index;
        const reused = await everything(
          s.api.fetch,
          index.warnings.map((w) => `${w.file}: ${w.message}`),
        );
        const rebuilt = await everything(
          api.fetch,
          api.index.warnings.map((w) => `${w.file}: ${w.message}`),
        );
        api.close();
        await removeSite(copy);
        assert.deepEqual(reused, rebuilt, `after editing ${path}`);
      }
    } finally {
      await s.close();
    }
  });
});

/** An index as the routes read it: every item, every list and lookup, by id (not object). */
function indexView(index: Index) {
  const ids = (list: readonly Item[]) => list.map((item) => item.id);
  const byKey = (map: ReadonlyMap<string, readonly Item[]>) =>
    [...map].map(([key, list]) => [key, ids(list)]);
  const entries = (map: ReadonlyMap<string, Item>) => [...map].map(([key, item]) => [key, item.id]);
  return {
    items: JSON.stringify(index.items),
    feed: ids(index.feed),
    // Read by item, never walked: its order is not part of the index.
    feedPlace: [...index.feedPlace].map(([item, at]) => [item.id, at] as const)
      .sort((a, b) => a[1] - b[1]),
    byPath: entries(index.byPath),
    byId: entries(index.byId),
    feedById: entries(index.feedById),
    byUrl: entries(index.byUrl),
    tags: index.tags,
    lists: Object.fromEntries(Object.entries(index.lists).map(([name, map]) => [name, byKey(map)])),
    counts: index.counts,
    warnings: index.warnings.map((w) => `${w.file}: ${w.message}`),
  };
}

describe("re-index as a patch of the index before it (SPEC 17)", () => {
  it("replaces the items that changed in place and equals a whole build, edit after edit", async () => {
    const s = await site({
      "academy/c.md": md({ date: "2025-03-01", title: "Course", tags: ["Shared"] }, LONG),
      "academy/c/m.md": md({ date: "2025-03-01", title: "Module" }, LONG),
      "academy/c/m/l1.md": md({ date: "2025-03-01", title: "L1" }, `${LONG} ${words(300)}`),
      "academy/c/m/l2.md": md({ date: "2025-03-01", title: "L2", tags: ["Shared", "Other"] }, LONG),
      "docs/a.md": md({
        date: "2025-03-01",
        sidebar_position: 1,
        title: "A",
        tags: ["Shared", "Shared"],
        authors: ["Ann"],
      }, LONG),
      "docs/a/b.md": md({ date: "2025-03-01", title: "B", sidebar_position: 2, slug: "x" }, LONG),
      "docs/a/c.md": md({ date: "2025-03-01", title: "C", sidebar_position: 1, slug: "x" }, LONG), // a uri clash
      "docs/hidden.md": md({ date: "2025-03-01", title: "Hidden", sidebar_position: 9 }, "short"), // served, not in the feed
      "blog/2026-01-01-post.md": md({
        date: "2025-03-01",
        title: "Post",
        tags: ["Other"],
        authors: ["Ann"],
      }, LONG),
    }, { now });
    // Each edit, and whether it leaves every item where it was (so the index is patched).
    const edits: [string, string, boolean][] = [
      [
        "docs/a.md",
        md({
          date: "2025-03-01",
          sidebar_position: 1,
          title: "A2",
          tags: ["Shared", "Shared"],
          authors: ["Ann"],
        }, LONG),
        true,
      ],
      [
        "blog/2026-01-01-post.md",
        md(
          { date: "2025-03-01", title: "Post 2", tags: ["Other"], authors: ["Ann"] },
          `${LONG} More.`,
        ),
        true,
      ],
      ["academy/c/m/l1.md", md({ date: "2025-03-01", title: "L1" }, `${LONG} ${words(900)}`), true], // times up the tree
      [
        "docs/hidden.md",
        md({ date: "2025-03-01", title: "Still hidden", sidebar_position: 9 }, "short again"),
        true,
      ],
      [
        "docs/a/b.md",
        md({ date: "2025-03-01", title: "B2", sidebar_position: 2, slug: "x" }, LONG),
        true,
      ], // the clash's winner (first in path order)
      [
        "docs/a/c.md",
        md({ date: "2025-03-01", title: "C2", sidebar_position: 1, slug: "x" }, LONG),
        true,
      ], // its loser: not served, nothing moves
      [
        "docs/a.md",
        md({
          date: "2025-03-01",
          sidebar_position: 1,
          title: "A3",
          tags: ["Shared", "New"],
          authors: ["Ann"],
        }, LONG),
        false,
      ], // retagged
      [
        "docs/a.md",
        md({
          date: "2025-03-01",
          sidebar_position: 1,
          title: "A4",
          tags: ["Shared", "New"],
          authors: ["Bob"],
        }, LONG),
        false,
      ], // new author
      [
        "blog/2026-01-01-post.md",
        md({ title: "Post 3", date: "2024-05-01", tags: ["Other"] }, LONG),
        false,
      ], // its year
      [
        "docs/hidden.md",
        md({ date: "2025-03-01", title: "Hidden", sidebar_position: 0 }, "short"),
        false,
      ], // moved before a
      [
        "docs/hidden.md",
        md({ date: "2025-03-01", title: "Now shown", sidebar_position: 0 }, LONG),
        false,
      ], // into the feed
    ];
    try {
      for (const [path, text, patched] of edits) {
        const before = s.api.index;
        await writeFile(join(s.root, path), text);
        const index = await s.api.reload([join(s.root, path)]);
        assert.notEqual(index, before, `${path} changed`);
        // A patch copies the lists it does not touch: the type list of another plugin is the same array.
        const other = path.startsWith("blog/") ? "docs" : "blog";
        assert.equal(
          index.lists.type.get(other) === before.lists.type.get(other),
          patched,
          `after editing ${path}: ${patched ? "patched" : "built whole"}`,
        );
        const whole = buildIndexFrom(
          [...(index.reuse as unknown as { items: Map<IndexedFile, Item> }).items.keys()],
          index.settings,
          index.builtAt,
          { warnings: index.warnings.filter((w) => !w.message.startsWith("same url")) },
        );
        assert.deepEqual(indexView(index), indexView(whole), `after editing ${path}`);
      }
    } finally {
      await s.close();
    }
  });
});

describe("re-index after git operations (SPEC 4, 10)", () => {
  // A commit changes dates, not bytes: the re-listing (what the periodic one
  // does) must still date those files again, and only those, without reading them (SPEC 17).
  it("re-dates exactly the files whose commit dates changed, reads only those whose bytes did, and serves what a fresh start serves", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    const s = await site({
      "docs/a.md": md({ title: "A" }, LONG),
      "docs/b.md": md({ title: "B" }, LONG),
      "docs/c.md": md({ title: "C" }, LONG),
      "notes.txt": "not content\n",
    }, {
      now,
      prepare: (root) => {
        git(root, ["init", "-q"]);
        git(root, ["add", "."]);
        git(root, ["commit", "-qm", "one"], "2020-01-02T10:00:00Z");
        return Promise.resolve();
      },
    });
    const today = new Date().toISOString().slice(0, 10);
    const config = join(s.root, "services.yaml");
    const loader = createContentFilesLoader(await loadConfigFile(config), { keepBody: false });
    assert.equal((await loader.load()).read, 3);
    // Each step: a git operation, the files a full re-listing reads again and
    // those it dates again without a read, a's last_update.
    const steps: [string, () => unknown, number, number | undefined, string][] = [
      [
        "an append (the file is dirty)",
        () => appendFile(join(s.root, "docs/a.md"), " More."),
        1,
        undefined, // read with the dates known then, dated again once git answered, or not
        today,
      ],
      [
        "its commit",
        () => git(s.root, ["commit", "-qam", "two"], "2021-06-07T10:00:00Z"),
        0,
        1,
        "2021-06-07",
      ],
      [
        "an amend",
        () => git(s.root, ["commit", "-q", "--amend", "--no-edit"], "2022-08-09T10:00:00Z"),
        0,
        1,
        "2022-08-09",
      ],
      [
        "a commit of no content file",
        async () => {
          await appendFile(join(s.root, "notes.txt"), "more\n");
          git(s.root, ["commit", "-qam", "notes"], "2023-01-01T10:00:00Z");
        },
        0,
        0,
        "2022-08-09",
      ],
      [
        "a checkout of the first commit",
        () => git(s.root, ["checkout", "-q", "-b", "old", "HEAD~2"]),
        1,
        undefined,
        "2020-01-02",
      ],
    ];
    try {
      for (const [what, operation, reads, rebased, lastUpdate] of steps) {
        await operation();
        const loaded = await loader.load();
        assert.equal(loaded.read, reads, `files read again after ${what}`);
        assert.equal(loaded.work.derived, reads, `files derived again after ${what}`);
        if (rebased !== undefined) {
          assert.equal(loaded.work.rebased, rebased, `files dated again after ${what}`);
        }
        await s.api.reload();
        assert.equal(s.api.index.byPath.get("docs/a")!.last_update, lastUpdate, what);
        // A fresh start on a copy of the folder, journal included (one journal has one writer).
        const fresh = await replicaOf(s.root, { now });
        try {
          const live = await everything(s.api.fetch, []);
          assert.deepEqual(live, await everything(fresh.api.fetch, []), `after ${what}`);
        } finally {
          await fresh.close();
        }
      }
    } finally {
      await s.close();
    }
  });

  it("keeps the dates the start-up helper derived files with: after a commit, a re-listing reads only what it touched", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    const files: Record<string, string> = {};
    for (let i = 0; i < 1100; i++) files[`docs/f${i}.md`] = md({ title: `F${i}` }, LONG);
    const root = await writeSite({
      "services.yaml": configFor(["docs", "api"]),
      "notes.txt": "not content\n",
      ...files,
    });
    try {
      git(root, ["init", "-q"]);
      git(root, ["add", "."]);
      git(root, ["commit", "-qm", "one"], "2020-01-02T10:00:00Z");
      const config = await loadConfigFile(join(root, "services.yaml"));
      const loader = createContentFilesLoader(config, { keepBody: false, helperCores: 1 });
      const first = await loader.load();
      assert.equal(first.read, 1100);
      assert.equal(first.files[0].fields.lastUpdate, "2020-01-02");
      assert.ok(first.helped > 0 || !("Worker" in globalThis), "the helper read some");
      assert.equal((await loader.load()).read, 0);
      // New dates in git (a commit), none for a content file: each file is checked, none read.
      await appendFile(join(root, "notes.txt"), "more\n");
      git(root, ["commit", "-qam", "notes"], "2021-01-02T10:00:00Z");
      assert.equal((await loader.load()).read, 0);
      await appendFile(join(root, "docs/f7.md"), " More.");
      git(root, ["commit", "-qam", "f7"], "2022-01-02T10:00:00Z");
      const after = await loader.load();
      assert.equal(after.read, 1);
      const f7 = after.files.find((file) => file.path === "f7.md")!;
      assert.equal(f7.fields.lastUpdate, "2022-01-02");
    } finally {
      await removeSite(root);
    }
  });
});

describe("an index built a part at a time (SPEC 17: a restart serves while it loads)", () => {
  /** Turns of the event loop taken by others while `work` runs. */
  const turnsDuring = async <T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> => {
    let turns = 0, on = true;
    const tick = () => {
      if (!on) return;
      turns++;
      setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const value = await work();
    on = false;
    return { value, turns };
  };

  it("is the index built at once, and gives turns between its parts", async () => {
    const root = await writeSite(docsSite(2 * ITEMS_PART + 100));
    try {
      const config = await loadConfigFile(join(root, "services.yaml"));
      const loaded = await createContentFilesLoader(config, { keepBody: false }).load();
      const settings = indexSettings(config);
      const { value: atOnce, turns: none } = await turnsDuring(() =>
        Promise.resolve(
          buildIndexFrom(loaded.files, settings, now(), { warnings: loaded.warnings }),
        )
      );
      const { value: inTurns, turns } = await turnsDuring(() =>
        buildIndexInTurns(loaded.files, settings, now(), { warnings: loaded.warnings })
      );
      assert.deepEqual(indexView(inTurns), indexView(atOnce));
      assert.equal(none, 0);
      // A turn after each plugin's tree (docs, blog), each ITEMS_PART items, and before the rest.
      assert.ok(turns >= 2 + 2 + 1, `${turns} turns`);
    } finally {
      await removeSite(root);
    }
  });

  it("a pipeline builds in parts but for a first build that blocks", async () => {
    const root = await writeSite(docsSite(ITEMS_PART + 100));
    try {
      const config = await loadConfigFile(join(root, "services.yaml"));
      const loaded = await createContentFilesLoader(config, { keepBody: false }).load();
      // The load above, given again by each build as changed (new objects: nothing to reuse).
      const source = {
        ...fixedSource([]),
        load: () =>
          Promise.resolve({
            ...loaded,
            files: loaded.files.map((file) => ({ ...file })),
            changed: true,
          }),
      };
      const settings = indexSettings(config);
      const blocking = createPipeline(settings, source, now);
      const first = await turnsDuring(() => blocking.build());
      assert.equal(first.turns, 0, "a first build that blocks holds the thread");
      const again = await turnsDuring(() => blocking.build(first.value.index));
      assert.ok(again.turns > 0, "a later build (a reload) gives turns");
      const served = createPipeline(settings, source, now, { blockingFirstBuild: false });
      const early = await turnsDuring(() => served.build());
      assert.ok(early.turns > 0, "a first build that does not block gives turns");
      assert.deepEqual(indexView(early.value.index), indexView(first.value.index));
    } finally {
      await removeSite(root);
    }
  });
});
