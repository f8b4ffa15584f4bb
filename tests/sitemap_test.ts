// End-to-end tests of GET /sitemap.xml (SPEC 8, first bullet) over real files in temp folders.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  configFor as config,
  LONG,
  md,
  type SiteFiles,
  type TestSite,
  withSite,
} from "./helpers.ts";

const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

/** Decodes the five XML entities and numeric character references. */
function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, name: string) => {
    if (name.startsWith("#x")) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[name]!;
  });
}

interface Entry {
  loc: string;
  lastmod: string;
}

/**
 * Checks that `xml` is a sitemaps.org urlset whose every child is a `url`
 * with exactly `loc` and `lastmod`, and returns the entries in order.
 */
function parseSitemap(xml: string): Entry[] {
  // No bare "&": every ampersand starts an entity.
  const bare = /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.exec(xml);
  assert.equal(bare, null, `unescaped & in ${xml}`);
  const rest = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/, "");
  const root = /^<urlset\s+xmlns="([^"]*)"\s*>([\s\S]*)<\/urlset>\s*$/.exec(rest);
  assert.ok(root, `a urlset root: ${xml}`);
  assert.equal(root[1], NS);
  const entries: Entry[] = [];
  const url = /\s*<url>\s*<loc>([^<]*)<\/loc>\s*<lastmod>([^<]*)<\/lastmod>\s*<\/url>/y;
  let at = 0;
  const inner = root[2];
  while (at < inner.length) {
    url.lastIndex = at;
    const m = url.exec(inner);
    if (!m) {
      assert.match(inner.slice(at), /^\s*$/, "only url elements in the urlset");
      break;
    }
    entries.push({ loc: unescapeXml(m[1]), lastmod: m[2] });
    at = url.lastIndex;
  }
  return entries;
}

async function sitemap(s: TestSite, path = "/sitemap.xml"): Promise<Entry[]> {
  const response = await s.request(path);
  const text = await response.text();
  assert.equal(response.status, 200, `GET ${path}: ${text}`);
  assert.match(
    response.headers.get("content-type") ?? "",
    /^(application|text)\/xml; charset=utf-8$/i,
  );
  return parseSitemap(text);
}

const day = (date: string, last_update: string) => ({ date, last_update });

const FILES: SiteFiles = {
  "academy/course.md": md({ title: "Course", ...day("2026-02-01", "2026-02-10") }, LONG),
  "academy/course/mod.md": md({ title: "Module", ...day("2026-02-01", "2026-02-11") }, LONG),
  "academy/course/mod/lesson.md": md({ title: "L", ...day("2026-02-01", "2026-02-12") }, LONG),
  "blog/old.md": md({ title: "Old", ...day("2025-01-01", "2025-06-30") }, LONG),
  "blog/new.md": md({ title: "New", ...day("2026-03-01", "2026-03-05") }, LONG),
  "docs/guide.md": md(
    { title: "Guide", sidebar_position: 1, ...day("2026-01-01", "2026-04-01") },
    LONG,
  ),
  "docs/guide/intro.md": md({ title: "Intro", ...day("2026-01-01", "2026-04-02") }, LONG),
  "docs/slugged.md": md({ slug: "Guía Rápida", ...day("2026-01-01", "2026-04-03") }, LONG),
  "faq/why.md": md({ title: "Why", ...day("2026-01-01", "2024-12-31") }, LONG),
  "pages/about.md": md({ title: "About", ...day("2026-01-01", "2026-01-01") }, LONG),
  // Served by the item route, or not at all, but never in the sitemap.
  "docs/short.md": md({ title: "Short", ...day("2026-01-01", "2026-01-01") }, "Short."),
  "docs/noindex.md": md({ indexable: false, ...day("2026-01-01", "2026-01-01") }, LONG),
  "docs/unlisted.md": md({ unlisted: true, ...day("2026-01-01", "2026-01-01") }, LONG),
  "docs/empty.md": md({ indexable: true, ...day("2026-01-01", "2026-01-01") }, ""),
  "docs/draft.md": md({ draft: true, indexable: true, ...day("2026-01-01", "2026-01-01") }, LONG),
  "docs/draft/child.md": md({ draft: false, ...day("2026-01-01", "2026-01-01") }, LONG),
  "docs/orphan/lost.md": md({ title: "Lost", ...day("2026-01-01", "2026-01-01") }, LONG),
};

/** The strict layout for docs (SPEC 3 `orphans: skip`): `docs/orphan/` is no content. */
const STRICT = {
  config: `parameters:
  service.content.config:
    url: https://example.com
    plugins:
      academy: ~
      blog: ~
      docs: { orphans: skip }
      faq: ~
      pages: ~
      api: ~
      sitemap: ~
`,
};

const EXPECTED: Entry[] = [
  { loc: "https://example.com/academy/course", lastmod: "2026-02-10" },
  { loc: "https://example.com/academy/course/mod", lastmod: "2026-02-11" },
  { loc: "https://example.com/academy/course/mod/lesson", lastmod: "2026-02-12" },
  { loc: "https://example.com/blog/new", lastmod: "2026-03-05" },
  { loc: "https://example.com/blog/old", lastmod: "2025-06-30" },
  { loc: "https://example.com/docs/guide", lastmod: "2026-04-01" },
  { loc: "https://example.com/docs/guide/intro", lastmod: "2026-04-02" },
  { loc: "https://example.com/docs/guia-rapida", lastmod: "2026-04-03" },
  { loc: "https://example.com/faq/why", lastmod: "2024-12-31" },
  { loc: "https://example.com/pages/about", lastmod: "2026-01-01" },
];

