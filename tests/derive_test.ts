// SPEC 4: deriving an item's fields from its file, end to end through fetch(Request).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { utimes } from "node:fs/promises";
import { join } from "node:path";
import { createContentApi } from "../mod.ts";
import { deriveFields } from "../src/fields/derive.ts";
import {
  LONG,
  md,
  memoryLogger,
  removeSite,
  sha256,
  type SiteFiles,
  type TestSite,
  withSite as withSiteOptions,
  writeSite,
} from "./helpers.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** Runs `fn` on a site made of `files` and always removes it. */
function withSite(files: SiteFiles, fn: (s: TestSite) => Promise<void>): Promise<void> {
  return withSiteOptions(files, {}, fn);
}

/**
 * Like {@link withSite}, but sets the modification time of some files before
 * the content is first loaded (the default services.yaml: every plugin).
 */
async function withTimedSite(
  files: SiteFiles,
  mtimes: Record<string, number>,
  fn: (s: { get(path: string): Promise<Json>; warnings(): string[] }) => Promise<void>,
): Promise<void> {
  const root = await writeSite({
    "services.yaml": `parameters:
  service.content.config:
    url: https://example.com
    plugins: { academy: ~, blog: ~, docs: ~, faq: ~, pages: ~, api: ~ }
`,
    ...files,
  });
  try {
    for (const [path, ms] of Object.entries(mtimes)) {
      await utimes(join(root, path), new Date(ms), new Date(ms));
    }
    const log = memoryLogger();
    const api = await createContentApi({
      config: join(root, "services.yaml"),
      logger: log,
      now: () => Date.UTC(2026, 10, 21, 9, 15, 2),
    });
    await fn({
      async get(path) {
        const response = await api.fetch(new Request(`http://localhost:8000${path}`));
        assert.equal(response.status, 200, path);
        return await response.json();
      },
      warnings: () => log.warnings(),
    });
  } finally {
    await removeSite(root);
  }
}

/** GETs a path, asserts 200 and returns the parsed body. */
async function get(s: TestSite, path: string): Promise<Json> {
  const { status, body } = await s.json(path);
  assert.equal(status, 200, path);
  return body;
}

/** The feed's items by `type/uri`. */
async function feedMap(s: TestSite, query = ""): Promise<Record<string, Json>> {
  const body = await get(s, `/api/content.json${query}`);
  return Object.fromEntries(body.data.map((i: Json) => [`${i.type}/${i.uri}`, i]));
}

/** The feed's `type/uri` list. */
async function feedPaths(s: TestSite, query = ""): Promise<string[]> {
  return (await get(s, `/api/content.json${query}`)).data.map((i: Json) => `${i.type}/${i.uri}`);
}

/** The warnings that mention a file. */
/** Docs files with one wrong-typed front matter line each (the first entry of every value), dated and long enough. */
function wrongTyped(files: Record<string, readonly unknown[]>): SiteFiles {
  return Object.fromEntries(
    Object.entries(files).map(([path, [yaml]]) => [path, md(`${yaml}\ndate: 2026-01-01`, LONG)]),
  );
}

function warningsAbout(s: TestSite, file: string): string[] {
  return s.log.warnings().filter((w) => w.includes(file));
}

describe("SPEC 4: slug, uri, id, link", () => {
  it("takes the slug from front matter or the file name, both slugified", async () => {
    await withSite({
      "docs/My File.md": md({ date: "2026-01-01" }, LONG),
      "docs/other.md": md({ slug: "Guía Rápida", date: "2026-01-01" }, LONG),
      "docs/C# & .NET.md": md({ date: "2026-01-01" }, LONG),
      "docs/Parent Dir.md": md({ date: "2026-01-01" }, LONG),
      "docs/Parent Dir/Child Name.md": md({ date: "2026-01-01" }, LONG),
      "docs/guide.md": md({ slug: "Hand Book", date: "2026-01-01" }, LONG),
      "docs/guide/intro.md": md({ slug: "Start @ Home", date: "2026-01-01" }, LONG),
    }, async (s) => {
      const items = await feedMap(s);
      assert.deepEqual(Object.keys(items).sort(), [
        "docs/c-and-net",
        "docs/guia-rapida",
        "docs/hand-book",
        "docs/hand-book/start-at-home",
        "docs/my-file",
        "docs/parent-dir",
        "docs/parent-dir/child-name",
      ]);
      const child = items["docs/parent-dir/child-name"];
      assert.equal(child.id, "docs_doc_parent-dir_child-name");
      assert.equal(child.link, "https://example.com/docs/parent-dir/child-name.json");
      assert.equal(child.title, "Child Name");
      const intro = items["docs/hand-book/start-at-home"];
      assert.equal(intro.id, "docs_doc_hand-book_start-at-home");
      assert.equal(intro.link, "https://example.com/docs/hand-book/start-at-home.json");
      const detail = await get(s, "/docs/hand-book/start-at-home.json");
      assert.equal(detail.id, "docs_doc_hand-book_start-at-home");
      assert.equal(detail.parent, "docs_doc_hand-book");
      assert.equal((await s.request("/docs/guide/intro.json")).status, 404);
      assert.deepEqual(s.log.warnings(), []);
    });
  });

  it("builds id and link from type, category and uri in every plugin", async () => {
    await withSite({
      "academy/Intro Course.md": md({ date: "2026-01-01" }, LONG),
      "academy/Intro Course/Basics.md": md({ date: "2026-01-01" }, LONG),
      "academy/Intro Course/Basics/First Steps.md": md({ date: "2026-01-01" }, LONG),
      "faq/How do I pay?.md": md({ date: "2026-01-01" }, LONG),
    }, async (s) => {
      const data = (await get(s, "/api/content.json")).data;
      assert.deepEqual(data.map((i: Json) => [i.id, i.uri, i.link]), [
        [
          "academy_course_intro-course",
          "intro-course",
          "https://example.com/academy/intro-course.json",
        ],
        [
          "academy_module_intro-course_basics",
          "intro-course/basics",
          "https://example.com/academy/intro-course/basics.json",
        ],
        [
          "academy_lesson_intro-course_basics_first-steps",
          "intro-course/basics/first-steps",
          "https://example.com/academy/intro-course/basics/first-steps.json",
        ],
        ["faq_question_how-do-i-pay", "how-do-i-pay", "https://example.com/faq/how-do-i-pay.json"],
      ]);
    });
  });
});

