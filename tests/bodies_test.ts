// The server's index holds no bodies: the item route and search read them
// again from the files, checked against the indexed checksum. These tests
// pin what a client sees when a file changes or goes away before the index
// catches up (a 503 with Retry-After; no request reloads the index, the
// service re-reads the file in the background), and that a body is never
// paired with another version's fields.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { rm, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { filterItems } from "../src/feed/filter.ts";
import { itemJson } from "../src/feed/item_json.ts";
import { formShape } from "../src/index/shape.ts";
import { createSearchTexts } from "../src/feed/search.ts";
import type { Item } from "../src/index/item.ts";
import { readBody } from "../src/source/read_file.ts";
import { LONG, md, sha256, type TestSite, withSite } from "./helpers.ts";

const FILES = {
  "docs/guide.md": md({ title: "Guide" }, `${LONG} apple`),
  "docs/other.md": md({ title: "Other" }, `${LONG} banana`),
};

describe("bodies read from the files", () => {
  it("the index holds none; the item route and search read them", async () => {
    await withSite(FILES, {}, async (s) => {
      assert.ok(s.api.index.items.every((item) => item.body === undefined));
      const { body } = await s.json("/docs/guide.json");
      assert.equal(body.body, `${LONG} apple`);
      assert.equal(body.checksum, sha256(FILES["docs/guide.md"]));
      const found = await s.json("/api/content.json?search=APPLE");
      assert.deepEqual(found.body.data.map((i: { uri: string }) => i.uri), ["guide"]);
    });
  });

  /**
   * What a request gets for a file that changed since the index was built:
   * a 503 problem with Retry-After (never one version's body under another
   * version's fields), and no reload of its own (the index is the same one).
   */
  const changedUnder = async (s: TestSite, path: string) => {
    const before = s.api.index;
    const { status, headers, body } = await s.json(path);
    assert.equal(status, 503);
    assert.equal(headers.get("retry-after"), "1");
    assert.equal(headers.get("content-type"), "application/problem+json");
    assert.match(body.detail, /docs\/guide\.md changed while it was read; try again/);
    assert.equal(s.api.index, before, "the request did not reload the index");
    // The service was told: it re-reads the file in the background (a reload queues behind).
    await s.api.reload();
  };

  it("a file changed before a re-index: a 503, then the new version once the index caught up", async () => {
    await withSite(FILES, {}, async (s) => {
      const before = s.api.index;
      const changed = md({ title: "Guide, edited" }, `${LONG} cherry`);
      await writeFile(join(s.root, "docs/guide.md"), changed);
      await changedUnder(s, "/docs/guide.json");
      const { status, body } = await s.json("/docs/guide.json");
      assert.equal(status, 200);
      assert.equal(body.title, "Guide, edited");
      assert.equal(body.body, `${LONG} cherry`);
      assert.equal(body.checksum, sha256(changed));
      assert.notEqual(s.api.index, before);
      const feed = await s.json("/api/content.json");
      const guide = feed.body.data.find((i: { uri: string }) => i.uri === "guide");
      assert.equal(guide.checksum, sha256(changed));
    });
  });

  it("a file rewritten with the same size and modification time is still caught up with", async () => {
    await withSite(FILES, {}, async (s) => {
      const abs = join(s.root, "docs/guide.md");
      const { atime, mtime } = await stat(abs);
      // Found by the Markdown form, then by a feed with bodies: each a 503, then caught up.
      for (
        const [path, fruit] of [["/docs/guide.md", "grape"], [
          "/api/content.json?include=body",
          "melon",
        ]]
      ) {
        const changed = FILES["docs/guide.md"].replace("apple", fruit);
        assert.equal(changed.length, FILES["docs/guide.md"].length);
        await writeFile(abs, changed);
        await utimes(abs, atime, mtime);
        await changedUnder(s, path);
        const { status, body } = await s.json("/docs/guide.json");
        assert.equal(status, 200);
        assert.equal(body.body, `${LONG} ${fruit}`);
        assert.equal(body.checksum, sha256(changed));
      }
    });
  });

  it("a file removed before a re-index: a 503, then a 404 and the feed drops it", async () => {
    await withSite(FILES, {}, async (s) => {
      await rm(join(s.root, "docs/guide.md"));
      await changedUnder(s, "/docs/guide.json");
      const { status, headers } = await s.json("/docs/guide.json");
      assert.equal(status, 404);
      assert.equal(headers.get("content-type"), "application/problem+json");
      const feed = await s.json("/api/content.json");
      assert.deepEqual(feed.body.data.map((i: { uri: string }) => i.uri), ["other"]);
    });
  });

  it("a file changed before a re-index: search never uses its new body with the old fields, and finds it once caught up", async () => {
    await withSite(FILES, {}, async (s) => {
      await writeFile(join(s.root, "docs/guide.md"), md({ title: "Guide" }, `${LONG} cherry`));
      const first = await s.json("/api/content.json?search=cherry");
      assert.equal(first.status, 200);
      assert.deepEqual(first.body.data, []);
      // The search told the index to catch up with the file; a reload queues behind that.
      await s.api.reload();
      const again = await s.json("/api/content.json?search=cherry");
      assert.deepEqual(again.body.data.map((i: { uri: string }) => i.uri), ["guide"]);
      const gone = await s.json("/api/content.json?search=apple");
      assert.deepEqual(gone.body.data, []);
    });
  });

  it("search reads each body once per file version, across re-indexes", async () => {
    await withSite(FILES, {}, async (s) => {
      const reads: string[] = [];
      const textsOf = createSearchTexts((item) => {
        reads.push(item.file);
        return readBody(join(s.root, item.file), item.checksum);
      });
      const first = await textsOf(s.api.index);
      assert.deepEqual(reads.sort(), ["docs/guide.md", "docs/other.md"]);
      const filters = { page: 1, search: ["banana"] };
      assert.deepEqual(filterItems(s.api.index, filters, first).map((i) => i.uri), ["other"]);
      await textsOf(s.api.index);
      assert.equal(reads.length, 2);
      await writeFile(join(s.root, "docs/other.md"), md({ title: "Other" }, `${LONG} kiwi`));
      await s.api.reload();
      const next = await textsOf(s.api.index);
      assert.deepEqual(reads.slice(2), ["docs/other.md"]);
      assert.deepEqual(filterItems(s.api.index, filters, next), []);
      const kiwi = { page: 1, search: ["kiwi"] };
      assert.deepEqual(filterItems(s.api.index, kiwi, next).map((i) => i.uri), ["other"]);
      // By title or description, whatever the body.
      assert.equal(filterItems(s.api.index, { page: 1, search: ["guide"] }, next).length, 1);
    });
  });

  it("readBody gives nothing for another version of the file or a missing one", async () => {
    await withSite(FILES, {}, async (s) => {
      const abs = join(s.root, "docs/guide.md");
      const checksum = sha256(FILES["docs/guide.md"]);
      assert.equal(await readBody(abs, checksum), `${LONG} apple`);
      assert.equal(await readBody(abs, sha256("something else")), undefined);
      assert.equal(await readBody(join(s.root, "docs/none.md"), checksum), undefined);
    });
  });

  it("pure renderers refuse an item without its body rather than guess it", async () => {
    await withSite(FILES, {}, (s) => {
      const item: Item = s.api.index.feed[0];
      const form = formShape([]);
      assert.throws(() => itemJson(item, "https://example.com", form), TypeError);
      assert.throws(() => filterItems(s.api.index, { page: 1, search: ["apple"] }), TypeError);
      assert.match(
        itemJson(item, "https://example.com", form, { body: "Given." }),
        /"body":"Given\./,
      );
      return Promise.resolve();
    });
  });
});
