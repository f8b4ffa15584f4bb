// The pipeline's value (src/pipeline/): every file left out and every item
// kept out of the feed with the reason decided where it was, what changed
// between two builds, `check` as a formatting of that value, and the
// journal recording from the change set what it records from the whole feed.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { rename, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { mulberry32 } from "../bench/site.ts";
import { checkContent, LEFT_OUT_REASONS } from "../src/cli/check.ts";
import type { Index } from "../src/index/build.ts";
import type { Item } from "../src/index/item.ts";
import { loadConfigFile } from "../src/config/load.ts";
import { contentPipeline, type Pipeline } from "../src/pipeline/pipeline.ts";
import { createChangeKeys } from "../src/sync/change_key.ts";

const changeKey = createChangeKeys();
import { createJournal } from "../src/sync/journal.ts";
import { planRecordChanged } from "../src/sync/record_changed.ts";
import { emptyJournal, planRecord, type RecordedItem } from "../src/sync/state.ts";
import { LONG, md, removeSite, troubledSite, writeSite } from "./helpers.ts";

const DAY = 86_400_000;

/** check's troubled site, with more below a draft and in an orphan folder. */
const TROUBLED = {
  ...troubledSite(),
  "docs/draft/child/grand.md": md({ title: "Further under it" }, LONG),
  "docs/loose/deeper/three.md": md({ title: "Deeper in it" }, LONG),
};

/** A site with only the docs plugin. */
const DOCS_ONLY = `parameters:
  service.content.config:
    git: false
    plugins: { docs: ~, api: ~ }
`;

/** Writes the troubled site, with a FIFO and a broken link (unreadable, even for root). */
async function writeTroubledSite(): Promise<string> {
  const root = await writeSite(TROUBLED);
  execFileSync("mkfifo", [join(root, "docs/pipe.md")]);
  await symlink(join(root, "nowhere.md"), join(root, "docs/gone.md"));
  return root;
}

async function pipelineOf(root: string): Promise<Pipeline> {
  return await contentPipeline(await loadConfigFile(join(root, "services.yaml")), {
    keepBody: false,
  });
}