describe("SPEC 4: checksum", () => {
  it("is the SHA-256 hex of the file's raw bytes", async () => {
    const text = md({ title: "Hashed", date: "2026-01-01" }, `${LONG}\n\nÜnïcode tail.\n`);
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    await withSite({ "docs/text.md": text, "docs/bom.md": bytes }, async (s) => {
      const items = await feedMap(s);
      assert.equal(items["docs/text"].checksum, sha256(text));
      assert.equal(items["docs/bom"].checksum, sha256(bytes));
      assert.notEqual(sha256(text), sha256(bytes));
      assert.match(items["docs/text"].checksum, /^[0-9a-f]{64}$/);
      assert.equal((await get(s, "/docs/bom.json")).checksum, sha256(bytes));
    });
  });

  it('matches the published SHA-256 test vector (FIPS 180-2, "abc")', async () => {
    await withSite({ "docs/abc.md": "abc" }, (s) => {
      assert.equal(
        s.api.index.byPath.get("docs/abc")!.checksum,
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      );
      return Promise.resolve();
    });
  });
});

describe("SPEC 4: title and description", () => {
  it("falls back to the file name without extension for the title", async () => {
    await withSite({
      "docs/with-title.md": md({ title: "Given Title", date: "2026-01-01" }, LONG),
      "docs/Release Notes v2.markdown": md({ date: "2026-01-01" }, LONG),
      "docs/plain.md": LONG,
      "pages/about.us.html": md({ date: "2026-01-01" }, LONG),
    }, async (s) => {
      const items = await feedMap(s);
      assert.equal(items["docs/with-title"].title, "Given Title");
      assert.equal(items["docs/release-notes-v2"].title, "Release Notes v2");
      assert.equal(items["docs/plain"].title, "plain");
      assert.equal(items["pages/about-us"].title, "about.us");
    });
  });

  it("uses description, else summary, else the first prose paragraph", async () => {
    await withSite({
      "docs/both.md": md({ description: "The description", summary: "The summary" }, LONG),
      "docs/summary.md": md({ summary: "Only a summary" }, LONG),
      "docs/preview.md": md(
        undefined,
        "# Getting started\n- one item\n* star item\n1. first step\nplain line\n\n" +
          `Second paragraph. ${LONG}`,
      ),
      "docs/short.md": md(undefined, `Short first paragraph.\n\n${LONG}`),
    }, async (s) => {
      const items = await feedMap(s);
      assert.equal(items["docs/both"].description, "The description");
      assert.equal(items["docs/summary"].description, "Only a summary");
      // A heading is not prose (SPEC 4); each list (a new bullet starts a new one) is one
      // paragraph of plain text, so the first prose paragraph is the first list.
      assert.equal(items["docs/preview"].description, "one item");
      assert.equal(items["docs/short"].description, "Short first paragraph.");
    });
  });

  it("cuts the preview at the first space after 300 characters and appends ...", async () => {
    const long = Array(70).fill("abcd").join(" "); // 349 characters, spaces at 4, 9, …, 304
    const exact = `${"x".repeat(295)} abcd`; // exactly 300 characters
    await withSite({
      "docs/long.md": md(undefined, `${long}\n\nNext paragraph.`),
      "docs/exact.md": md(undefined, `${exact}\n\nNext paragraph.`),
    }, async (s) => {
      const items = await feedMap(s);
      assert.equal(items["docs/long"].description, `${Array(61).fill("abcd").join(" ")}...`);
      assert.equal(items["docs/exact"].description, exact);
    });
  });
});

