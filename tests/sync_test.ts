// SPEC 12, differentially: a client mirrors the feed through `since` while
// seeded random operations on the files run between its syncs and between
// the pages of one sync; after every sync the mirror equals a fresh full
// feed, no id is both in `data` and in `deleted`, and every deleted id was
// in the mirror.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { mulberry32 } from "../bench/site.ts";
import { LONG, md, site, type TestSite } from "./helpers.ts";

const CONFIG = `parameters:
  service.content.config:
    url: https://example.com
    plugins: { academy: ~, docs: ~, blog: ~, faq: ~, api: ~ }
`;

// deno-lint-ignore no-explicit-any
type Json = any;

/** A feed item without its tags' counts: those change with other items (SPEC 12). */
function comparable(item: Json): Json {
  return { ...item, tags: item.tags.map(({ name, slug }: Json) => ({ name, slug })) };
}

/** A client of the feed: its mirror and its cursor. */
class Mirror {
  items = new Map<string, Json>();
  cursor = "0";
  requests = 0;

  /**
   * Syncs until `more` is false; `between` runs between two pages of it.
   * A deleted id is one the mirror holds, or one it never held in this
   * sync: not at its start, and never in a page's data (an id that entered
   * after the sync's cursor and left before the paging reached it, the one
   * deletion a client may be told of without holding the id: docs/sync.md).
   */
  async sync(s: TestSite, query: string, between: () => Promise<void>): Promise<void> {
    const heldAtStart = new Set(this.items.keys());
    const delivered = new Set<string>();
    for (;;) {
      const { status, body } = await s.json(
        `/api/content.json?since=${this.cursor}${query}`,
      );
      this.requests++;
      assert.equal(status, 200, JSON.stringify(body));
      const ids = new Set(body.data.map((item: Json) => item.id));
      assert.equal(ids.size, body.data.length, "an id twice in data");
      if (this.cursor === "0" || this.cursor.includes("_")) {
        // A listing's page (SPEC 12): the feed as of its first page, no deletion.
        assert.deepEqual(body.deleted, [], `a listing's page (from ${this.cursor}) deletes`);
      }
      for (const { id } of body.deleted) {
        assert.ok(!ids.has(id), `${id} is in data and in deleted`);
        assert.ok(
          this.items.has(id) || (!heldAtStart.has(id) && !delivered.has(id)),
          `${id} deleted, but the mirror does not hold it any more`,
        );
      }
      for (const id of ids) delivered.add(id as string);
      for (const item of body.data) this.items.set(item.id, comparable(item));
      for (const { id } of body.deleted) this.items.delete(id);
      this.cursor = body.meta.cursor;
      if (!body.meta.more) return;
      await between();
    }
  }
}

/** Seeded operations on a site's files (SPEC 12: everything that makes an id enter, change or leave). */
function operations(s: TestSite, seed: number) {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  let made = 0;
  const files = new Map<string, { title: string; body: string; extra: Record<string, unknown> }>();
  /** Files touched lately: operations favour them, so a file is added and gone, or changed and gone, between two syncs. */
  let recent: string[] = [];
  const write = async (path: string) => {
    const f = files.get(path)!;
    await mkdir(dirname(join(s.root, path)), { recursive: true });
    await writeFile(
      join(s.root, path),
      md({ title: f.title, date: "2026-01-02", tags: ["Sync"], ...f.extra }, f.body),
    );
  };
  const add = async () => {
    const folder = pick(["docs", "docs/guide", "blog", "faq", "academy/course/module"]);
    const path = `${folder}/page-${++made}.md`;
    files.set(path, { title: `Page ${made}`, body: `${LONG} ${made}`, extra: {} });
    await write(path);
    recent.push(path);
    return `add ${path}`;
  };
  const ops: Record<string, (path: string) => Promise<string>> = {
    async "edit body"(path) {
      files.get(path)!.body += ` Edited ${random()}.`;
      await write(path);
      return `edit body ${path}`;
    },
    async "edit title"(path) {
      files.get(path)!.title += " (new)";
      await write(path);
      return `edit title ${path}`;
    },
    async delete(path) {
      files.delete(path);
      await rm(join(s.root, path));
      return `delete ${path}`;
    },
    async rename(path) {
      const next = path.replace(/\.md$/, `-r${++made}.md`);
      files.set(next, files.get(path)!);
      files.delete(path);
      await rename(join(s.root, path), join(s.root, next));
      return `rename ${path} → ${next}`;
    },
    async "draft on/off"(path) {
      const f = files.get(path)!;
      f.extra = { ...f.extra, draft: !f.extra.draft };
      await write(path);
      return `draft ${f.extra.draft} ${path}`;
    },
    async "indexable off/on"(path) {
      const f = files.get(path)!;
      f.extra = { ...f.extra, indexable: f.extra.indexable === false };
      await write(path);
      return `indexable ${f.extra.indexable} ${path}`;
    },
    async "empty body"(path) {
      files.get(path)!.body = "";
      await write(path);
      return `empty body ${path}`;
    },
    async "move into a folder"(path) {
      const next = path.replace(/([^/]+)$/, `moved/$1`);
      files.set(next, files.get(path)!);
      files.delete(path);
      await mkdir(dirname(join(s.root, next)), { recursive: true });
      await rename(join(s.root, path), join(s.root, next));
      return `move ${path} → ${next}`;
    },
    async "grow by 250 words"(path) {
      // A lesson's reading time changes its module's and its course's (SPEC 4 time): items
      // whose files did not change.
      files.get(path)!.body += ` ${"word ".repeat(250)}`;
      await write(path);
      return `grow ${path}`;
    },
    async "retag"(path) {
      const f = files.get(path)!;
      f.extra = { ...f.extra, tags: [pick(["Sync", "Other", "Third"])] };
      await write(path);
      return `retag ${path}`;
    },
  };
  return {
    /** Writes the first files. */
    async start(count: number) {
      for (
        const [path, title] of [["academy/course.md", "Course"], [
          "academy/course/module.md",
          "Module",
        ]]
      ) {
        await mkdir(dirname(join(s.root, path)), { recursive: true });
        await writeFile(join(s.root, path), md({ title, date: "2026-01-01" }, LONG));
      }
      for (let i = 0; i < count; i++) await add();
    },
    /** One random operation, then a re-index; returns what it did. */
    async next(): Promise<string> {
      const name = files.size < 4 || random() < 0.15 ? "add" : pick(Object.keys(ops));
      recent = recent.filter((path) => files.has(path));
      const path = recent.length > 0 && random() < 0.4 ? pick(recent) : pick([...files.keys()]);
      const done = name === "add" ? await add() : await ops[name](path);
      if (name !== "add") recent.push([...files.keys()].at(-1)!);
      if (recent.length > 6) recent = recent.slice(-6);
      await s.api.reload();
      return done;
    },
    /** A sync ended: what is recent is now in every mirror. */
    synced() {
      recent = [];
    },
  };
}

