// End-to-end tests of GET /api/content.json (SPEC 2.1, 5, 6) over real files in temp folders.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  configFor as config,
  FEED_KEYS,
  LONG,
  md,
  sha256,
  type SiteFiles,
  type TestSite,
  withSite,
} from "./helpers.ts";

// deno-lint-ignore no-explicit-any
const ids = (body: any): string[] => body.data.map((item: { id: string }) => item.id);

/** GETs a feed URL, asserts 200 and JSON, and returns the body. */
// deno-lint-ignore no-explicit-any
async function feed(s: TestSite, query = ""): Promise<any> {
  const { status, body, headers } = await s.json(`/api/content.json${query}`);
  assert.equal(status, 200, `GET ?${query}: ${JSON.stringify(body)}`);
  assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
  return body;
}

/** Parses an RFC 8288 Link header into rel → absolute URL. */
function parseLinks(header: string | null): Record<string, string> {
  assert.ok(header !== null, "a Link header is expected");
  const links: Record<string, string> = {};
  for (const part of header.split(/,\s*(?=<)/)) {
    const m = /^<([^>]*)>\s*;\s*rel="([^"]+)"$/.exec(part.trim());
    assert.ok(m, `malformed link ${JSON.stringify(part)}`);
    assert.equal(links[m[2]], undefined, `rel=${m[2]} given twice`);
    links[m[2]] = m[1];
  }
  return links;
}