describe("SPEC 4: image", () => {
  it("is null when absent or empty, absolute with the base URL when root-relative", async () => {
    await withSite({
      "docs/none.md": md(undefined, LONG),
      "docs/empty.md": md({ image: "" }, LONG),
      "docs/null.md": md("image: ~", LONG),
      "docs/root.md": md({ image: "/img/a.png" }, LONG),
      "docs/absolute.md": md({ image: "https://cdn.example.org/b.png" }, LONG),
    }, async (s) => {
      const items = await feedMap(s);
      assert.equal(items["docs/none"].image, null);
      assert.equal(items["docs/empty"].image, null);
      assert.equal(items["docs/null"].image, null);
      assert.equal(items["docs/root"].image, "https://example.com/img/a.png");
      assert.equal(items["docs/absolute"].image, "https://cdn.example.org/b.png");
      assert.equal((await get(s, "/docs/root.json")).image, "https://example.com/img/a.png");
      assert.equal((await get(s, "/docs/none.json")).image, null);
      assert.deepEqual(s.log.warnings(), []);
    });
  });
});

describe("SPEC 4: authors", () => {
  it("reads a string, a list of strings, a list of {name, slug}, author, or none", async () => {
    await withSite({
      "docs/string.md": md({ authors: "Ana Pérez" }, LONG),
      "docs/list.md": md({ authors: ["Ana Pérez", "Bob Smith"] }, LONG),
      "docs/objects.md": md({
        authors: [{ name: "Jōji Tanaka", slug: "joji" }, { name: "Li Wei" }],
      }, LONG),
      "docs/single.md": md({ author: "Solo Writer" }, LONG),
      "docs/none.md": md(undefined, LONG),
    }, async (s) => {
      const items = await feedMap(s);
      assert.deepEqual(items["docs/string"].authors, [{ name: "Ana Pérez", slug: "ana-perez" }]);
      assert.deepEqual(items["docs/list"].authors, [
        { name: "Ana Pérez", slug: "ana-perez" },
        { name: "Bob Smith", slug: "bob-smith" },
      ]);
      assert.deepEqual(items["docs/objects"].authors, [
        { name: "Jōji Tanaka", slug: "joji" },
        { name: "Li Wei", slug: "li-wei" },
      ]);
      assert.deepEqual(items["docs/single"].authors, [
        { name: "Solo Writer", slug: "solo-writer" },
      ]);
      assert.deepEqual(items["docs/none"].authors, [{ name: "Anonymous", slug: "anonymous" }]);
      assert.deepEqual(s.log.warnings(), []);
    });
  });
});

describe("SPEC 4: tags", () => {
  it("reads a string or a list, drops duplicates by slug", async () => {
    await withSite({
      "docs/one.md": md({ tags: "Deno" }, LONG),
      "docs/list.md": md({ tags: ["Deno", "deno", "Guía Rápida", "DENO!"] }, LONG),
      "docs/none.md": md(undefined, LONG),
    }, async (s) => {
      const items = await feedMap(s);
      assert.deepEqual(items["docs/one"].tags, [{ name: "Deno", slug: "deno", count: 2 }]);
      assert.deepEqual(items["docs/list"].tags, [
        { name: "Deno", slug: "deno", count: 2 },
        { name: "Guía Rápida", slug: "guia-rapida", count: 1 },
      ]);
      assert.deepEqual(items["docs/none"].tags, []);
    });
  });

  it("counts feed-eligible items site-wide, the same everywhere and under any filter", async () => {
    await withSite({
      "blog/a.md": md({ tags: ["Deno", "Web"], date: "2026-03-01" }, LONG),
      "docs/b.md": md({ tags: ["deno"], date: "2026-02-01" }, LONG),
      "faq/c.md": md({ tags: ["DENO"], date: "2026-01-01" }, LONG),
      // Not feed-eligible: none of these count.
      "faq/draft.md": md({ tags: ["Deno", "Web"], draft: true }, LONG),
      "faq/draft-indexable.md": md({ tags: ["Deno"], draft: true, indexable: true }, LONG),
      "pages/hidden.md": md({ tags: ["Deno", "Web"], indexable: false }, LONG),
      "pages/unlisted.md": md({ tags: ["Deno"], unlisted: true }, LONG),
      "docs/short.md": md({ tags: ["Deno"] }, "Too short to be indexable."),
      "docs/empty.md": md({ tags: ["Deno"], indexable: true }, ""),
    }, async (s) => {
      const deno = (item: Json) => item.tags.find((t: Json) => t.slug === "deno");
      const expectCounts = (items: Json[]) => {
        for (const item of items) {
          assert.deepEqual(deno(item), { name: deno(item).name, slug: "deno", count: 3 }, item.id);
        }
      };
      const all = (await get(s, "/api/content.json")).data;
      assert.deepEqual(all.map((i: Json) => i.id), ["blog_post_a", "docs_doc_b", "faq_question_c"]);
      expectCounts(all);
      assert.deepEqual(all[0].tags, [
        { name: "Deno", slug: "deno", count: 3 },
        { name: "Web", slug: "web", count: 1 },
      ]);
      for (
        const query of [
          "?type=docs",
          "?tag=web",
          "?tag=DENO",
          "?limit=1&page=2",
          "?limit=1&page=3",
          "?year=2026&month=1",
          "?search=indexable",
          "?author=anonymous&limit=2",
        ]
      ) {
        const data = (await get(s, `/api/content.json${query}`)).data;
        assert.equal(data.length > 0, true, query);
        expectCounts(data);
      }
      // Items that are served but not in the feed show the same count.
      for (const path of ["/pages/hidden.json", "/pages/unlisted.json", "/docs/short.json"]) {
        const item = await get(s, path);
        expectCounts([item]);
      }
      assert.deepEqual((await get(s, "/pages/hidden.json")).tags, [
        { name: "Deno", slug: "deno", count: 3 },
        { name: "Web", slug: "web", count: 1 },
      ]);
    });
  });
});

