// The feed's bytes (SPEC 6): the full feed is written once per index and base
// URL straight into one buffer, and every other page is copied out of it by
// byte ranges. These tests pin that the bytes are exactly the JSON of the
// items, whatever their characters, and whatever the buffer's first guess.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { buildIndex, type Index, type Item, type ParsedFile } from "../mod.ts";
import { FEED_KEYS, LONG } from "./helpers.ts";
import { filterItems, type Page, paginate } from "../src/feed/filter.ts";
import { feedBytes, renderFullFeed, seedBytesOf } from "../src/feed/feed_bytes.ts";
import { itemJson } from "../src/feed/item_json.ts";
import { renderWithBodies } from "../src/feed/with_bodies.ts";
import type { ItemField } from "../src/index/item_fields.ts";
import { shapeOf } from "../src/index/shape.ts";

const SETTINGS = {
  title: undefined,
  url: undefined,
  api: true,
  sitemap: false,
  plugins: [{ name: "docs", path: "docs" }, { name: "blog", path: "blog" }],
};

/** A docs page (or blog post) in a fixed sidebar place, with extra front matter. */
function file(
  plugin: string,
  name: string,
  place: number,
  attrs: Record<string, unknown> = {},
): ParsedFile {
  return {
    plugin,
    path: `${name}.md`,
    checksum: `c${place}`,
    mtime: 0,
    attrs: { title: name, sidebar_position: place, date: "2026-01-02", ...attrs },
    body: LONG,
  };
}

/** The feed document as the seed spells it, made the slow and obvious way. */
function expected(index: Index, items: readonly Item[], total: number, base: string): string {
  const data = items.map((item) => {
    const image = item.image?.startsWith("/") && !item.image.startsWith("//")
      ? base + item.image
      : item.image;
    const object = {
      id: item.id,
      checksum: item.checksum,
      type: item.type,
      category: item.category,
      uri: item.uri,
      link: `${base}/${item.type}/${item.uri}.json`,
      image,
      title: item.title,
      description: item.description,
      authors: item.authors.map(({ name, slug }) => ({ name, slug })),
      tags: item.tags.map(({ name, slug, count }) => ({ name, slug, count })),
      date: item.date,
      last_update: item.last_update,
      time: item.time,
    };
    assert.deepEqual(Object.keys(object), FEED_KEYS);
    return JSON.stringify(object);
  });
  return JSON.stringify({
    meta: { count: items.length, total, url: `${base}/`, generated: index.generated },
    data: "@",
  }).replace('"@"', `[${data.join(",")}]`);
}

const decode = (bytes: Uint8Array) => new TextDecoder("utf-8", { fatal: true }).decode(bytes);
/** The feed document of a page, as text. */
const renderFeed = (index: Index, page: Page, base: string) => decode(feedBytes(index, page, base));

/** Every kind of character a JSON string can hold: escapes, multi-byte, pairs, lone halves. */
const AWKWARD = [
  'quote " backslash \\ tab \t newline \n nul \0 bell \x07',
  "é ß ñ — “curly” ‘single’ € ☃",
  "日本語の文章とカタカナ",
  "emoji 😀 and 👩‍💻 and flags 🇫🇷",
  "separators \u2028 \u2029 and lone \ud800 halves \udfff",
];