/** A URL as origin+path and its query sorted, so parameter order does not matter. */
function normalUrl(url: string): string {
  const u = new URL(url);
  const params = [...u.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${u.origin}${u.pathname}?${new URLSearchParams(params)}`;
}

function expectLinks(header: string | null, expected: Record<string, string>): void {
  const links = parseLinks(header);
  assert.deepEqual(Object.keys(links).sort(), Object.keys(expected).sort());
  for (const [rel, url] of Object.entries(links)) {
    assert.ok(/^https?:\/\//.test(url), `rel=${rel} is absolute: ${url}`);
    assert.equal(normalUrl(url), normalUrl(expected[rel]), `rel=${rel}`);
  }
}

/** A site with every content plugin and a spread of tags, authors, dates and flags. */
const FILES: SiteFiles = {
  "academy/rust.md": md({ title: "Rust course", date: "2026-02-01", tags: ["Rust"] }, LONG),
  "academy/rust/basics.md": md({ title: "Basics", date: "2026-02-03", tags: ["Rust"] }, LONG),
  "academy/rust/basics/ownership.md": md(
    { title: "Ownership", date: "2026-02-05", tags: ["Rust", "Guía"] },
    LONG,
  ),
  "blog/2025-12-31-old-post.md": md(
    { title: "Old post", tags: ["Deno", "Guía"], authors: ["Ana Pérez"] },
    LONG,
  ),
  "blog/hello.md": md(
    { title: "Hello Café", date: "2026-03-14", tags: "deno", author: "Bob Smith" },
    LONG,
  ),
  "docs/intro.md": md(
    {
      title: "Intro",
      date: "2026-03-02",
      tags: ["Guía", "Node"],
      authors: ["Ana Pérez", "Bob Smith"],
      description: "Setting up ÑANDÚ tooling",
    },
    `${LONG}\n\nA second paragraph mentions a Zebra.`,
  ),
  "docs/setup.md": md(
    { title: "Setup", date: "2026-01-15", searchable: false, tags: ["Node"] },
    LONG,
  ),
  "faq/why.md": md({ title: "Why rápida?", date: "2026-03-20", tags: ["FAQ"] }, LONG),
  "pages/about.md": md({ title: "About", date: "2024-07-04" }, LONG),
  // Not feed-eligible: their tags must not count.
  "docs/hidden.md": md(
    { title: "Hidden", date: "2026-03-03", indexable: false, tags: ["Deno"] },
    LONG,
  ),
  "blog/wip.md": md({ title: "WIP", date: "2026-03-05", draft: true, tags: ["Deno"] }, LONG),
  "faq/empty.md": md({ title: "Empty", date: "2026-03-05", indexable: true, tags: ["Deno"] }, ""),
};

const RUST = "academy_course_rust";
const BASICS = "academy_module_rust_basics";
const OWNERSHIP = "academy_lesson_rust_basics_ownership";
const HELLO = "blog_post_hello";
const OLD = "blog_post_2025-12-31-old-post";
const INTRO = "docs_doc_intro";
const SETUP = "docs_doc_setup";
const WHY = "faq_question_why";
const ABOUT = "pages_page_about";
const ALL = [RUST, BASICS, OWNERSHIP, HELLO, OLD, INTRO, SETUP, WHY, ABOUT];
const TAG_COUNTS: Record<string, number> = { rust: 3, guia: 3, deno: 2, node: 2, faq: 1 };

describe("feed eligibility (SPEC 5)", () => {
  it("keeps indexable non-empty non-draft items only", async () => {
    const same = { date: "2026-01-01", last_update: "2026-01-01" };
    await withSite(
      {
        "docs/ok.md": md({ title: "OK", ...same }, LONG),
        "docs/short.md": md({ title: "Short", ...same }, "Too short."),
        "docs/short-in.md": md({ title: "Short but in", indexable: true, ...same }, "Too short."),
        "docs/empty.md": md({ title: "Empty", indexable: true, ...same }, "  \n\n  "),
        "docs/no-front.md": LONG,
        "docs/noindex.md": md({ title: "No index", indexable: false, ...same }, LONG),
        "docs/unlisted.md": md({ title: "Unlisted", unlisted: true, ...same }, LONG),
        "docs/unlisted-in.md": md({
          title: "Unlisted in",
          unlisted: true,
          indexable: true,
          ...same,
        }, LONG),
        "docs/deprecated.md": md({ title: "Old", deprecated: "2025-01-01", ...same }, LONG),
        "docs/deprecated-flag.md": md({ title: "Old too", deprecated: true, ...same }, LONG),
        "docs/draft.md": md({ title: "Draft", draft: true, indexable: true, ...same }, LONG),
        "docs/draft/child.md": md({ title: "Child", draft: false, indexable: true, ...same }, LONG),
        "docs/draft/child/grand.md": md({ title: "Grand", ...same }, LONG),
      },
      {},
      async (s) => {
        const body = await feed(s);
        // docs/no-front.md has the file's mtime as its date: compare as a set, then the rest in order.
        assert.deepEqual([...ids(body)].sort(), [
          "docs_doc_no-front",
          "docs_doc_ok",
          "docs_doc_short-in",
          "docs_doc_unlisted-in",
        ]);
        assert.deepEqual(ids(body).filter((id: string) => id !== "docs_doc_no-front"), [
          "docs_doc_ok",
          "docs_doc_short-in",
          "docs_doc_unlisted-in",
        ]);
        assert.equal(body.meta.count, 4);
        assert.equal(body.meta.total, 4);
      },
    );
  });

  it("serves each item with exactly the seed's fields and values", async () => {
    const text = md({
      title: "Getting started",
      description: "How to start.",
      date: "2026-01-15",
      last_update: "2026-03-02",
      authors: [{ name: "Ana Pérez" }],
      tags: ["Deno", "Guía Rápida"],
    }, LONG);
    await withSite(
      { "docs/guide.md": md({ date: "2026-01-01" }, LONG), "docs/guide/getting-started.md": text },
      {},
      async (s) => {
        const body = await feed(s);
        assert.deepEqual(body.meta, {
          count: 2,
          total: 2,
          url: "https://example.com/",
          generated: "2026-11-21 09:15:02",
          cursor: s.api.cursor,
        });
        assert.deepEqual(body.data[1], {
          id: "docs_doc_guide_getting-started",
          checksum: sha256(text),
          type: "docs",
          category: "doc",
          uri: "guide/getting-started",
          link: "https://example.com/docs/guide/getting-started.json",
          image: null,
          title: "Getting started",
          description: "How to start.",
          authors: [{ name: "Ana Pérez", slug: "ana-perez" }],
          tags: [{ name: "Deno", slug: "deno", count: 1 }, {
            name: "Guía Rápida",
            slug: "guia-rapida",
            count: 1,
          }],
          date: "2026-01-15",
          last_update: "2026-03-02",
          time: 1,
        });
        assert.deepEqual(Object.keys(body.data[1]), FEED_KEYS);
      },
    );
  });

  it("treats an empty front-matter block as an empty map (SPEC 4), so the item is in", async () => {
    await withSite(
      {
        "docs/empty-block.md": `---\n---\n${LONG}`,
        "docs/blank-line.md": `---\n\n---\n${LONG}`,
        "docs/comment.md": `---\n# just a comment\n---\n${LONG}`,
      },
      {},
      async (s) => {
        const body = await feed(s);
        assert.deepEqual([...ids(body)].sort(), [
          "docs_doc_blank-line",
          "docs_doc_comment",
          "docs_doc_empty-block",
        ]);
        assert.deepEqual(s.log.warnings(), []);
      },
    );
  });

  it("gives an empty list with zero counts for a site with no eligible item", async () => {
    await withSite({ "docs/short.md": md({ title: "Short" }, "tiny") }, {}, async (s) => {
      assert.deepEqual(await feed(s), {
        meta: {
          count: 0,
          total: 0,
          url: "https://example.com/",
          generated: "2026-11-21 09:15:02",
          cursor: s.api.cursor,
        },
        data: [],
      });
    });
  });
});