describe("GET /sitemap.xml (SPEC 8)", () => {
  it("lists every feed-eligible item in feed order with loc and lastmod", async () => {
    await withSite(FILES, STRICT, async (s) => {
      assert.deepEqual(await sitemap(s), EXPECTED);
    });
  });

  it("matches the feed: one url per feed item, loc = link without .json, lastmod = last_update", async () => {
    await withSite(FILES, STRICT, async (s) => {
      const feed = (await s.json("/api/content.json")).body;
      assert.equal(feed.data.length, EXPECTED.length);
      assert.deepEqual(
        await sitemap(s),
        // deno-lint-ignore no-explicit-any
        feed.data.map((item: any) => ({
          loc: item.link.replace(/\.json$/, ""),
          lastmod: item.last_update,
        })),
      );
    });
  });

  it("declares XML and the sitemaps.org namespace on the urlset root", async () => {
    await withSite(FILES, STRICT, async (s) => {
      const response = await s.request("/sitemap.xml");
      assert.equal(response.status, 200);
      assert.match(
        response.headers.get("content-type") ?? "",
        /^(application|text)\/xml; charset=utf-8$/i,
      );
      const text = await response.text();
      assert.match(text, /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*<urlset /);
      assert.match(text, new RegExp(`<urlset xmlns="${NS.replaceAll(".", "\\.")}">`));
      assert.equal(text.split("<url>").length - 1, EXPECTED.length);
      assert.ok(!text.includes(".json"), "no loc ends in .json");
    });
  });

  it("leaves drafts, their subtrees, non-indexable, empty and orphan items (orphans: skip) out", async () => {
    await withSite(FILES, STRICT, async (s) => {
      const locs = (await sitemap(s)).map((e) => e.loc);
      for (
        const path of [
          "short",
          "noindex",
          "unlisted",
          "empty",
          "draft",
          "draft/child",
          "orphan/lost",
          "lost",
        ]
      ) {
        assert.ok(!locs.includes(`https://example.com/docs/${path}`), path);
      }
      assert.equal(locs.length, EXPECTED.length);
    });
  });

  it("gives an empty urlset when no item is eligible", async () => {
    await withSite({ "docs/short.md": md({ title: "S" }, "tiny") }, {}, async (s) => {
      assert.deepEqual(await sitemap(s), []);
    });
  });

  it("follows the config's plugin order", async () => {
    const cfg = config(["pages", "faq", "docs", "sitemap"], "https://example.com")
      .replace("docs: ~", "docs: { orphans: skip }");
    await withSite(FILES, { config: cfg }, async (s) => {
      const locs = (await sitemap(s)).map((e) => e.loc);
      assert.deepEqual(locs, [
        "https://example.com/pages/about",
        "https://example.com/faq/why",
        "https://example.com/docs/guide",
        "https://example.com/docs/guide/intro",
        "https://example.com/docs/guia-rapida",
      ]);
    });
  });

  it("is a 404 when the sitemap plugin is not enabled", async () => {
    const cfg = config(["docs", "api"], "https://example.com");
    await withSite(FILES, { config: cfg }, async (s) => {
      const response = await s.request("/sitemap.xml");
      assert.equal(response.status, 404);
      assert.equal(response.headers.get("content-type"), "application/problem+json");
      assert.equal((await response.json()).status, 404);
      assert.equal((await s.request("/api/content.json")).status, 200);
    });
  });

  it("works without the api plugin", async () => {
    const cfg = config(["docs", "sitemap"], "https://example.com")
      .replace("docs: ~", "docs: { orphans: skip }");
    await withSite(FILES, { config: cfg }, async (s) => {
      assert.deepEqual(
        (await sitemap(s)).map((e) => e.loc),
        [
          "https://example.com/docs/guide",
          "https://example.com/docs/guide/intro",
          "https://example.com/docs/guia-rapida",
        ],
      );
      assert.equal((await s.request("/api/content.json")).status, 404);
    });
  });

  it("uses BASE_URL, else the request's origin, when the config has no url", async () => {
    const cfg = config(["faq", "sitemap"]);
    const files = { "faq/why.md": FILES["faq/why.md"] };
    await withSite(files, { config: cfg, baseUrl: "https://cdn.example.org/" }, async (s) => {
      assert.deepEqual(await sitemap(s), [
        { loc: "https://cdn.example.org/faq/why", lastmod: "2024-12-31" },
      ]);
    });
    await withSite(files, { config: cfg }, async (s) => {
      assert.deepEqual(await sitemap(s), [
        { loc: "http://localhost:8000/faq/why", lastmod: "2024-12-31" },
      ]);
      const response = await s.api.fetch(new Request("https://other.example.net/sitemap.xml"));
      assert.equal(response.status, 200);
      assert.deepEqual(parseSitemap(await response.text()), [
        { loc: "https://other.example.net/faq/why", lastmod: "2024-12-31" },
      ]);
    });
  });

  it("serves under the config url's path and escapes it for XML", async () => {
    const cfg = config(["faq", "sitemap"], "https://example.com/a&b/");
    await withSite({ "faq/why.md": FILES["faq/why.md"] }, { config: cfg }, async (s) => {
      const response = await s.request("/a&b/sitemap.xml");
      assert.equal(response.status, 200);
      const text = await response.text();
      assert.ok(!text.includes("/a&b/"), `the & is escaped: ${text}`);
      assert.deepEqual(parseSitemap(text), [
        { loc: "https://example.com/a&b/faq/why", lastmod: "2024-12-31" },
      ]);
    });
  });
});
