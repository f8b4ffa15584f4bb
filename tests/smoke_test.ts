import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { FEED_KEYS, LONG, md, site } from "./helpers.ts";

describe("GET /api/content.json", () => {
  it("lists an indexable item with exactly the seed's fields in order", async () => {
    const s = await site({ "docs/intro.md": md({ title: "Intro", date: "2026-01-15" }, LONG) });
    try {
      const { status, body, headers } = await s.json("/api/content.json");
      assert.equal(status, 200);
      assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
      assert.deepEqual(Object.keys(body), ["meta", "data"]);
      assert.deepEqual(body.meta, {
        count: 1,
        total: 1,
        url: "https://example.com/",
        generated: "2026-11-21 09:15:02",
      });
      assert.deepEqual(Object.keys(body.data[0]), FEED_KEYS);
      assert.equal(body.data[0].id, "docs_doc_intro");
      assert.equal(body.data[0].link, "https://example.com/docs/intro.json");
    } finally {
      await s.close();
    }
  });
});