describe("feed order (SPEC 5)", () => {
  it("lists plugins in config order, depth-first, siblings by position, date, path", async () => {
    const files: SiteFiles = {
      "pages/home.md": md({ date: "2026-01-01" }, LONG),
      "pages/about.md": md({ date: "2026-01-01" }, LONG),
      "blog/p.md": md({ date: "2026-01-01" }, LONG),
      "academy/not-enabled.md": md({ date: "2026-01-01" }, LONG),
      "docs/c.md": md({ sidebar_position: 2, date: "2026-01-01" }, LONG),
      "docs/c/y.md": md({ sidebar_position: 1, date: "2020-01-01" }, LONG),
      "docs/c/x.md": md({ date: "2026-05-01" }, LONG),
      "docs/c/w.md": md({ date: "2026-01-01" }, LONG),
      "docs/a.md": md({ order: 1, date: "2026-01-01" }, LONG),
      "docs/z.md": md({ sidebar_position: 1, date: "2026-02-01" }, LONG),
      "docs/zero.md": md({ sidebar_position: 0, date: "2020-01-01" }, LONG),
      "docs/half.md": md({ sidebar_position: 1.5, date: "2030-01-01" }, LONG),
      "docs/n1.md": md({ date: "2026-03-01" }, LONG),
      "docs/n2.md": md({ date: "2026-05-01" }, LONG),
      "docs/m3.md": md({ slug: "zzz", date: "2026-05-01" }, LONG),
    };
    const cfg = config(["pages", "docs", "blog", "api"], "https://example.com");
    await withSite(files, { config: cfg }, async (s) => {
      assert.deepEqual(ids(await feed(s)), [
        "pages_page_about",
        "pages_page_home",
        "docs_doc_zero",
        "docs_doc_z",
        "docs_doc_a",
        "docs_doc_half",
        "docs_doc_c",
        "docs_doc_c_y",
        "docs_doc_c_x",
        "docs_doc_c_w",
        "docs_doc_zzz",
        "docs_doc_n2",
        "docs_doc_n1",
        "blog_post_p",
      ]);
    });
  });

  it("orders the full fixture plugin by plugin, depth-first, newest first", async () => {
    await withSite(FILES, {}, async (s) => {
      assert.deepEqual(ids(await feed(s)), ALL);
    });
  });
});