describe("SPEC 4: date and last_update", () => {
  const MTIME = Date.UTC(2024, 4, 6, 12, 0, 0);
  const OTHER = Date.UTC(2023, 10, 9, 23, 30, 0);

  it("takes date from date, created, a file-name prefix, or the modification time", async () => {
    await withTimedSite({
      "blog/date.md": md({ date: "2026-01-15" }, LONG),
      "blog/unquoted.md": md("date: 2025-07-04", LONG),
      "blog/created.md": md({ created: "2025-12-01" }, LONG),
      "blog/both.md": md({ date: "2025-03-03", created: "2025-04-04" }, LONG),
      "blog/2026-03-14-release.md": md(undefined, LONG),
      "blog/2026-03-15-dated.md": md({ date: "2026-05-05" }, LONG),
      "blog/iso.md": md({ date: "2026-04-01T23:30:00-02:00" }, LONG),
      "blog/iso-z.md": md({ date: "2026-04-01T23:30:00Z" }, LONG),
      "blog/unix.md": md("date: 1768435200", LONG),
      "blog/mtime.md": md(undefined, LONG),
      "blog/2026-13-01-bad-prefix.md": md(undefined, LONG),
    }, {
      "blog/date.md": OTHER,
      "blog/unquoted.md": OTHER,
      "blog/created.md": OTHER,
      "blog/both.md": OTHER,
      "blog/2026-03-14-release.md": OTHER,
      "blog/2026-03-15-dated.md": OTHER,
      "blog/iso.md": OTHER,
      "blog/iso-z.md": OTHER,
      "blog/unix.md": OTHER,
      "blog/mtime.md": MTIME,
      "blog/2026-13-01-bad-prefix.md": MTIME,
    }, async (s) => {
      const data = (await s.get("/api/content.json")).data;
      const dates = Object.fromEntries(data.map((i: Json) => [i.uri, [i.date, i.last_update]]));
      assert.deepEqual(dates, {
        "date": ["2026-01-15", "2023-11-09"],
        "unquoted": ["2025-07-04", "2023-11-09"],
        "created": ["2025-12-01", "2023-11-09"],
        "both": ["2025-03-03", "2023-11-09"],
        "2026-03-14-release": ["2026-03-14", "2023-11-09"],
        "2026-03-15-dated": ["2026-05-05", "2023-11-09"],
        "iso": ["2026-04-02", "2023-11-09"],
        "iso-z": ["2026-04-01", "2023-11-09"],
        "unix": ["2026-01-15", "2023-11-09"],
        "mtime": ["2024-05-06", "2024-05-06"],
        "2026-13-01-bad-prefix": ["2024-05-06", "2024-05-06"],
      });
      assert.deepEqual(s.warnings(), []);
    });
  });

  it("takes last_update from front matter, else the modification time", async () => {
    await withTimedSite({
      "docs/updated.md": md({ date: "2026-01-01", last_update: "2026-02-02" }, LONG),
      "docs/updated-unix.md": md("last_update: 1768435200", LONG),
      "docs/untouched.md": md({ date: "2026-01-01" }, LONG),
    }, {
      "docs/updated.md": MTIME,
      "docs/updated-unix.md": MTIME,
      "docs/untouched.md": MTIME,
    }, async (s) => {
      assert.equal((await s.get("/docs/updated.json")).last_update, "2026-02-02");
      assert.equal((await s.get("/docs/updated-unix.json")).last_update, "2026-01-15");
      const untouched = await s.get("/docs/untouched.json");
      assert.deepEqual([untouched.date, untouched.last_update], ["2026-01-01", "2024-05-06"]);
    });
  });

  it("falls back on an impossible date with a warning naming the file and key", async () => {
    await withTimedSite({
      "docs/feb.md": md({ title: "Kept", date: "2026-02-30" }, LONG),
      "docs/2026-03-14-prefixed.md": md({ date: "2026-02-30" }, LONG),
      "docs/updated.md": md({ date: "2026-01-01", last_update: "2026-02-30" }, LONG),
      "docs/words.md": md({ date: "yesterday" }, LONG),
    }, {
      "docs/feb.md": MTIME,
      "docs/2026-03-14-prefixed.md": MTIME,
      "docs/updated.md": MTIME,
      "docs/words.md": MTIME,
    }, async (s) => {
      const feb = await s.get("/docs/feb.json");
      assert.deepEqual([feb.title, feb.date, feb.last_update], [
        "Kept",
        "2024-05-06",
        "2024-05-06",
      ]);
      const prefixed = await s.get("/docs/2026-03-14-prefixed.json");
      assert.equal(prefixed.date, "2026-03-14");
      const updated = await s.get("/docs/updated.json");
      assert.deepEqual([updated.date, updated.last_update], ["2026-01-01", "2024-05-06"]);
      assert.equal((await s.get("/docs/words.json")).date, "2024-05-06");
      const feed = await s.get("/api/content.json");
      assert.equal(feed.meta.count, 4);
      const warnings = s.warnings();
      assert.equal(warnings.length, 4, warnings.join("\n"));
      for (
        const [file, key] of [
          ["docs/feb.md", /\bdate\b/],
          ["docs/2026-03-14-prefixed.md", /\bdate\b/],
          ["docs/updated.md", /\blast_update\b/],
          ["docs/words.md", /\bdate\b/],
        ] as const
      ) {
        const found = warnings.filter((w) => w.includes(file));
        assert.equal(found.length, 1, `${file}: ${warnings.join("\n")}`);
        assert.match(found[0], key);
      }
    });
  });
});