describe("feed bytes", () => {
  it("itemJson is JSON.stringify of the seed's fields, whatever the characters", () => {
    const files = AWKWARD.map((text, i) =>
      file("docs", `page-${i}`, i, {
        title: text,
        description: text,
        authors: [text, "Ann"],
        tags: [text, "Deno"],
        image: i % 2 ? `/img/${i}.png` : `https://cdn.example/${i}.png`,
      })
    );
    const index = buildIndex(files, SETTINGS, Date.UTC(2026, 0, 2));
    assert.equal(index.feed.length, AWKWARD.length);
    const all = paginate(filterItems(index, { page: 1 }), { page: 1 });
    const base = "https://example.com/sub";
    assert.equal(
      renderFeed(index, all, base),
      expected(index, index.feed, index.feed.length, base),
    );
    for (const item of index.feed) {
      const one = expected(index, [item], 1, base);
      assert.equal(itemJson(item, base), one.slice(one.indexOf("[") + 1, -2));
    }
  });

  it("every page is the byte ranges of its items, with their own meta", () => {
    const files: ParsedFile[] = [];
    for (let i = 0; i < 60; i++) {
      const text = AWKWARD[i % AWKWARD.length];
      files.push(file(i % 3 ? "docs" : "blog", `p${i}`, i, {
        title: `${i} ${i % 4 ? "plain" : text}`,
        tags: i % 2 ? ["odd", text] : ["even"],
      }));
    }
    const index = buildIndex(files, SETTINGS, Date.UTC(2026, 0, 2));
    const base = "http://localhost:8000";
    const pages = [
      { page: 1 },
      { type: "docs", page: 1 },
      { type: "blog", page: 1 },
      { tag: "odd", page: 1 },
      { tag: "even", limit: 7, page: 2 },
      { limit: 1, page: 1 },
      { limit: 1, page: index.feed.length },
      { limit: 25, page: 3 },
      { limit: 10, page: 99 },
      { type: "docs", tag: "even", limit: 3, page: 2 },
    ];
    for (const filters of pages) {
      const page = paginate(filterItems(index, filters), filters);
      const bytes = feedBytes(index, page, base);
      assert.equal(
        decode(bytes),
        expected(index, page.items, page.total, base),
        JSON.stringify(filters),
      );
    }
    // The full feed is one buffer, made once (the service keeps it) and served itself, not a copy.
    const all = paginate(filterItems(index, { page: 1 }), { page: 1 });
    const full = renderFullFeed(index, base);
    assert.equal(feedBytes(index, all, base, { full }), full.bytes);
    assert.equal(feedBytes(index, all, base, { full }), feedBytes(index, all, base, { full }));
    // Another base URL (a Host header) gets its own links.
    const other = decode(feedBytes(index, all, "https://other.example"));
    assert.equal(other, expected(index, index.feed, index.feed.length, "https://other.example"));
  });

  it("is right when the size guessed from a sample is far too small", () => {
    // The guess samples every third item of these 200; the big ones are never sampled.
    const files: ParsedFile[] = [];
    for (let i = 0; i < 200; i++) {
      const big = i % 3 === 1 && i < 30;
      files.push(file("docs", `p${String(i).padStart(3, "0")}`, i, {
        title: big ? "日本語😀".repeat(3000) : `page ${i}`,
      }));
    }
    const index = buildIndex(files, SETTINGS, Date.UTC(2026, 0, 2));
    assert.equal(index.feed.length, 200);
    assert.ok(index.feed[1].title.length > 10_000, "a big item is second in the feed");
    const base = "https://example.com";
    const all = paginate(filterItems(index, { page: 1 }), { page: 1 });
    assert.equal(decode(feedBytes(index, all, base)), expected(index, index.feed, 200, base));
    const page = paginate(filterItems(index, { limit: 5, page: 1 }), { limit: 5, page: 1 });
    assert.equal(
      decode(feedBytes(index, page, base)),
      expected(index, page.items, 200, base),
    );
  });

  it("is right for feeds of every size and mix of one- to four-byte characters", () => {
    // Small feeds sample every item, so the guess is tight and the last items land on the
    // buffer's end: every way a character's bytes can straddle it.
    const chars = ["a", "é", "日", "😀", " ", '"'];
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    for (let size = 1; size <= 70; size++) {
      const files: ParsedFile[] = [];
      for (let i = 0; i < size; i++) {
        let title = `t${i} `;
        for (let k = random(400); k > 0; k--) title += chars[random(chars.length)];
        files.push(file("docs", `p${String(i).padStart(3, "0")}`, i, { title }));
      }
      const index = buildIndex(files, SETTINGS, Date.UTC(2026, 0, 2));
      const all = paginate(filterItems(index, { page: 1 }), { page: 1 });
      const base = "https://example.com";
      assert.equal(
        decode(feedBytes(index, all, base)),
        expected(index, index.feed, size, base),
        `${size} items`,
      );
    }
  });

  it("items with bodies copy the seed's fields from the full feed, byte for byte", async () => {
    const files = AWKWARD.map((text, i) => ({
      ...file(i % 2 ? "docs" : "blog", `page-${i}`, i, {
        title: text,
        description: text,
        authors: [text, "Ann"],
        tags: [text, "Deno"],
        image: i % 2 ? `/img/${i}.png` : `https://cdn.example/${i}.png`,
      }),
      body: `# ${text}\n\n${text}`,
    }));
    const index = buildIndex(files, SETTINGS, Date.UTC(2026, 0, 2));
    const base = "https://example.com/sub";
    const seed = seedBytesOf(index, () => renderFullFeed(index, base));
    const encoder = new TextEncoder();
    const read = (items: readonly Item[]) =>
      Promise.resolve(
        new Map(items.map((item, i) => {
          const bytes = encoder.encode(`front matter\n${item.body!}`);
          // Every other item as a string, the others as bytes: both writers, either way.
          const extras = i % 2
            ? { body: item.body!, text: item.title }
            : { bodyBytes: [bytes, 13, bytes.length] as const, text: item.title };
          return [item, extras];
        })),
      );
    const seedFields = FEED_KEYS as ItemField[];
    const shapes: ItemField[][] = [
      [...seedFields, "body"],
      [...seedFields, "url", "body", "text"],
      ["id", "title", "body"], // not the seed's fields: nothing to copy
    ];
    for (const fields of shapes) {
      const items = [...index.feed].reverse(); // not in feed order: each item's own bytes
      const shape = shapeOf(fields);
      const copied = await renderWithBodies("[", items, "]", base, shape, read, seed);
      const written = await renderWithBodies("[", items, "]", base, shape, read);
      assert.equal(decode(copied!), decode(written!), fields.join());
      const parsed = JSON.parse(decode(copied!));
      assert.deepEqual(parsed.map((o: { body: string }) => o.body), items.map((i) => i.body));
    }
  });

  it("an empty feed is a document with no data", () => {
    const index = buildIndex([], SETTINGS, Date.UTC(2026, 0, 2));
    const all = paginate(filterItems(index, { page: 1 }), { page: 1 });
    assert.equal(
      renderFeed(index, all, "https://example.com"),
      expected(index, [], 0, "https://example.com"),
    );
  });
});

describe("JSON strings from UTF-8 bytes", () => {
  it("writes what JSON.stringify writes, for every kind of character (20,000 random texts)", async () => {
    const { jsonStringBytes } = await import("../src/util/json_bytes.ts");
    const chars = [
      "a",
      " ",
      '"',
      "\\",
      "/",
      "\n",
      "\r",
      "\t",
      "\b",
      "\f",
      "\u0000",
      "\u0001",
      "\u001f",
      "\u007f",
      "é",
      "日",
      "😀",
      "\u2028",
      "\u2029",
      "\ufeff",
    ];
    let seed = 5;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const encoder = new TextEncoder();
    for (let i = 0; i < 20_000; i++) {
      let text = "";
      for (let n = random(30); n > 0; n--) text += chars[random(chars.length)];
      const bytes = encoder.encode(`xx${text}yy`);
      assert.deepEqual(
        jsonStringBytes(bytes, 2, bytes.length - 2),
        encoder.encode(JSON.stringify(text)),
        JSON.stringify(text),
      );
    }
  });
});