describe("feed meta and base URL (SPEC 2.1, 6)", () => {
  it("uses the config url without its trailing slash", async () => {
    const cfg = config(["docs", "api"], "https://example.com/");
    await withSite(
      { "docs/intro.md": md({ title: "Intro" }, LONG) },
      { config: cfg },
      async (s) => {
        const body = await feed(s);
        assert.equal(body.meta.url, "https://example.com/");
        assert.equal(body.data[0].link, "https://example.com/docs/intro.json");
      },
    );
  });

  it("prefers the config url over the baseUrl option", async () => {
    const cfg = config(["docs", "api"], "https://example.com");
    await withSite(
      { "docs/intro.md": md({ title: "Intro" }, LONG) },
      { config: cfg, baseUrl: "https://cdn.example.org" },
      async (s) => {
        const body = await feed(s);
        assert.equal(body.meta.url, "https://example.com/");
        assert.equal(body.data[0].link, "https://example.com/docs/intro.json");
      },
    );
  });

  it("uses BASE_URL (the baseUrl option) when the config has no url", async () => {
    const cfg = config(["docs", "api"]);
    await withSite(
      { "docs/intro.md": md({ image: "/img/a.png" }, LONG) },
      { config: cfg, baseUrl: "https://cdn.example.org/" },
      async (s) => {
        const body = await feed(s);
        assert.equal(body.meta.url, "https://cdn.example.org/");
        assert.equal(body.data[0].link, "https://cdn.example.org/docs/intro.json");
        assert.equal(body.data[0].image, "https://cdn.example.org/img/a.png");
      },
    );
  });

  it("uses the request's origin when neither the config nor BASE_URL sets one", async () => {
    const cfg = config(["docs", "api"]);
    await withSite(
      { "docs/intro.md": md({ image: "/img/a.png" }, LONG) },
      { config: cfg },
      async (s) => {
        const local = await feed(s);
        assert.equal(local.meta.url, "http://localhost:8000/");
        assert.equal(local.data[0].link, "http://localhost:8000/docs/intro.json");
        assert.equal(local.data[0].image, "http://localhost:8000/img/a.png");

        const response = await s.api.fetch(
          new Request("https://feeds.example.net:8443/api/content.json?limit=1"),
        );
        assert.equal(response.status, 200);
        const other = await response.json();
        assert.equal(other.meta.url, "https://feeds.example.net:8443/");
        assert.equal(other.data[0].link, "https://feeds.example.net:8443/docs/intro.json");
        assert.equal(other.data[0].image, "https://feeds.example.net:8443/img/a.png");
        expectLinks(response.headers.get("link"), {
          first: "https://feeds.example.net:8443/api/content.json?limit=1&page=1",
          last: "https://feeds.example.net:8443/api/content.json?limit=1&page=1",
        });
      },
    );
  });

  it("serves every route under the config url's path", async () => {
    const cfg = config(["docs", "api"], "https://example.com/content/");
    await withSite(
      { "docs/intro.md": md({ title: "Intro" }, LONG) },
      { config: cfg },
      async (s) => {
        const { status, body, headers } = await s.json("/content/api/content.json?limit=1");
        assert.equal(status, 200);
        assert.equal(body.meta.url, "https://example.com/content/");
        assert.equal(body.data[0].link, "https://example.com/content/docs/intro.json");
        expectLinks(headers.get("link"), {
          first: "https://example.com/content/api/content.json?limit=1&page=1",
          last: "https://example.com/content/api/content.json?limit=1&page=1",
        });
      },
    );
  });

  it("routes a request whose prefix a host stripped, and 404s what is no route", async () => {
    // SPEC 2.1: hosts such as Hono's app.mount strip the mount path before
    // calling fetch, so a request without the prefix is routed as if it had it.
    const cfg = config(["docs", "api", "sitemap"], "https://example.com/content/");
    await withSite(
      { "docs/intro.md": md({ title: "Intro" }, LONG) },
      { config: cfg },
      async (s) => {
        for (const path of ["/api/content.json", "/content/api/content.json"]) {
          const { status, body } = await s.json(path);
          assert.equal(status, 200, path);
          assert.equal(body.data[0].link, "https://example.com/content/docs/intro.json", path);
        }
        for (const path of ["/docs/intro.json", "/sitemap.xml"]) {
          assert.equal((await s.request(path)).status, 200, path);
        }
        // The base path itself, and the root a host that strips it sees, are the index of routes.
        for (const path of ["/", "/content", "/content/"]) {
          const { status, body } = await s.json(path);
          assert.equal(status, 200, path);
          assert.equal(body.routes[1].url, "https://example.com/content/api/content.json", path);
        }
        for (const path of ["/content/nope", "/elsewhere/x", "/contentx"]) {
          const outside = await s.request(path);
          assert.ok(outside instanceof Response, `${path} gets a Response`);
          assert.equal(outside.status, 404, path);
          assert.equal(outside.headers.get("content-type"), "application/problem+json", path);
        }
      },
    );
  });

  it("counts the page, totals the matches, and prints the build time", async () => {
    await withSite(FILES, {}, async (s) => {
      const body = await feed(s, "?type=academy&limit=2");
      assert.deepEqual(body.meta, {
        count: 2,
        total: 3,
        url: "https://example.com/",
        generated: "2026-11-21 09:15:02",
        cursor: s.api.cursor,
      });
      assert.deepEqual(Object.keys(body), ["meta", "data"]);
      assert.deepEqual(Object.keys(body.meta), ["count", "total", "url", "generated", "cursor"]);
      assert.match(body.meta.cursor, /^[0-9a-f]{10}\.[0-9]+$/);
    });
  });
});