describe("SPEC 4: time", () => {
  const words = (n: number) => Array(n).fill("word").join(" ");

  it("uses front matter time, else max(1, ceil(words / 200)) without HTML tags", async () => {
    await withSite({
      "docs/given.md": md({ time: 7 }, LONG),
      "docs/zero.md": md({ time: 0 }, LONG),
      "docs/short.md": md(undefined, LONG),
      "docs/w200.md": md(undefined, words(200)),
      "docs/w201.md": md(undefined, words(201)),
      "docs/w401.md": md(undefined, words(401)),
      "docs/html.md": md(
        undefined,
        `<div class="one two three" data-four="five six"><p>${words(200)}</p></div><br/>`,
      ),
      "docs/unicode.md": md(undefined, Array(201).fill("Guía").join(" — ")),
    }, async (s) => {
      const items = await feedMap(s);
      const times = Object.fromEntries(Object.values(items).map((i: Json) => [i.uri, i.time]));
      assert.deepEqual(times, {
        given: 7,
        zero: 0,
        short: 1,
        w200: 1,
        w201: 2,
        w401: 3,
        html: 1,
        unicode: 2,
      });
    });
  });

  it("sums lessons into modules and modules into courses in academy", async () => {
    await withSite({
      "academy/course.md": md({ date: "2026-01-01" }, LONG),
      "academy/course/m1.md": md({ date: "2026-01-01" }, LONG),
      "academy/course/m1/l1.md": md({ time: 3 }, LONG),
      "academy/course/m1/l2.md": md(undefined, words(801)),
      "academy/course/m2.md": md({ date: "2026-01-01" }, words(1000)),
      "academy/course/m2/l3.md": md({ time: 6 }, LONG),
      "academy/solo.md": md({ date: "2026-01-01" }, words(450)),
    }, async (s) => {
      const items = await feedMap(s);
      assert.equal(items["academy/course/m1/l1"].time, 3);
      assert.equal(items["academy/course/m1/l2"].time, 5);
      assert.equal(items["academy/course/m1"].time, 8);
      assert.equal(items["academy/course/m2"].time, 6);
      assert.equal(items["academy/course"].time, 14);
      assert.equal(items["academy/solo"].time, 3);
      assert.equal((await get(s, "/academy/course.json")).time, 14);
    });
  });
});

describe("SPEC 4: draft, unlisted, deprecated, indexable, searchable", () => {
  it("derives indexable and searchable defaults and lets explicit booleans win", async () => {
    const exactly100 = "y".repeat(100);
    await withSite({
      "docs/plain.md": md(undefined, LONG),
      "docs/draft.md": md({ draft: true }, LONG),
      "docs/draft-forced.md": md({ draft: true, indexable: true, searchable: true }, LONG),
      "docs/unlisted.md": md({ unlisted: true }, LONG),
      "docs/unlisted-indexable.md": md({ unlisted: true, indexable: true }, LONG),
      "docs/deprecated.md": md({ deprecated: true }, LONG),
      "docs/deprecated-date.md": md({ deprecated: "2025-01-01" }, LONG),
      "docs/deprecated-forced.md": md(
        { deprecated: true, indexable: true, searchable: true },
        LONG,
      ),
      "docs/not-deprecated.md": md({ deprecated: false }, LONG),
      "docs/short.md": md(undefined, "y".repeat(99)),
      "docs/exactly100.md": md(undefined, `\n${exactly100}\n\n`),
      "docs/short-forced.md": md({ indexable: true }, "Short."),
      "docs/not-indexable.md": md({ indexable: false }, LONG),
      "docs/not-searchable.md": md({ searchable: false }, LONG),
      "docs/no-front-matter.md": LONG,
    }, async (s) => {
      assert.deepEqual((await feedPaths(s)).sort(), [
        "docs/deprecated-forced",
        "docs/exactly100",
        "docs/no-front-matter",
        "docs/not-deprecated",
        "docs/not-searchable",
        "docs/plain",
        "docs/short-forced",
        "docs/unlisted-indexable",
      ]);
      assert.deepEqual((await feedPaths(s, "?searchable=false")).sort(), [
        "docs/not-searchable",
        "docs/unlisted-indexable",
      ]);
      assert.deepEqual((await feedPaths(s, "?searchable=true")).sort(), [
        "docs/deprecated-forced",
        "docs/exactly100",
        "docs/no-front-matter",
        "docs/not-deprecated",
        "docs/plain",
        "docs/short-forced",
      ]);
      assert.deepEqual(await feedPaths(s, "?indexable=false"), []);
      // Drafts are never served; the others are, indexable or not.
      for (const path of ["/docs/draft.json", "/docs/draft-forced.json"]) {
        assert.equal((await s.request(path)).status, 404, path);
      }
      for (
        const path of [
          "/docs/unlisted.json",
          "/docs/deprecated.json",
          "/docs/deprecated-date.json",
          "/docs/short.json",
          "/docs/not-indexable.json",
        ]
      ) {
        assert.equal((await s.request(path)).status, 200, path);
      }
      assert.deepEqual(s.log.warnings(), []);
    });
  });
});

