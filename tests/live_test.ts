// SPEC 10: a change to the content is visible within 2 seconds, with no
// restart, by watching (or polling where watching is unavailable).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { LONG, md, site, type TestSite } from "./helpers.ts";

const WITHIN_MS = 2000;

async function ids(s: TestSite): Promise<string[]> {
  const { body } = await s.json("/api/content.json");
  return body.data.map((item: { id: string }) => item.id);
}

async function eventually(what: string, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < WITHIN_MS) {
    if (await check()) return Date.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`${what} was not visible within ${WITHIN_MS} ms`);
}

for (const mode of [true, "poll"] as const) {
  describe(`live content (${mode === true ? "watching" : "polling"})`, () => {
    it("shows an added, edited, renamed (editor-style) and removed file within 2 s", async () => {
      const s = await site({ "docs/a.md": md({ title: "A" }, LONG) }, {
        watch: mode,
        pollInterval: 200,
      });
      try {
        assert.deepEqual(await ids(s), ["docs_doc_a"]);
        const before = s.api.index;

        await writeFile(join(s.root, "docs/b.md"), md({ title: "B" }, LONG));
        await eventually("an added file", async () => (await ids(s)).includes("docs_doc_b"));
        assert.notEqual(s.api.index, before);

        await writeFile(join(s.root, "docs/a.md"), md({ title: "A, edited" }, LONG));
        await eventually("an edit", async () => {
          const { body } = await s.json("/docs/a.json");
          return body.title === "A, edited";
        });

        // Editors write a temporary file and rename it over the original.
        const tmp = join(s.root, "docs/.a.md.swp");
        await writeFile(tmp, md({ title: "A, saved by rename" }, LONG));
        await rename(tmp, join(s.root, "docs/a.md"));
        await eventually("a rename-over save", async () => {
          const { body } = await s.json("/docs/a.json");
          return body.title === "A, saved by rename";
        });

        await rename(join(s.root, "docs/b.md"), join(s.root, "docs/c.md"));
        await eventually("a renamed file", async () => {
          const now = await ids(s);
          return now.includes("docs_doc_c") && !now.includes("docs_doc_b");
        });

        await rm(join(s.root, "docs/c.md"));
        await eventually("a removed file", async () => !(await ids(s)).includes("docs_doc_c"));
        assert.equal((await s.request("/docs/c.json")).status, 404);
      } finally {
        s.api.close();
        await s.close();
      }
    });
  });
}

describe("reloading", () => {
  it("re-reads only the changed file and keeps the index when nothing changed", async () => {
    const s = await site({
      "docs/a.md": md({ title: "A" }, LONG),
      "docs/b.md": md({ title: "B" }, LONG),
    });
    try {
      const first = s.api.index;
      const etag = (await s.request("/api/content.json")).headers.get("etag");
      assert.equal(await s.api.reload(), first, "no change: the same index, the same ETag");
      assert.equal((await s.request("/api/content.json")).headers.get("etag"), etag);

      const b = s.api.index.byPath.get("docs/b")!;
      await writeFile(join(s.root, "docs/a.md"), md({ title: "A2" }, LONG));
      const next = await s.api.reload();
      assert.notEqual(next, first);
      assert.equal(next.byPath.get("docs/a")!.title, "A2");
      // b did not change: the new index keeps b's very item object (a re-index rebuilds what changed).
      assert.equal(next.byPath.get("docs/b"), b);
      assert.notEqual((await s.request("/api/content.json")).headers.get("etag"), etag);
    } finally {
      await s.close();
    }
  });

  it("never fails a request while content changes under it", async () => {
    const s = await site({ "docs/a.md": md({ title: "A" }, LONG) }, { watch: true });
    try {
      const first = s.api.index;
      const indexes = new Set([first]);
      let stop = false;
      const writer = (async () => {
        for (let i = 0; !stop; i++) {
          await writeFile(join(s.root, `docs/n${i % 20}.md`), md({ title: `N${i}` }, LONG));
          if (i % 3 === 0) await rm(join(s.root, `docs/n${(i + 7) % 20}.md`), { force: true });
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const statuses = new Map<number, number>();
      const end = Date.now() + 1500;
      while (Date.now() < end) {
        const responses = await Promise.all([
          s.request("/api/content.json"),
          s.request("/api/content.json?limit=2&page=2"),
          s.request("/docs/a.json"),
        ]);
        for (const r of responses) {
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          JSON.parse(await r.text()); // every body is complete JSON
        }
        indexes.add(s.api.index);
        // Cached answers resolve without a macrotask: yield, or the writer and watcher never run.
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      stop = true;
      await writer;
      assert.deepEqual([...statuses.keys()], [200]);
      // The content did change under the requests: the index was swapped while they ran.
      assert.ok(indexes.size > 2, `only ${indexes.size - 1} new indexes while requests ran`);
    } finally {
      s.api.close();
      await s.close();
    }
  });
});

describe("reloading only named paths (what the watcher passes)", () => {
  it("reads an edited or added file, drops a removed one, and lists a new folder", async () => {
    const s = await site({
      "docs/a.md": md({ title: "A" }, LONG),
      "docs/b.md": md({ title: "B" }, LONG),
    });
    try {
      const abs = (path: string) => join(s.root, path);
      await writeFile(abs("docs/a.md"), md({ title: "A2" }, LONG));
      await writeFile(abs("docs/c.md"), md({ title: "C" }, LONG));
      // b.md is edited too, but not named: a named reload does not look at it.
      await writeFile(abs("docs/b.md"), md({ title: "B2, longer" }, LONG));
      let index = await s.api.reload([abs("docs/a.md"), abs("docs/c.md"), abs("services.yaml")]);
      assert.equal(index.byPath.get("docs/a")!.title, "A2");
      assert.equal(index.byPath.get("docs/c")!.title, "C");
      assert.equal(index.byPath.get("docs/b")!.title, "B");

      await rm(abs("docs/c.md"));
      index = await s.api.reload([abs("docs/c.md")]);
      assert.equal(index.byPath.get("docs/c"), undefined);

      await mkdir(abs("docs/a"));
      await writeFile(abs("docs/a/deep.md"), md({ title: "Deep" }, LONG));
      index = await s.api.reload([abs("docs/a")]); // a folder: the full listing
      assert.equal(index.byPath.get("docs/a/deep")!.title, "Deep");
      assert.equal(index.byPath.get("docs/b")!.title, "B2, longer");
    } finally {
      await s.close();
    }
  });
});