describe("feed filters (SPEC 6.1)", () => {
  const cases: [string, string[]][] = [
    ["", ALL],
    ["?type=blog", [HELLO, OLD]],
    ["?type=academy", [RUST, BASICS, OWNERSHIP]],
    ["?type=pages", [ABOUT]],
    ["?category=lesson", [OWNERSHIP]],
    ["?category=module", [BASICS]],
    ["?category=course", [RUST]],
    ["?category=post", [HELLO, OLD]],
    ["?category=question", [WHY]],
    ["?tag=Gu%C3%ADa", [OWNERSHIP, OLD, INTRO]],
    ["?tag=guia", [OWNERSHIP, OLD, INTRO]],
    ["?tag=GUIA", [OWNERSHIP, OLD, INTRO]],
    ["?tag=%20Gu%C3%ADa%20", [OWNERSHIP, OLD, INTRO]],
    ["?tag=deno", [HELLO, OLD]],
    ["?tag=nothing", []],
    ["?author=Ana%20P%C3%A9rez", [OLD, INTRO]],
    ["?author=ana-perez", [OLD, INTRO]],
    ["?author=BOB+SMITH", [HELLO, INTRO]],
    ["?author=anonymous", [RUST, BASICS, OWNERSHIP, SETUP, WHY, ABOUT]],
    ["?search=cafe", [HELLO]],
    ["?search=CAF%C3%89", [HELLO]],
    ["?search=nandu", [INTRO]],
    ["?search=%C3%B1and%C3%BA", [INTRO]],
    ["?search=zebra", [INTRO]],
    ["?search=ZEBRA+intro", [INTRO]],
    ["?search=zebra+hello", []],
    ["?search=R%C3%81PIDA", [WHY]],
    ["?search=enough%20%20cafe", [HELLO]],
    ["?search=long+enough", ALL],
    ["?year=2026", [RUST, BASICS, OWNERSHIP, HELLO, INTRO, SETUP, WHY]],
    ["?year=2025", [OLD]],
    ["?year=1999", []],
    ["?year=2024&month=7", [ABOUT]],
    ["?year=2024&month=07", [ABOUT]],
    ["?year=2026&month=3", [HELLO, INTRO, WHY]],
    ["?year=2026&month=03", [HELLO, INTRO, WHY]],
    ["?year=2026&month=2", [RUST, BASICS, OWNERSHIP]],
    ["?year=2026&month=12", []],
    ["?indexable=false", []],
    ["?indexable=0", []],
    ["?indexable=true", ALL],
    ["?indexable=1", ALL],
    ["?searchable=false", [SETUP]],
    ["?searchable=0", [SETUP]],
    ["?searchable=true", ALL.filter((id) => id !== SETUP)],
    ["?searchable=1", ALL.filter((id) => id !== SETUP)],
    ["?limit=2", [RUST, BASICS]],
    ["?limit=10000", ALL],
    ["?limit=3&page=2", [HELLO, OLD, INTRO]],
    ["?limit=3&page=1", [RUST, BASICS, OWNERSHIP]],
    // An empty value counts as absent.
    ["?type=&tag=&search=&year=&month=&limit=&page=&indexable=&searchable=", ALL],
    // Combinations.
    ["?type=docs&tag=node", [INTRO, SETUP]],
    ["?type=docs&tag=node&searchable=true", [INTRO]],
    ["?tag=guia&author=ana-perez", [OLD, INTRO]],
    ["?tag=guia&year=2026", [OWNERSHIP, INTRO]],
    ["?year=2026&month=3&type=blog", [HELLO]],
    ["?type=docs&category=post", []],
    ["?category=doc&author=bob-smith&search=zebra", [INTRO]],
    ["?search=long&type=academy&limit=2&page=2", [OWNERSHIP]],
    ["?tag=rust&indexable=true&searchable=1&year=2026&month=2&limit=1&page=3", [OWNERSHIP]],
  ];

  it("filters every parameter and combination exactly", async () => {
    await withSite(FILES, {}, async (s) => {
      for (const [query, expected] of cases) {
        const body = await feed(s, query);
        assert.deepEqual(ids(body), expected, `GET /api/content.json${query}`);
        assert.equal(body.meta.count, expected.length, `count of ${query}`);
      }
    });
  });

  it("totals the matches before paging", async () => {
    await withSite(FILES, {}, async (s) => {
      const totals: [string, number][] = [
        ["?limit=1", 9],
        ["?type=academy&limit=2&page=2", 3],
        ["?search=long&type=academy&limit=2&page=2", 3],
        ["?tag=rust&year=2026&month=2&limit=1&page=3", 3],
        ["?indexable=false", 0],
        ["?indexable=false&limit=5", 0],
      ];
      for (const [query, total] of totals) {
        assert.equal((await feed(s, query)).meta.total, total, query);
      }
    });
  });

  it("gives every tag the same site-wide count whatever the filters or page", async () => {
    await withSite(FILES, {}, async (s) => {
      const queries = ["", "?type=docs", "?tag=deno", "?limit=1&page=3", "?limit=4&page=2"];
      let seen = 0;
      for (const query of queries) {
        for (const item of (await feed(s, query)).data) {
          for (const tag of item.tags) {
            assert.equal(tag.count, TAG_COUNTS[tag.slug], `${tag.slug} in ${item.id} (${query})`);
            seen++;
          }
        }
      }
      assert.ok(seen >= 20, `saw ${seen} tags`);
      const hello = (await feed(s, "?tag=deno")).data[0];
      assert.deepEqual(hello.tags, [{ name: "deno", slug: "deno", count: 2 }]);
    });
  });
});

