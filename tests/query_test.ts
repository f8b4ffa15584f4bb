import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseQuery, type Query, type QueryVocabulary } from "../src/routes/query.ts";
import type { Filters } from "../src/feed/filter.ts";
import { SEED_FIELDS } from "../src/index/item_fields.ts";
import { filterItems, paginate } from "../src/feed/filter.ts";
import type { IndexSettings } from "../src/index/build.ts";
import { buildIndex } from "../src/index/build_parsed.ts";
import type { Item } from "../src/index/item.ts";
import type { ParsedFile } from "../src/source/parsed_file.ts";

const VOCABULARY: QueryVocabulary = { types: ["docs", "blog"], categories: ["doc", "post"] };

/** parseQuery on a query string. */
function parse(query: string) {
  return parseQuery(new URLSearchParams(query), VOCABULARY);
}

/**
 * The filters of a query that must be accepted, without its fields, which
 * must be the seed's (none of these queries names fields).
 */
function accepted(query: string): Omit<Query, "fields"> {
  const result = parse(query);
  assert.equal(result.problem, undefined, `${query}: ${JSON.stringify(result.problem)}`);
  const { fields, ...filters } = result.filters!;
  assert.deepEqual(fields, SEED_FIELDS, query);
  return filters;
}

/** The problem of a query that must be refused; asserts it names `parameter`. */
function refused(query: string, parameter: string): string {
  const result = parse(query);
  assert.equal(result.filters, undefined, `${query} was accepted: ${JSON.stringify(result)}`);
  assert.equal(result.problem!.parameter, parameter, query);
  assert.ok(
    result.problem!.detail.includes(parameter),
    `${query}: detail does not name ${parameter}: ${result.problem!.detail}`,
  );
  return result.problem!.detail;
}