async function fresh(s: TestSite, query: string): Promise<Map<string, Json>> {
  const { body } = await s.json(`/api/content.json?${query.slice(1)}`);
  return new Map(body.data.map((item: Json) => [item.id, comparable(item)]));
}

describe("sync by since (SPEC 12), differentially", () => {
  for (const [name, query] of [["the seed's fields", ""], ["bodies", "&include=body"]]) {
    it(`a mirror of ${name} equals a fresh feed after every sync, through 120 random operations`, async () => {
      const s = await site({ "services.yaml": CONFIG });
      try {
        const ops = operations(s, name.length);
        await ops.start(12);
        await s.api.reload();
        const mirror = new Mirror();
        const log: string[] = [];
        let done = 0;
        const random = mulberry32(99);
        const between = async () => {
          if (random() < 0.6) {
            log.push(`(between pages) ${await ops.next()}`);
            done++;
          }
        };
        for (let round = 0; done < 120; round++) {
          // Operations between syncs, then a sync with operations between its pages.
          for (let n = Math.floor(random() * 4); n > 0; n--, done++) log.push(await ops.next());
          await mirror.sync(s, `&limit=${1 + Math.floor(random() * 3)}${query}`, between);
          assert.deepEqual(mirror.items, await fresh(s, query), log.join("\n"));
          // Every few rounds a new client makes its first sync from since=0, paging through
          // changes made meanwhile.
          if (round % 3 === 0) {
            const first = new Mirror();
            log.push("(a new client from since=0)");
            await first.sync(s, `&limit=2${query}`, between);
            assert.deepEqual(first.items, await fresh(s, query), log.join("\n"));
          }
          ops.synced();
        }
        // A client that is up to date needs one small request to learn so.
        const before = mirror.requests;
        await mirror.sync(s, query, () => Promise.resolve());
        assert.equal(mirror.requests, before + 1);
      } finally {
        await s.close();
      }
    });
  }

  it("answers since with the seed's fields, body, text and sections as the feed does", async () => {
    const s = await site({
      "services.yaml": CONFIG,
      "docs/a.md": md({ title: "A" }, `${LONG}\n\n## Part {#part}\n\nText of the part.`),
    });
    try {
      const feed = (await s.json("/api/content.json?include=url,body,text,sections")).body;
      const changes = (await s.json("/api/content.json?since=0&include=url,body,text,sections"))
        .body;
      assert.deepEqual(changes.data, feed.data);
      assert.equal(feed.data[0].body, `${LONG}\n\n## Part {#part}\n\nText of the part.`);
      assert.deepEqual(feed.data[0].sections.map((x: Json) => x.anchor), ["", "part"]);
      const manifest = (await s.json("/api/content.json?since=0&fields=id,checksum,last_update"))
        .body;
      assert.deepEqual(Object.keys(manifest.data[0]), ["id", "checksum", "last_update"]);
    } finally {
      await s.close();
    }
  });

  it("survives a restart: the journal goes on from its file", async () => {
    const s = await site({ "services.yaml": CONFIG, "docs/a.md": md({ title: "A" }, LONG) });
    try {
      const cursor = s.api.cursor;
      s.api.close();
      await writeFile(join(s.root, "docs/b.md"), md({ title: "B" }, LONG));
      await rm(join(s.root, "docs/a.md"));
      const { serviceOn } = await import("./helpers.ts");
      const again = await serviceOn(s.root);
      try {
        const { body } = await again.json(`/api/content.json?since=${cursor}`);
        assert.deepEqual(body.data.map((x: Json) => x.id), ["docs_doc_b"]);
        assert.deepEqual(body.deleted.map((x: Json) => x.id), ["docs_doc_a"]);
      } finally {
        await again.close();
      }
    } finally {
      await s.close();
    }
  });

  it("keeps the journal in memory, with one warning, where the state folder cannot be written", async () => {
    const s = await site({
      "services.yaml": CONFIG.replace("    plugins:", "    state: docs/a.md/state\n    plugins:"),
      "docs/a.md": md({ title: "A" }, LONG),
    });
    try {
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(warnings[0], /cannot keep the sync journal there.*lives in memory/);
      const { body } = await s.json("/api/content.json?since=0");
      assert.deepEqual(body.data.map((x: Json) => x.id), ["docs_doc_a"]);
      assert.equal((await readFile(join(s.root, "docs/a.md"), "utf8")).startsWith("---"), true);
    } finally {
      await s.close();
    }
  });
});