describe("the pipeline", () => {
  it("names every file left out and every item kept out of the feed, with the reason decided where it was", async () => {
    const root = await writeTroubledSite();
    try {
      const { index, exclusions } = await (await pipelineOf(root)).build();
      const byFile = Object.fromEntries(
        exclusions.files.map(({ file, ...rest }) => [file, rest]),
      );
      const tree = (reason: string, hiddenBy?: string) => ({
        stage: "tree",
        reason,
        ...(hiddenBy ? { hiddenBy } : {}),
      });
      assert.deepEqual(byFile, {
        "academy/c/m/l/too-deep.md": { plugin: "academy", ...tree("too deep") },
        "docs/draft.md": { plugin: "docs", ...tree("draft") },
        // A file below a draft is left out for the draft, and names it.
        "docs/draft/child.md": { plugin: "docs", ...tree("draft", "docs/draft.md") },
        "docs/draft/child/grand.md": { plugin: "docs", ...tree("draft", "docs/draft.md") },
        // Every file in a folder without its own file (orphans: skip) names that folder.
        "docs/loose/one.md": { plugin: "docs", ...tree("orphan folder", "docs/loose/") },
        "docs/loose/two.md": { plugin: "docs", ...tree("orphan folder", "docs/loose/") },
        "docs/loose/deeper/three.md": { plugin: "docs", ...tree("orphan folder", "docs/loose/") },
        "docs/twin.mdx": { plugin: "docs", ...tree("duplicate uri") },
        "docs/unlisted.md": { plugin: "docs", stage: "feed", reason: "unlisted" },
        "docs/deprecated.md": { plugin: "docs", stage: "feed", reason: "deprecated" },
        "docs/empty.md": { plugin: "docs", stage: "feed", reason: "empty body" },
        "docs/short.md": { plugin: "docs", stage: "feed", reason: "short body" },
        "docs/hidden.md": { plugin: "docs", stage: "feed", reason: "indexable: false" },
        "docs/broken.md": { plugin: "docs", stage: "source", reason: "invalid front matter" },
        "docs/binary.md": { plugin: "docs", stage: "source", reason: "not text" },
        "docs/huge.md": { plugin: "docs", stage: "source", reason: "too large" },
        "docs/pipe.md": { plugin: "docs", stage: "source", reason: "not a regular file" },
        "docs/gone.md": { plugin: "docs", stage: "source", reason: "unreadable" },
      });
      // Plugins in config order, files in path order within each.
      const docs = exclusions.files.filter((e) => e.plugin === "docs").map((e) => e.file);
      assert.deepEqual(docs, [...docs].sort());
      assert.equal(exclusions.files[0].plugin, "academy");
      // Every file selected is an item in the feed or an exclusion, once.
      const fed = new Set(index.feed.map((item) => item.file));
      for (const { plugin, files } of exclusions.selection) {
        const out = exclusions.files.filter((e) => e.plugin === plugin).length;
        const inFeed = index.feed.filter((item) => item.file.startsWith(`${plugin}/`)).length;
        assert.equal(files, inFeed + out, plugin);
      }
      assert.ok(!exclusions.files.some((e) => fed.has(e.file)));
      assert.deepEqual(exclusions.selection, [
        { plugin: "academy", files: 4, skipped: {} },
        { plugin: "blog", files: 1, skipped: {} },
        { plugin: "docs", files: 19, skipped: { ".png": 1, ".txt": 1 } },
      ]);
    } finally {
      await removeSite(root);
    }
  });

  it("check formats the pipeline's value: its counts are the pipeline's, nothing walked again", async () => {
    const root = await writeTroubledSite();
    try {
      const report = await checkContent(join(root, "services.yaml"));
      const { index, exclusions } = await (await pipelineOf(root)).build();
      for (const plugin of report.plugins) {
        const selection = exclusions.selection.find((s) => s.plugin === plugin.plugin)!;
        assert.equal(plugin.files, selection.files);
        assert.deepEqual(plugin.skipped, selection.skipped);
        const counted: Record<string, number> = {};
        for (const e of exclusions.files.filter((e) => e.plugin === plugin.plugin)) {
          counted[e.reason] = (counted[e.reason] ?? 0) + 1;
        }
        assert.deepEqual(plugin.leftOut, counted);
        const counts = index.counts.find((c) => c.plugin === plugin.plugin)!;
        assert.deepEqual([plugin.items, plugin.feed], [counts.items, counts.feed]);
      }
      const docs = report.plugins.find((p) => p.plugin === "docs")!;
      // Every reason but academy's and the two only a site generator gives
      // (tests/generators_fixtures_test.ts), in the table's order.
      const generatorOnly = new Set(["too deep", "partial", "not a page"]);
      assert.deepEqual(
        Object.keys(docs.leftOut),
        LEFT_OUT_REASONS.filter((reason) => !generatorOnly.has(reason)),
      );
      assert.equal(docs.leftOut.draft, 3);
      assert.equal(docs.leftOut["orphan folder"], 3);
    } finally {
      await removeSite(root);
    }
  });

  it("check counts a file two plugins select once for each (it counted every warning naming it)", async () => {
    const root = await writeSite({
      "services.yaml": `parameters:
  service.content.config:
    git: false
    plugins: { docs: ~, pages: { path: . }, api: ~ }
`,
      "docs/good.md": md({ title: "Good" }, LONG),
      "docs/broken.md": "---\ntitle: [unclosed\n---\nBody.\n",
    });
    await symlink(join(root, "nowhere.md"), join(root, "docs/gone.md"));
    try {
      const report = await checkContent(join(root, "services.yaml"));
      // Each plugin read the file and warned of it: two warnings, one file each.
      assert.equal(report.warnings.filter((w) => w.file === "docs/broken.md").length, 2);
      for (const plugin of report.plugins) {
        assert.deepEqual(
          plugin.leftOut,
          { "invalid front matter": 1, unreadable: 1 },
          plugin.plugin,
        );
        assert.equal(plugin.files, 3, plugin.plugin);
      }
    } finally {
      await removeSite(root);
    }
  });

  it("says what changed: ids added, changed and removed after an add, an edit, a delete, a rename", async () => {
    const root = await writeSite({
      "services.yaml": DOCS_ONLY,
      "docs/a.md": md({ title: "A", tags: ["shared"] }, LONG),
      "docs/b.md": md({ title: "B", tags: ["shared"] }, LONG),
      "docs/c.md": md({ title: "C" }, LONG),
    });
    const docs = (name: string) => join(root, "docs", name);
    try {
      const pipeline = await pipelineOf(root);
      const journal = createJournal({
        initial: emptyJournal("j"),
        retentionDays: 90,
        warn: assert.fail,
      });
      let index: Index | undefined;
      const step = async () => {
        const built = await pipeline.build(index);
        journal.record(built.index, 0, built.changes);
        index = built.index;
        const { added, changed, removed } = built.changes;
        return {
          added: [...added].sort(),
          changed: [...changed].sort(),
          removed: [...removed].sort(),
        };
      };
      const none = { added: [], changed: [], removed: [] };
      assert.deepEqual(await step(), {
        ...none,
        added: ["docs_doc_a", "docs_doc_b", "docs_doc_c"],
      });
      assert.equal(journal.state.head, 3);
      const first = index;
      assert.deepEqual(await step(), none);
      assert.equal(index, first, "nothing changed: the same index");

      await writeFile(docs("b.md"), md({ title: "B", tags: ["shared"] }, `${LONG} Edited.`));
      assert.deepEqual(await step(), { ...none, changed: ["docs_doc_b"] });
      await writeFile(docs("d.md"), md({ title: "D" }, LONG));
      assert.deepEqual(await step(), { ...none, added: ["docs_doc_d"] });
      await rm(docs("c.md"));
      assert.deepEqual(await step(), { ...none, removed: ["docs_doc_c"] });
      assert.equal(journal.state.head, 6);
      // Renamed: another id; renamed to another extension: the same id, another file.
      await rename(docs("a.md"), docs("e.md"));
      assert.deepEqual(await step(), { ...none, added: ["docs_doc_e"], removed: ["docs_doc_a"] });
      await rename(docs("e.md"), docs("e.mdx"));
      assert.deepEqual(await step(), { ...none, changed: ["docs_doc_e"] });
      // The same bytes under another name: its feed form is the same, so the journal has no change.
      assert.equal(journal.state.head, 8);
      // A tag's count moves for the items that carry it: candidates the journal confirms
      // with their keys (SPEC 12: a count is no change), so only d is journaled.
      await writeFile(docs("d.md"), md({ title: "D", tags: ["shared"] }, LONG));
      assert.deepEqual(await step(), {
        ...none,
        changed: ["docs_doc_b", "docs_doc_d", "docs_doc_e"],
      });
      assert.equal(journal.state.head, 9);
      assert.equal(journal.state.entries.get("docs_doc_d")!.seq, 9);
      // An item that leaves the feed but is still served (its body emptied) changes, and
      // so do those whose tag count it took along; the journal has b's leaving alone.
      await writeFile(docs("b.md"), md({ title: "B", tags: ["shared"] }, ""));
      assert.deepEqual(await step(), {
        ...none,
        changed: ["docs_doc_b", "docs_doc_d", "docs_doc_e"],
      });
      assert.equal(journal.state.head, 10);
      assert.notEqual(journal.state.entries.get("docs_doc_b")!.deleted, null);
      assert.ok(index!.byId.has("docs_doc_b") && !index!.feedById.has("docs_doc_b"));
    } finally {
      await removeSite(root);
    }
  });

  it("the journal records from the change set what it records from the whole feed", async () => {
    const random = mulberry32(25);
    const names = Array.from({ length: 16 }, (_, i) => `f${i}`);
    const body = () => `${LONG} ${"word ".repeat(Math.floor(random() * 30))}`;
    const front = () => ({
      title: `T${Math.floor(random() * 3)}`,
      tags: ["one", "two", "three"].filter(() => random() < 0.4),
      ...(random() < 0.1 ? { draft: true } : {}),
      ...(random() < 0.1 ? { indexable: false } : {}),
    });
    const files: Record<string, string> = {
      "services.yaml": DOCS_ONLY,
    };
    for (const name of names.slice(0, 10)) files[`docs/${name}.md`] = md(front(), body());
    const root = await writeSite(files);
    try {
      const pipeline = await pipelineOf(root);
      const options = { initial: emptyJournal("j"), retentionDays: 1, warn: assert.fail };
      const fromChanges = createJournal(options);
      const fromFeed = createJournal(options);
      const recordOf = (item: Item): RecordedItem => ({
        id: item.id,
        key: changeKey(item),
        type: item.type,
        category: item.category,
      });
      let index: Index | undefined;
      let now = 0;
      let purged = 0;
      for (let step = 0; step < 60; step++) {
        // Half a day at most between builds: tombstones pass the one-day retention.
        now += Math.floor(random() * DAY / 2);
        const name = names[Math.floor(random() * names.length)];
        const path = join(root, "docs", `${name}.md`);
        if (step > 0) {
          if (random() < 0.3) await rm(path, { force: true });
          else await writeFile(path, md(front(), body()));
        }
        const built = await pipeline.build(index);
        if (index !== undefined && built.index !== index) {
          const { added, changed, removed } = built.changes;
          const ids = [...added, ...changed, ...removed];
          const state = fromChanges.state;
          const expected = planRecord(state, built.index.feed.map(recordOf), now, DAY);
          for (const purging of [true, ...(expected.purged.length ? [] : [false])]) {
            assert.deepEqual(
              planRecordChanged(state, built.index, ids, recordOf, now, DAY, purging),
              expected,
              `step ${step}`,
            );
          }
          purged += expected.purged.length;
        }
        index = built.index;
        fromChanges.record(index, now, built.changes);
        fromFeed.record(index, now);
        assert.deepEqual(fromChanges.state, fromFeed.state, `step ${step}`);
      }
      assert.ok(purged > 0, "some tombstone passed the retention");
      assert.ok(fromFeed.state.head > 20);
    } finally {
      await removeSite(root);
    }
  });

  it("a catch-up that found a change leaves its listing to the next full reload; dropped, that reload lists on its own (SPEC 10)", async () => {
    // The service's catch-up lists once its watch has begun; where the content changed, its reload
    // reads from that listing (what changes after it, the watcher names). A reload that a
    // watcher's ask joined drops it (service.ts): a file edited in place after the listing keeps
    // its folder's time, and only a listing of its own reads it.
    const root = await writeSite({
      "services.yaml": DOCS_ONLY,
      "docs/a.md": md({ title: "A" }, LONG),
      "docs/b.md": md({ title: "B" }, LONG),
    });
    const titles = (index: Index) =>
      Object.fromEntries(index.items.map((item) => [item.uri, item.title]));
    const edit = async (path: string, title: string) => {
      await writeFile(join(root, path), md({ title }, LONG));
      const then = Date.now() / 1000 - 3600; // not near the load's read: its stamp is trusted
      await utimes(join(root, path), then - title.length, then - title.length);
    };
    try {
      for (const path of ["docs/a.md", "docs/b.md"]) {
        const then = Date.now() / 1000 - 7200;
        await utimes(join(root, path), then, then);
      }
      const pipeline = await pipelineOf(root);
      let { index } = await pipeline.build();
      assert.deepEqual(titles(index), { a: "A", b: "B" });

      await edit("docs/a.md", "A2");
      assert.equal(await pipeline.unchangedSinceLoad!(), false);
      await edit("docs/b.md", "B two"); // after the listing, in place
      ({ index } = await pipeline.build(index, undefined, true));
      assert.deepEqual(titles(index), { a: "A2", b: "B" }, "the catch-up's listing, taken");
      ({ index } = await pipeline.build(index));
      assert.deepEqual(titles(index), { a: "A2", b: "B two" }, "then a listing of its own");

      await edit("docs/a.md", "A three");
      assert.equal(await pipeline.unchangedSinceLoad!(), false);
      await edit("docs/b.md", "B three!");
      pipeline.dropListing!();
      ({ index } = await pipeline.build(index, undefined, true));
      assert.deepEqual(titles(index), { a: "A three", b: "B three!" }, "dropped: its own listing");
    } finally {
      await removeSite(root);
    }
  });

  it("gives the index its lookups, each made once", async () => {
    const root = await writeSite({
      "services.yaml": DOCS_ONLY,
      "docs/a.md": md({ title: "A", tags: ["Beta", "Alpha"] }, LONG),
      "docs/b.md": md({ title: "B", tags: ["Beta"] }, LONG),
      "docs/c.md": md({ title: "C", tags: ["Gamma"], permalink: "/elsewhere/c/" }, "Short."),
    });
    try {
      const { index } = await (await pipelineOf(root)).build();
      assert.equal(index.byId, index.byId);
      assert.deepEqual([...index.byId.keys()].sort(), ["docs_doc_a", "docs_doc_b", "docs_doc_c"]);
      assert.deepEqual([...index.feedById.keys()].sort(), ["docs_doc_a", "docs_doc_b"]);
      assert.deepEqual([...index.byUrl.keys()].sort(), ["docs/a", "docs/b", "elsewhere/c"]);
      assert.equal(index.byUrl.get("elsewhere/c"), index.byId.get("docs_doc_c"));
      // Feed tags only (c is not in the feed), most used first, then by name.
      assert.deepEqual(index.tags, [
        { name: "Beta", slug: "beta", count: 2 },
        { name: "Alpha", slug: "alpha", count: 1 },
      ]);
      assert.ok(!Object.keys(index).includes("byId"), "not one of the index's own fields");
    } finally {
      await removeSite(root);
    }
  });
});