describe("feed paging (SPEC 6.1)", () => {
  const endpoint = "https://example.com/api/content.json";

  it("pages across plugins: the pages in order are the whole feed", async () => {
    await withSite(FILES, {}, async (s) => {
      for (let limit = 1; limit <= 10; limit++) {
        const pages = Math.ceil(ALL.length / limit);
        const all: string[] = [];
        for (let page = 1; page <= pages; page++) {
          const body = await feed(s, `?limit=${limit}&page=${page}`);
          const expected = ALL.slice((page - 1) * limit, page * limit);
          assert.deepEqual(ids(body), expected, `limit=${limit}&page=${page}`);
          assert.equal(body.meta.count, expected.length);
          assert.equal(body.meta.total, ALL.length);
          all.push(...ids(body));
        }
        assert.deepEqual(all, ALL, `limit=${limit}`);
      }
    });
  });

  it("crosses plugin boundaries within one page", async () => {
    await withSite(FILES, {}, async (s) => {
      assert.deepEqual(ids(await feed(s, "?limit=4&page=1")), [RUST, BASICS, OWNERSHIP, HELLO]);
      assert.deepEqual(ids(await feed(s, "?limit=4&page=2")), [OLD, INTRO, SETUP, WHY]);
      assert.deepEqual(ids(await feed(s, "?limit=4&page=3")), [ABOUT]);
    });
  });

  it("answers past the end with empty data and the total intact", async () => {
    await withSite(FILES, {}, async (s) => {
      const response = await s.request("/api/content.json?limit=4&page=4");
      assert.equal(response.status, 200);
      const body = await response.json();
      assert.deepEqual(body, {
        meta: {
          count: 0,
          total: 9,
          url: "https://example.com/",
          generated: "2026-11-21 09:15:02",
          cursor: s.api.cursor,
        },
        data: [],
      });
      const links = parseLinks(response.headers.get("link"));
      assert.equal(links.next, undefined);
      assert.equal(normalUrl(links.first), normalUrl(`${endpoint}?limit=4&page=1`));
      assert.equal(normalUrl(links.last), normalUrl(`${endpoint}?limit=4&page=3`));
      const far = await feed(s, "?limit=10000&page=999999");
      assert.deepEqual([far.meta.count, far.meta.total, far.data], [0, 9, []]);
    });
  });

  it("sends Link first/prev/next/last with absolute URLs that keep the other parameters", async () => {
    await withSite(FILES, {}, async (s) => {
      const q = (page: number) => `${endpoint}?search=long&tag=&limit=2&page=${page}`;
      const middle = await s.request("/api/content.json?search=long&tag=&limit=2&page=3");
      assert.equal(middle.status, 200);
      expectLinks(middle.headers.get("link"), {
        first: q(1),
        prev: q(2),
        next: q(4),
        last: q(5),
      });

      const first = await s.request("/api/content.json?search=long&tag=&limit=2");
      expectLinks(first.headers.get("link"), { first: q(1), next: q(2), last: q(5) });

      const last = await s.request("/api/content.json?search=long&tag=&limit=2&page=5");
      assert.deepEqual(ids(await last.json()), [ABOUT]);
      expectLinks(last.headers.get("link"), { first: q(1), prev: q(4), last: q(5) });

      const only = await s.request("/api/content.json?type=pages&limit=5");
      expectLinks(only.headers.get("link"), {
        first: `${endpoint}?type=pages&limit=5&page=1`,
        last: `${endpoint}?type=pages&limit=5&page=1`,
      });

      const filtered = await s.request(
        "/api/content.json?author=Ana+P%C3%A9rez&limit=1&page=2",
      );
      const links = parseLinks(filtered.headers.get("link"));
      assert.equal(new URL(links.first).searchParams.get("author"), "Ana Pérez");
      expectLinks(filtered.headers.get("link"), {
        first: `${endpoint}?author=Ana+P%C3%A9rez&limit=1&page=1`,
        prev: `${endpoint}?author=Ana+P%C3%A9rez&limit=1&page=1`,
        last: `${endpoint}?author=Ana+P%C3%A9rez&limit=1&page=2`,
      });
    });
  });

  it("sends no Link header without limit", async () => {
    await withSite(FILES, {}, async (s) => {
      const response = await s.request("/api/content.json?type=docs");
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("link"), null);
    });
  });
});