describe("parseQuery: accepted values", () => {
  it("gives only page 1 for an empty query", () => {
    assert.deepEqual(parse(""), { filters: { page: 1, fields: SEED_FIELDS } });
  });

  it("reads every filter at once", () => {
    assert.deepEqual(
      parse(
        "type=docs&category=doc&tag=Deno&author=Ana&search=hello&year=2026&month=3" +
          "&indexable=true&searchable=false&limit=20&page=2",
      ),
      {
        filters: {
          type: "docs",
          category: "doc",
          tag: "deno",
          author: "ana",
          search: ["hello"],
          year: "2026",
          month: 3,
          indexable: true,
          searchable: false,
          limit: 20,
          page: 2,
          fields: SEED_FIELDS,
        },
      },
    );
  });

  it("accepts every enabled type and category", () => {
    assert.deepEqual(accepted("type=docs"), { type: "docs", page: 1 });
    assert.deepEqual(accepted("type=blog"), { type: "blog", page: 1 });
    assert.deepEqual(accepted("category=doc"), { category: "doc", page: 1 });
    assert.deepEqual(accepted("category=post"), { category: "post", page: 1 });
  });

  it("slugifies tag and author", () => {
    assert.deepEqual(accepted("tag=Gu%C3%ADa%20R%C3%A1pida"), { tag: "guia-rapida", page: 1 });
    assert.deepEqual(accepted("tag=C%23%20%26%20.NET"), { tag: "c-and-net", page: 1 });
    assert.deepEqual(accepted("author=Ana+P%C3%A9rez"), { author: "ana-perez", page: 1 });
    assert.deepEqual(accepted("author=ana-perez"), { author: "ana-perez", page: 1 });
  });

  it("folds search terms and splits them on whitespace", () => {
    assert.deepEqual(accepted("search=%20%20Caf%C3%A9%20%20CR%C3%88ME%09br%C3%BBl%C3%A9e%20"), {
      search: ["cafe", "creme", "brulee"],
      page: 1,
    });
    assert.deepEqual(accepted("search=Deno"), { search: ["deno"], page: 1 });
  });

  it("ignores a search of whitespace only", () => {
    assert.deepEqual(accepted("search=%20%20%20"), { page: 1 });
  });

  it("accepts a search of 200 characters, counting characters not bytes", () => {
    const ascii = "a".repeat(200);
    assert.deepEqual(accepted(`search=${ascii}`), { search: [ascii], page: 1 });
    const accented = "é".repeat(200);
    assert.deepEqual(accepted(`search=${encodeURIComponent(accented)}`), {
      search: ["e".repeat(200)],
      page: 1,
    });
    const emoji = "😀".repeat(200);
    assert.deepEqual(accepted(`search=${encodeURIComponent(emoji)}`), {
      search: [emoji],
      page: 1,
    });
  });

  it("accepts four-digit years", () => {
    assert.deepEqual(accepted("year=2026"), { year: "2026", page: 1 });
    assert.deepEqual(accepted("year=1999"), { year: "1999", page: 1 });
  });

  it("accepts months 1 to 12, leading zero allowed", () => {
    for (const [value, month] of [["1", 1], ["01", 1], ["3", 3], ["09", 9], ["12", 12]] as const) {
      assert.deepEqual(accepted(`year=2026&month=${value}`), { year: "2026", month, page: 1 });
    }
  });

  it("accepts true, false, 1 and 0 for indexable and searchable", () => {
    for (const [value, flag] of [["true", true], ["false", false], ["1", true], ["0", false]]) {
      assert.deepEqual(accepted(`indexable=${value}`), { indexable: flag, page: 1 });
      assert.deepEqual(accepted(`searchable=${value}`), { searchable: flag, page: 1 });
    }
  });

  it("accepts limits from 1 to 10000", () => {
    assert.deepEqual(accepted("limit=1"), { limit: 1, page: 1 });
    assert.deepEqual(accepted("limit=20"), { limit: 20, page: 1 });
    assert.deepEqual(accepted("limit=10000"), { limit: 10000, page: 1 });
  });

  it("accepts a page of at least 1 with a limit", () => {
    assert.deepEqual(accepted("limit=10&page=1"), { limit: 10, page: 1 });
    assert.deepEqual(accepted("page=7&limit=10"), { limit: 10, page: 7 });
    assert.deepEqual(accepted("limit=10&page=100000"), { limit: 10, page: 100000 });
  });

  it("accepts a very large page (past the end is an empty page, not an error)", () => {
    assert.deepEqual(accepted("limit=10&page=1000000000000000"), {
      limit: 10,
      page: 1000000000000000,
    });
  });

  it("treats an empty value as absent", () => {
    assert.deepEqual(
      accepted(
        "type=&category=&tag=&author=&search=&year=&month=&indexable=&searchable=&limit=&page=",
      ),
      { page: 1 },
    );
    assert.deepEqual(accepted("year=2026&month="), { year: "2026", page: 1 });
    assert.deepEqual(accepted("limit=5&page="), { limit: 5, page: 1 });
  });
});