describe("SPEC 4: front matter syntax", () => {
  it("parses a file with a UTF-8 BOM and CRLF line endings", async () => {
    const text = "\uFEFF---\r\ntitle: Windows File\r\ntags: [Alpha, Beta]\r\n" +
      "description: Written on Windows\r\n---\r\n\r\n" + LONG + "\r\n";
    const bytes = new TextEncoder().encode(text);
    await withSite({ "docs/crlf.md": bytes }, async (s) => {
      const item = await get(s, "/docs/crlf.json");
      assert.equal(item.title, "Windows File");
      assert.equal(item.description, "Written on Windows");
      assert.deepEqual(item.tags, [
        { name: "Alpha", slug: "alpha", count: 1 },
        { name: "Beta", slug: "beta", count: 1 },
      ]);
      assert.equal(item.body, LONG);
      assert.equal(item.checksum, sha256(bytes));
      assert.deepEqual(await feedPaths(s), ["docs/crlf"]);
      assert.deepEqual(s.log.warnings(), []);
    });
  });

  it("reads a file without front matter as an empty map", async () => {
    await withSite({ "docs/bare.md": `# Bare heading\n\n${LONG}` }, async (s) => {
      const item = await get(s, "/docs/bare.json");
      // The title is the first level-1 heading; the description the first prose paragraph.
      assert.equal(item.title, "Bare heading");
      assert.equal(item.description, LONG);
      assert.deepEqual(item.authors, [{ name: "Anonymous", slug: "anonymous" }]);
      assert.deepEqual(item.tags, []);
      assert.equal(item.image, null);
      assert.equal(item.body, `# Bare heading\n\n${LONG}`);
    });
  });

  it("reads an empty front-matter block as an empty map", async () => {
    await withSite({
      "docs/empty.md": `---\n---\n${LONG}`,
      "docs/blank.md": `---\n\n---\n${LONG}`,
      "docs/comment.md": `---\n# nothing here yet\n---\n${LONG}`,
    }, async (s) => {
      assert.deepEqual((await feedPaths(s)).sort(), ["docs/blank", "docs/comment", "docs/empty"]);
      for (const name of ["empty", "blank", "comment"]) {
        const item = await get(s, `/docs/${name}.json`);
        assert.equal(item.title, name);
        assert.equal(item.body, LONG);
        assert.deepEqual(item.authors, [{ name: "Anonymous", slug: "anonymous" }]);
      }
      assert.deepEqual(s.log.warnings(), []);
    });
  });

  it("keeps an item whose values have the wrong type, with a warning per file and key", async () => {
    const files: Record<string, [string, string, RegExp]> = {
      "docs/w-title.md": ["title: [1]", "title", /\btitle\b/],
      "docs/w-tags.md": ["tags: { a: 1 }", "tags", /\btags\b/],
      "docs/w-authors.md": ["authors: 42", "authors", /\bauthors\b/],
      "docs/w-negative.md": ["time: -1", "time", /\btime\b/],
      "docs/w-text.md": ['time: "x"', "time", /\btime\b/],
      "docs/w-fraction.md": ["time: 2.5", "time", /\btime\b/],
    };
    await withSite(
      wrongTyped(files),
      async (s) => {
        const items = await feedMap(s);
        assert.deepEqual(Object.keys(items).sort(), [
          "docs/w-authors",
          "docs/w-fraction",
          "docs/w-negative",
          "docs/w-tags",
          "docs/w-text",
          "docs/w-title",
        ]);
        assert.equal(items["docs/w-title"].title, "w-title");
        assert.deepEqual(items["docs/w-tags"].tags, []);
        assert.deepEqual(items["docs/w-authors"].authors, [{
          name: "Anonymous",
          slug: "anonymous",
        }]);
        assert.equal(items["docs/w-negative"].time, 1);
        assert.equal(items["docs/w-text"].time, 1);
        assert.equal(items["docs/w-fraction"].time, 1);
        assert.equal(
          s.log.warnings().length,
          Object.keys(files).length,
          s.log.warnings().join("\n"),
        );
        for (const [file, [, , key]] of Object.entries(files)) {
          const found = warningsAbout(s, file);
          assert.equal(found.length, 1, `${file}: ${s.log.warnings().join("\n")}`);
          assert.match(found[0], key);
        }
      },
    );
  });

  it("falls back on other wrong-typed keys too, with a warning per file and key", async () => {
    const files: Record<string, [string, RegExp]> = {
      // A list, not a scalar: a scalar is its text (SPEC 16.4, tested below).
      "docs/v-description.md": ["description: [42]", /\bdescription\b/],
      "docs/v-image.md": ["image: [1]", /\bimage\b/],
      "docs/v-slug.md": ["slug: { a: 1 }", /\bslug\b/],
      "docs/v-indexable.md": ['indexable: "no"', /\bindexable\b/],
      "docs/v-searchable.md": ["searchable: 0", /\bsearchable\b/],
      "docs/v-deprecated.md": ['deprecated: "soon"', /\bdeprecated\b/],
    };
    await withSite(
      wrongTyped(files),
      async (s) => {
        const items = await feedMap(s);
        assert.deepEqual(Object.keys(items).sort(), [
          "docs/v-deprecated",
          "docs/v-description",
          "docs/v-image",
          "docs/v-indexable",
          "docs/v-searchable",
          "docs/v-slug",
        ]);
        assert.equal(items["docs/v-description"].description, LONG);
        assert.equal(items["docs/v-image"].image, null);
        assert.equal(items["docs/v-slug"].id, "docs_doc_v-slug");
        assert.deepEqual(await feedPaths(s, "?searchable=false"), []);
        const warnings = s.log.warnings();
        assert.equal(warnings.length, Object.keys(files).length, warnings.join("\n"));
        for (const [file, [, key]] of Object.entries(files)) {
          const found = warningsAbout(s, file);
          assert.equal(found.length, 1, `${file}: ${warnings.join("\n")}`);
          assert.match(found[0], key);
        }
      },
    );
  });

  it("fails closed: a draft or unlisted value that is not a boolean counts as true, with a warning", async () => {
    const files: Record<string, [string, RegExp]> = {
      "docs/x-yes.md": ["draft: yes", /\bdraft\b/],
      "docs/x-quoted.md": ['draft: "true"', /\bdraft\b/],
      "docs/x-number.md": ["draft: 1", /\bdraft\b/],
      "docs/x-typo.md": ["draft: flase", /\bdraft\b/],
      "docs/x-unlisted.md": ['unlisted: "yes"', /\bunlisted\b/],
    };
    await withSite(
      { ...wrongTyped(files), "docs/x-published.md": md({ draft: false }, LONG) },
      async (s) => {
        assert.deepEqual(await feedPaths(s), ["docs/x-published"]);
        for (const name of ["x-yes", "x-quoted", "x-number", "x-typo"]) {
          assert.equal((await s.request(`/docs/${name}.json`)).status, 404, name);
        }
        // Unlisted: out of the feed, still served by its link (SPEC 7).
        assert.equal((await s.request("/docs/x-unlisted.json")).status, 200);
        const warnings = s.log.warnings();
        assert.equal(warnings.length, Object.keys(files).length, warnings.join("\n"));
        for (const [file, [, key]] of Object.entries(files)) {
          const found = warningsAbout(s, file);
          assert.equal(found.length, 1, `${file}: ${warnings.join("\n")}`);
          assert.match(found[0], key);
          assert.match(found[0], /\btrue\b/);
        }
      },
    );
  });

  it("leaves out only the item with invalid YAML, warning with the file and line", async () => {
    await withSite({
      "docs/broken.md": "---\ntitle: Broken\ndate: 2026-01-01\n  bad: indentation\n---\n" + LONG,
      "docs/unclosed.md": "---\ntitle: Fine\ntags: [a, b\n---\n" + LONG,
      "docs/good.md": md({ title: "Good" }, LONG),
    }, async (s) => {
      assert.deepEqual(await feedPaths(s), ["docs/good"]);
      assert.equal((await s.request("/docs/broken.json")).status, 404);
      assert.equal((await s.request("/docs/unclosed.json")).status, 404);
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 2, warnings.join("\n"));
      const broken = warningsAbout(s, "docs/broken.md");
      assert.equal(broken.length, 1, warnings.join("\n"));
      assert.match(broken[0], /\bline 4\b/);
      const unclosed = warningsAbout(s, "docs/unclosed.md");
      assert.equal(unclosed.length, 1, warnings.join("\n"));
      assert.match(unclosed[0], /\bline \d+\b/);
    });
  });
});

