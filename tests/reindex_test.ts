// A re-index re-uses what did not change (parsed files, plugin trees, items
// and their JSON). It must serve exactly what a fresh start on the same
// folder serves; this test edits a site step by step and compares the two.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createContentApi } from "../mod.ts";
import { copySite, LONG, md, memoryLogger, removeSite, site } from "./helpers.ts";

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