describe("parseQuery: refused values (400)", () => {
  it("refuses an unknown parameter and lists the accepted ones", () => {
    const detail = refused("foo=1", "foo");
    for (const name of ["type", "category", "tag", "author", "search", "year", "month"]) {
      assert.ok(detail.includes(name), detail);
    }
    refused("limit=5&Type=docs", "Type");
    refused("q=deno", "q");
  });

  it("refuses an unknown parameter even with an empty value", () => {
    refused("foo=", "foo");
  });

  it("refuses a repeated parameter", () => {
    refused("type=docs&type=blog", "type");
    refused("limit=5&limit=5", "limit");
    refused("tag=a&year=2026&tag=b", "tag");
  });

  it("refuses an unknown type and lists the enabled ones", () => {
    const detail = refused("type=wiki", "type");
    assert.ok(detail.includes("docs") && detail.includes("blog"), detail);
    assert.ok(detail.includes("wiki"), detail);
    refused("type=Docs", "type");
  });

  it("refuses an unknown category and lists the enabled ones", () => {
    const detail = refused("category=lesson", "category");
    assert.ok(detail.includes("doc") && detail.includes("post"), detail);
    assert.ok(detail.includes("lesson"), detail);
  });

  it("refuses a limit outside 1-10000 or not an integer", () => {
    for (const value of ["0", "10001", "abc", "1.5", "-1", "100000000", "1e3", "+5"]) {
      refused(`limit=${encodeURIComponent(value)}`, "limit");
    }
  });

  it("words the limit error as the SPEC's example", () => {
    assert.deepEqual(parse("limit=abc"), {
      problem: {
        parameter: "limit",
        detail: 'limit must be an integer from 1 to 10000, got "abc"',
      },
    });
  });

  it("refuses a page below 1 or not an integer", () => {
    for (const value of ["0", "abc", "-1", "1.5"]) refused(`limit=10&page=${value}`, "page");
  });

  it("refuses a year that is not four digits", () => {
    for (const value of ["26", "20261", "abcd", "2026a", "-2026"]) {
      refused(`year=${value}`, "year");
    }
  });

  it("refuses a month outside 1-12", () => {
    for (const value of ["0", "13", "1a", "00", "-1", "3.0", "march"]) {
      refused(`year=2026&month=${value}`, "month");
    }
  });

  it("refuses month without year", () => {
    refused("month=3", "month");
    refused("month=3&year=", "month");
  });

  it("refuses page without limit", () => {
    refused("page=2", "page");
    refused("page=2&limit=", "page");
  });

  it("refuses indexable and searchable values other than true, false, 1, 0", () => {
    for (const value of ["yes", "no", "2", "TRUE"]) {
      refused(`indexable=${value}`, "indexable");
      refused(`searchable=${value}`, "searchable");
    }
  });

  it("refuses a search of more than 200 characters", () => {
    refused(`search=${"a".repeat(201)}`, "search");
    refused(`search=${encodeURIComponent("é".repeat(201))}`, "search");
  });
});

// ---------------------------------------------------------------------------
// filterItems and paginate on a hand-made index.

const BODY = "This body is long enough to be indexable by default, since the rule asks for at " +
  "least one hundred characters of text.";

function file(plugin: string, path: string, attrs: Record<string, unknown>, body = BODY) {
  return { plugin, path, checksum: "0".repeat(64), mtime: Date.UTC(2026, 5, 1), attrs, body };
}

const FILES: ParsedFile[] = [
  file("docs", "intro.md", {
    title: "Intro",
    date: "2026-01-15",
    tags: ["Deno", "Guía"],
    authors: ["Ana Pérez"],
    sidebar_position: 1,
  }),
  file("docs", "guide.md", {
    title: "Guide",
    date: "2025-03-02",
    tags: ["deno"],
    sidebar_position: 2,
  }, `${BODY} Café crème.`),
  file("docs", "guide/setup.md", { title: "Setup", date: "2026-03-10", authors: ["Bob"] }),
  file("docs", "unsearchable.md", {
    title: "Unsearchable",
    date: "2026-02-01",
    searchable: false,
    sidebar_position: 3,
  }),
  file("docs", "hidden.md", {
    title: "Hidden",
    date: "2026-01-01",
    indexable: false,
    tags: ["Deno"],
  }),
  file("docs", "short.md", { title: "Short", date: "2026-01-02" }, "Too short to index."),
  file("docs", "empty.md", { title: "Empty", date: "2026-01-03", indexable: true }, ""),
  file("docs", "wip.md", {
    title: "Work in progress",
    date: "2026-01-04",
    draft: true,
    tags: ["Deno"],
  }),
  file("blog", "2026-03-14-hello.md", { title: "Hello", tags: ["Deno"], authors: ["Ana Pérez"] }),
  file("blog", "2025-12-01-old.md", { title: "Old news" }),
];

const SETTINGS: IndexSettings = {
  title: undefined,
  url: undefined,
  api: true,
  sitemap: false,
  plugins: [{ name: "docs", path: "docs" }, { name: "blog", path: "blog" }],
};

const INDEX = buildIndex(FILES, SETTINGS, Date.UTC(2026, 10, 21, 9, 15, 2));