describe("feed errors (SPEC 6.1, 9)", () => {
  /** [query, parameter, pattern the detail must match]. */
  const bad: [string, string, RegExp][] = [
    ["?foo=1", "foo", /"?foo"?.*\b(type|limit)\b/],
    ["?type=docs&Type=docs", "Type", /\bType\b/],
    ["?tag=a&tag=b", "tag", /\btag\b/],
    ["?limit=5&limit=5", "limit", /\blimit\b/],
    ["?limit=0", "limit", /\blimit\b.*\b1\b.*\b10000\b/],
    ["?limit=10001", "limit", /\blimit\b.*\b1\b.*\b10000\b/],
    ["?limit=-1", "limit", /\blimit\b.*\b1\b.*\b10000\b/],
    ["?limit=2.5", "limit", /\blimit\b.*\b1\b.*\b10000\b/],
    ["?limit=1&page=0", "page", /\bpage\b/],
    ["?limit=1&page=x", "page", /\bpage\b/],
    ["?page=2", "page", /\bpage\b.*\blimit\b/],
    ["?year=26", "year", /\byear\b.*four digits/],
    ["?year=twenty", "year", /\byear\b/],
    ["?year=2026&month=13", "month", /\bmonth\b.*\b1\b.*\b12\b/],
    ["?year=2026&month=0", "month", /\bmonth\b.*\b1\b.*\b12\b/],
    ["?year=2026&month=march", "month", /\bmonth\b/],
    ["?month=3", "month", /\bmonth\b.*\byear\b/],
    ["?indexable=yes", "indexable", /\bindexable\b.*\btrue\b.*\bfalse\b/],
    ["?searchable=maybe", "searchable", /\bsearchable\b.*\btrue\b.*\bfalse\b/],
    [`?search=${"a".repeat(201)}`, "search", /\bsearch\b.*\b200\b/],
    ["?type=doc", "type", /\btype\b.*\bacademy\b.*\bblog\b.*\bdocs\b.*\bfaq\b.*\bpages\b/],
    ["?category=docs", "category", /\bcategory\b(?=.*\bcourse\b)(?=.*\bdoc\b)(?=.*\bpost\b)/],
  ];

  it("answers each bad query with a 400 problem naming the parameter", async () => {
    await withSite(FILES, {}, async (s) => {
      for (const [query, parameter, pattern] of bad) {
        const { status, body, headers } = await s.json(`/api/content.json${query}`);
        assert.equal(status, 400, query);
        assert.equal(headers.get("content-type"), "application/problem+json", query);
        assert.deepEqual(Object.keys(body), ["type", "title", "status", "detail"], query);
        assert.deepEqual(
          { type: body.type, title: body.title, status: body.status },
          { type: "about:blank", title: "Bad Request", status: 400 },
          query,
        );
        assert.equal(typeof body.detail, "string");
        assert.ok(body.detail.includes(parameter), `${query}: ${body.detail} names ${parameter}`);
        assert.match(body.detail, pattern, query);
      }
    });
  });

  it("words the limit problem as the SPEC's example", async () => {
    await withSite(FILES, {}, async (s) => {
      const { status, body } = await s.json("/api/content.json?limit=abc");
      assert.equal(status, 400);
      assert.deepEqual(body, {
        type: "about:blank",
        title: "Bad Request",
        status: 400,
        detail: 'limit must be an integer from 1 to 10000, got "abc"',
      });
    });
  });

  it("lists only the enabled types and categories for an unknown one", async () => {
    const cfg = config(["blog", "docs", "api"], "https://example.com");
    await withSite(FILES, { config: cfg }, async (s) => {
      const type = await s.json("/api/content.json?type=faq");
      assert.equal(type.status, 400);
      assert.match(type.body.detail, /\btype\b/);
      assert.match(type.body.detail, /\bblog\b/);
      assert.match(type.body.detail, /\bdocs\b/);
      for (const disabled of ["academy", "pages"]) {
        assert.ok(!type.body.detail.includes(disabled), `${type.body.detail} lists ${disabled}`);
      }
      const category = await s.json("/api/content.json?category=lesson");
      assert.equal(category.status, 400);
      assert.match(category.body.detail, /\bcategory\b/);
      assert.match(category.body.detail, /\bpost\b/);
      assert.match(category.body.detail, /\bdoc\b/);
      for (const disabled of ["course", "module", "question", "page"]) {
        assert.ok(
          !new RegExp(`\\b${disabled}\\b`).test(category.body.detail),
          `${category.body.detail} lists ${disabled}`,
        );
      }
      // The enabled ones are accepted.
      assert.deepEqual(ids(await feed(s, "?type=blog")), [HELLO, OLD]);
      assert.deepEqual(ids(await feed(s, "?category=doc")), [INTRO, SETUP]);
    });
  });

  it("is a 404 when the api plugin is not enabled", async () => {
    const cfg = config(["docs", "sitemap"], "https://example.com");
    await withSite(
      { "docs/intro.md": md({ title: "Intro" }, LONG) },
      { config: cfg },
      async (s) => {
        const response = await s.request("/api/content.json");
        assert.equal(response.status, 404);
        assert.equal(response.headers.get("content-type"), "application/problem+json");
        const body = await response.json();
        assert.equal(body.status, 404);
        // The rest of the service still answers.
        assert.equal((await s.request("/docs/intro.json")).status, 200);
        assert.equal((await s.request("/sitemap.xml")).status, 200);
      },
    );
  });
});