describe("what generators write in front matter (SPEC 3, 4)", () => {
  it("reads Hugo's TOML front matter (+++): fields, a draft, and an invalid block named with its line", async () => {
    await withSite({
      "docs/toml.md": '+++\ntitle = "From TOML"\ndate = 2024-01-02\nweight = 2\ntags = ["Hugo"]\n' +
        `[menu.main]\nparent = "x"\n+++\n\n${LONG}`,
      "docs/first.md": md({ title: "First", weight: 1, date: "2024-01-01" }, LONG),
      "docs/secret.md": `+++\ntitle = "Roadmap (internal)"\ndraft = true\n+++\n${LONG}`,
      "docs/broken.md": `+++\ntitle = "ok"\ndate = \n+++\n${LONG}`,
    }, async (s) => {
      const items = await feedMap(s);
      assert.deepEqual(Object.keys(items), ["docs/first", "docs/toml"]); // weight orders them
      const toml = items["docs/toml"];
      assert.deepEqual([toml.title, toml.date, toml.tags[0].name], [
        "From TOML",
        "2024-01-02",
        "Hugo",
      ]);
      assert.equal((await s.json("/docs/secret.json")).status, 404);
      assert.deepEqual(warningsAbout(s, "docs/broken.md").length, 1);
      assert.match(
        warningsAbout(s, "docs/broken.md")[0],
        /invalid TOML in front matter.*\(line 3\)/,
      );
    });
  });

  it("reads Hugo's JSON front matter, and leaves a body that only opens with a brace alone", async () => {
    await withSite({
      "docs/json.md":
        `{\n  "title": "From JSON",\n  "date": "2024-01-02",\n  "draft": false\n}\n\n${LONG}`,
      "docs/secret.md": `{ "title": "Hidden", "draft": true }\n${LONG}`,
      "docs/mdx.mdx": md({ title: "MDX", date: "2024-01-03" }, `{/* a comment */}\n\n${LONG}`),
    }, async (s) => {
      const items = await feedMap(s);
      assert.deepEqual(Object.keys(items).sort(), ["docs/json", "docs/mdx"]);
      assert.deepEqual([items["docs/json"].title, items["docs/json"].date], [
        "From JSON",
        "2024-01-02",
      ]);
      assert.equal(items["docs/json"].description, LONG);
    });
  });

  it("reads Jekyll's last_modified_at as the last update", async () => {
    await withSite({
      "docs/j.md": md({ date: "2024-01-01", last_modified_at: "2024-05-06 10:00:00 +0200" }, LONG),
    }, async (s) => {
      assert.equal((await feedMap(s))["docs/j"].last_update, "2024-05-06");
    });
  });

  it("gives an .html page the text of its first <p> and its <h1> as title", async () => {
    await withSite({
      "pages/team.html": md(
        { date: "2026-01-01" },
        '<h1>Our &amp; team</h1>\n<div class="hero"><img src="a.png"></div>\n' +
          "<p>Brass Lantern is three people\nand a dog &mdash; since 2019.</p>\n" +
          "<script>var x = '<p>no</p>';</script><p>Second.</p>",
      ),
    }, async (s) => {
      const page = (await feedMap(s))["pages/team"];
      assert.equal(page.title, "Our & team");
      assert.equal(page.description, "Brass Lantern is three people and a dog \u2014 since 2019.");
    });
  });

  it("falls back to the preview for an empty description, and trims a block description", async () => {
    await withSite({
      "docs/empty.md": md('description: ""\ndate: 2026-01-01', `First prose. ${LONG}`),
      "docs/block.md": md("description: |\n  Two lines\n  of text.\ndate: 2026-01-01", LONG),
    }, async (s) => {
      const items = await feedMap(s);
      assert.equal(items["docs/empty"].description, `First prose. ${LONG}`);
      assert.equal(items["docs/block"].description, "Two lines\nof text.");
    });
  });

  it("hides Jekyll's published: false, and fails closed on a value that is not a boolean", async () => {
    await withSite({
      "docs/shown.md": md({ published: true, date: "2026-01-01" }, LONG),
      "docs/hidden.md": md({ published: false, date: "2026-01-01" }, LONG),
      "docs/typo.md": md({ published: "no", date: "2026-01-01" }, LONG),
    }, async (s) => {
      assert.deepEqual(Object.keys(await feedMap(s)), ["docs/shown"]);
      assert.equal((await s.json("/docs/hidden.json")).status, 404);
      assert.equal((await s.json("/docs/typo.json")).status, 404);
      assert.match(warningsAbout(s, "docs/typo.md").join("\n"), /'published'/);
    });
  });

  it("orders by Starlight's sidebar.order; reads lastUpdated and Docusaurus's last_update.date", async () => {
    await withSite({
      "docs/b.md": md("sidebar:\n  order: 1\nlastUpdated: 2025-02-03\ndate: 2020-01-01", LONG),
      "docs/a.md": md("sidebar:\n  order: 2\nlast_update:\n  date: 2025-04-05\n  author: x", LONG),
      "docs/c.md": md("lastUpdated: true\ndate: 2026-01-01", LONG),
    }, async (s) => {
      const items = await feedMap(s);
      assert.deepEqual(Object.keys(items), ["docs/b", "docs/a", "docs/c"]);
      assert.equal(items["docs/b"].last_update, "2025-02-03");
      assert.equal(items["docs/a"].last_update, "2025-04-05");
      assert.deepEqual(s.log.warnings(), []); // lastUpdated: true means "from git": no warning
    });
  });

  it("takes a modification time in whole milliseconds, as every runtime reports it", () => {
    const warnings: { file: string; message: string }[] = [];
    const at = Date.UTC(2026, 0, 1) + 0.9;
    const fields = deriveFields(
      {
        plugin: "docs",
        path: "a.md",
        checksum: "",
        mtime: at,
        attrs: {},
        body: "x",
      },
      "docs/a.md",
      warnings,
    );
    assert.equal(fields.dateMs, Date.UTC(2026, 0, 1));
  });
});