const ALL = [
  "docs_doc_intro",
  "docs_doc_guide",
  "docs_doc_guide_setup",
  "docs_doc_unsearchable",
  "blog_post_2026-03-14-hello",
  "blog_post_2025-12-01-old",
];

function ids(items: readonly Item[]): string[] {
  return items.map((item) => item.id);
}

/** The ids of the feed items matching `filters` (page 1 unless given). */
function match(filters: Omit<Filters, "page"> & { page?: number }): string[] {
  return ids(filterItems(INDEX, { page: 1, ...filters }));
}

describe("filterItems", () => {
  it("gives every feed-eligible item in feed order without filters", () => {
    assert.deepEqual(match({}), ALL);
    assert.deepEqual(ids(INDEX.feed), ALL);
  });

  it("works with a vocabulary taken from the index", () => {
    const result = parseQuery(new URLSearchParams("type=blog"), INDEX);
    assert.deepEqual(result, { filters: { type: "blog", page: 1, fields: SEED_FIELDS } });
    assert.deepEqual(ids(filterItems(INDEX, result.filters!)), ALL.slice(4));
  });

  it("filters by type", () => {
    assert.deepEqual(match({ type: "docs" }), ALL.slice(0, 4));
    assert.deepEqual(match({ type: "blog" }), ALL.slice(4));
  });

  it("filters by category", () => {
    assert.deepEqual(match({ category: "doc" }), ALL.slice(0, 4));
    assert.deepEqual(match({ category: "post" }), ALL.slice(4));
    assert.deepEqual(match({ category: "lesson" }), []);
  });

  it("filters by tag slug", () => {
    assert.deepEqual(match({ tag: "deno" }), [
      "docs_doc_intro",
      "docs_doc_guide",
      "blog_post_2026-03-14-hello",
    ]);
    assert.deepEqual(match({ tag: "guia" }), ["docs_doc_intro"]);
    assert.deepEqual(match({ tag: "nothing" }), []);
  });

  it("filters by author slug, Anonymous included", () => {
    assert.deepEqual(match({ author: "ana-perez" }), [
      "docs_doc_intro",
      "blog_post_2026-03-14-hello",
    ]);
    assert.deepEqual(match({ author: "bob" }), ["docs_doc_guide_setup"]);
    assert.deepEqual(match({ author: "anonymous" }), [
      "docs_doc_guide",
      "docs_doc_unsearchable",
      "blog_post_2025-12-01-old",
    ]);
  });

  it("filters by year", () => {
    assert.deepEqual(match({ year: "2026" }), [
      "docs_doc_intro",
      "docs_doc_guide_setup",
      "docs_doc_unsearchable",
      "blog_post_2026-03-14-hello",
    ]);
    assert.deepEqual(match({ year: "2025" }), ["docs_doc_guide", "blog_post_2025-12-01-old"]);
    assert.deepEqual(match({ year: "2024" }), []);
  });

  it("filters by year and month", () => {
    assert.deepEqual(match({ year: "2026", month: 3 }), [
      "docs_doc_guide_setup",
      "blog_post_2026-03-14-hello",
    ]);
    assert.deepEqual(match({ year: "2026", month: 1 }), ["docs_doc_intro"]);
    assert.deepEqual(match({ year: "2025", month: 12 }), ["blog_post_2025-12-01-old"]);
    assert.deepEqual(match({ year: "2025", month: 1 }), []);
  });

  it("searches title, description and body ignoring case and accents", () => {
    assert.deepEqual(match({ search: ["cafe", "creme"] }), ["docs_doc_guide"]);
    assert.deepEqual(match({ search: ["setup"] }), ["docs_doc_guide_setup"]);
    assert.deepEqual(match({ search: ["old", "news"] }), ["blog_post_2025-12-01-old"]);
    // Every term must occur.
    assert.deepEqual(match({ search: ["cafe", "setup"] }), []);
    assert.deepEqual(match({ search: ["indexable"] }), ALL);
  });

  it("filters by searchable", () => {
    assert.deepEqual(match({ searchable: true }), ALL.filter((id) => !id.includes("unsearch")));
    assert.deepEqual(match({ searchable: false }), ["docs_doc_unsearchable"]);
  });

  it("indexable=true keeps the feed, indexable=false empties it", () => {
    assert.deepEqual(match({ indexable: true }), ALL);
    assert.deepEqual(match({ indexable: false }), []);
  });

  it("combines filters", () => {
    assert.deepEqual(match({ type: "docs", tag: "deno" }), ["docs_doc_intro", "docs_doc_guide"]);
    assert.deepEqual(match({ tag: "deno", year: "2026", author: "ana-perez" }), [
      "docs_doc_intro",
      "blog_post_2026-03-14-hello",
    ]);
    assert.deepEqual(match({ type: "blog", category: "doc" }), []);
  });

  it("never returns non-indexable, short, empty or draft items", () => {
    const left = ["hidden", "short", "empty", "wip"];
    for (
      const filters of [{}, { tag: "deno" }, { year: "2026", month: 1 }, { search: ["this"] }]
    ) {
      for (const id of match(filters)) {
        assert.ok(
          !left.some((name) => id === `docs_doc_${name}`),
          `${id} in ${JSON.stringify(filters)}`,
        );
      }
    }
  });
});

describe("paginate", () => {
  const feed = filterItems(INDEX, { page: 1 });

  it("returns everything without a limit", () => {
    const page = paginate(feed, { page: 1 });
    assert.deepEqual(ids(page.items), ALL);
    assert.deepEqual({ ...page, items: undefined }, {
      items: undefined,
      total: 6,
      page: 1,
      last: undefined,
    });
  });

  it("cuts the first page", () => {
    const page = paginate(feed, { limit: 4, page: 1 });
    assert.deepEqual(ids(page.items), ALL.slice(0, 4));
    assert.equal(page.total, 6);
    assert.equal(page.page, 1);
    assert.equal(page.last, 2);
  });

  it("gives the remainder on the last page", () => {
    const page = paginate(feed, { limit: 4, page: 2 });
    assert.deepEqual(ids(page.items), ALL.slice(4));
    assert.equal(page.total, 6);
    assert.equal(page.page, 2);
    assert.equal(page.last, 2);
  });

  it("gives an empty page past the end, total unchanged", () => {
    for (const n of [3, 100]) {
      const page = paginate(feed, { limit: 4, page: n });
      assert.deepEqual(page.items, []);
      assert.equal(page.total, 6);
      assert.equal(page.page, n);
      assert.equal(page.last, 2);
    }
  });

  it("has one full last page when the limit divides the total", () => {
    const page = paginate(feed, { limit: 3, page: 2 });
    assert.deepEqual(ids(page.items), ALL.slice(3));
    assert.equal(page.last, 2);
    assert.deepEqual(paginate(feed, { limit: 3, page: 3 }).items, []);
  });

  it("pages one item at a time", () => {
    for (let n = 1; n <= 6; n++) {
      assert.deepEqual(ids(paginate(feed, { limit: 1, page: n }).items), [ALL[n - 1]]);
    }
    assert.equal(paginate(feed, { limit: 1, page: 1 }).last, 6);
  });

  it("gives the whole list when the limit exceeds it", () => {
    const page = paginate(feed, { limit: 10000, page: 1 });
    assert.deepEqual(ids(page.items), ALL);
    assert.equal(page.last, 1);
  });

  it("counts the total after filters and before paging", () => {
    const matches = filterItems(INDEX, { type: "docs", page: 1 });
    const page = paginate(matches, { limit: 3, page: 2 });
    assert.deepEqual(ids(page.items), ["docs_doc_unsearchable"]);
    assert.equal(page.total, 4);
    assert.equal(page.last, 2);
  });

  it("has one (empty) page when nothing matches", () => {
    const page = paginate([], { limit: 10, page: 1 });
    assert.deepEqual(page, { items: [], total: 0, page: 1, last: 1 });
    assert.deepEqual(paginate([], { limit: 10, page: 2 }), {
      items: [],
      total: 0,
      page: 2,
      last: 1,
    });
  });
});
