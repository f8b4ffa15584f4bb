// The outputs for LLMs and agents (SPEC 14) through fetch(Request): an
// item's Markdown form, /llms.txt, /llms-full.txt and the JSON Feed, each
// checked against the feed and the item JSON forms of the same index.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import { LONG, md, site, type SiteFiles, withSite } from "./helpers.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const CONFIG = (extra = "") =>
  `parameters:
  service.content.config:
    url: https://example.com
    title: Example Docs
    description: "Docs for X,\\n  and more"
    plugins:
      docs: ~
      blog: ~
      faq: ~
      api: ~
      llms: ~
      feed: ~
${extra}`;

/** 120 posts over 90 days (some on the same day), docs with a draft and a hidden page, a FAQ. */
function files(): SiteFiles {
  const out: SiteFiles = {
    "docs/intro.md": md(
      { title: "Intro [start]", description: "Where to begin", tags: ["Deno"] },
      LONG,
    ),
    "docs/guide.md": md({ title: "Guide", tags: ["Deno", "Node"], order: 2 }, `# Guide\n\n${LONG}`),
    "docs/hidden.md": md({ title: "Hidden", indexable: false }, LONG),
    "docs/plan.md": md({ title: "Plan", draft: true }, `Zanzibarian secret plans. ${LONG}`),
    "docs/empty.md": md({ title: "Empty" }, ""),
    "faq/why.md": md(
      { title: "Why?", description: "Because\nof reasons" },
      `Because *it* is. ${LONG}\n`,
    ),
  };
  for (let i = 0; i < 120; i++) {
    const day = String(1 + (i % 28)).padStart(2, "0");
    const month = String(1 + Math.floor(i / 40)).padStart(2, "0");
    out[`blog/2026-${month}-${day}-post-${i}.md`] = md(
      { title: `Post ${i}`, tags: i % 3 === 0 ? ["Three"] : ["Other"], authors: ["Ana Pérez"] },
      `Post number ${i}. ${LONG}`,
    );
  }
  return out;
}

/** The JSON Feed 1.1 rules (https://www.jsonfeed.org/version/1.1/), as a list of what breaks them. */
function jsonFeedProblems(feed: Json): string[] {
  const problems: string[] = [];
  const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
  const isUrl = (value: unknown) => typeof value === "string" && URL.canParse(value);
  const TOP = [
    "version",
    "title",
    "home_page_url",
    "feed_url",
    "description",
    "user_comment",
    "next_url",
    "icon",
    "favicon",
    "authors",
    "language",
    "expired",
    "hubs",
    "items",
  ];
  const ITEM = [
    "id",
    "url",
    "external_url",
    "title",
    "content_html",
    "content_text",
    "summary",
    "image",
    "banner_image",
    "date_published",
    "date_modified",
    "authors",
    "tags",
    "language",
    "attachments",
  ];
  const authors = (where: string, list: unknown) => {
    if (!Array.isArray(list)) return problems.push(`${where}.authors is not an array`);
    for (const author of list) {
      if (!author || typeof author !== "object") problems.push(`${where}: an author is no object`);
      else if (!("name" in author || "url" in author || "avatar" in author)) {
        problems.push(`${where}: an author has none of name, url, avatar`);
      } else if ("name" in author && typeof author.name !== "string") {
        problems.push(`${where}: an author's name is no string`);
      }
    }
  };
  const unknown = (where: string, object: Json, known: string[]) => {
    for (const key of Object.keys(object)) {
      if (!known.includes(key) && !key.startsWith("_")) {
        problems.push(`${where}: ${key} is neither a JSON Feed key nor an extension`);
      }
    }
  };
  if (feed.version !== "https://jsonfeed.org/version/1.1") problems.push("version");
  if (typeof feed.title !== "string" || !feed.title) problems.push("title is required");
  for (const key of ["home_page_url", "feed_url", "next_url", "icon", "favicon"]) {
    if (key in feed && !isUrl(feed[key])) problems.push(`${key} is not a URL`);
  }
  if ("description" in feed && typeof feed.description !== "string") problems.push("description");
  if ("authors" in feed) authors("feed", feed.authors);
  unknown("feed", feed, TOP);
  if (!Array.isArray(feed.items)) return [...problems, "items is required"];
  for (const item of feed.items) {
    const where = `item ${item.id}`;
    if (typeof item.id !== "string" || !item.id) problems.push(`${where}: id is required`);
    if (typeof item.content_text !== "string" && typeof item.content_html !== "string") {
      problems.push(`${where}: content_html or content_text is required`);
    }
    for (const key of ["url", "external_url", "image", "banner_image"]) {
      if (key in item && !isUrl(item[key])) problems.push(`${where}: ${key} is not a URL`);
    }
    for (const key of ["title", "summary", "content_text"]) {
      if (key in item && typeof item[key] !== "string") problems.push(`${where}: ${key}`);
    }
    for (const key of ["date_published", "date_modified"]) {
      if (key in item && !RFC3339.test(item[key])) problems.push(`${where}: ${key} not RFC 3339`);
    }
    if ("authors" in item) authors(where, item.authors);
    if (
      "tags" in item &&
      !(Array.isArray(item.tags) && item.tags.every((t: unknown) => typeof t === "string"))
    ) {
      problems.push(`${where}: tags are not strings`);
    }
    unknown(where, item, ITEM);
  }
  return problems;
}

/** A Markdown form split into its front matter (as YAML) and its body. */
function splitMarkdown(text: string): { front: Json; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(text);
  assert.ok(match, `front matter: ${text.slice(0, 80)}`);
  return { front: parseYaml(match[1]), body: match[2] };
}

describe("GET /{type}/{uri}.md (SPEC 14)", () => {
  it("serves every item the JSON form serves: its front matter and its body as written", async () => {
    await withSite(files(), { config: CONFIG() }, async (s) => {
      const feed = (await s.json("/api/content.json")).body;
      const paths = [
        ...feed.data.map((item: Json) => new URL(item.link).pathname),
        "/docs/hidden.json",
        "/docs/empty.json",
      ];
      for (const jsonPath of paths) {
        const json = await s.json(jsonPath);
        assert.equal(json.status, 200, jsonPath);
        const response = await s.request(jsonPath.replace(/\.json$/, ".md"));
        assert.equal(response.status, 200, jsonPath);
        assert.equal(response.headers.get("content-type"), "text/markdown; charset=utf-8");
        const { front, body } = splitMarkdown(await response.text());
        assert.deepEqual(front, {
          title: json.body.title,
          description: json.body.description,
          url: `https://example.com${new URL(json.body.link).pathname.replace(/\.json$/, "")}`,
          last_update: json.body.last_update,
        });
        const expected = json.body.body.endsWith("\n") || json.body.body === ""
          ? json.body.body
          : `${json.body.body}\n`;
        assert.equal(body, expected || "\n", jsonPath);
      }
    });
  });

  it("is a 404 problem for a draft, an unknown item and a path outside the index", async () => {
    await withSite(files(), { config: CONFIG() }, async (s) => {
      for (const path of ["/docs/plan.md", "/docs/nope.md", "/docs/../services.yaml.md", "/x.md"]) {
        const response = await s.request(path);
        assert.equal(response.status, 404, path);
        assert.equal(response.headers.get("content-type"), "application/problem+json");
      }
    });
  });

  it("keeps a title with quotes, colons and line breaks inside its front matter", async () => {
    const title = 'He said: "no" --- # not a comment';
    await withSite(
      { "docs/q.md": md({ title, description: "a: b\nc" }, "Body.") },
      { config: CONFIG() },
      async (s) => {
        const { front, body } = splitMarkdown(await (await s.request("/docs/q.md")).text());
        assert.equal(front.title, title);
        assert.equal(front.description, (await s.json("/docs/q.json")).body.description);
        assert.equal(body, "Body.\n");
      },
    );
  });
});

describe("GET /llms.txt and /llms-full.txt (SPEC 14)", () => {
  it("lists each plugin's feed items in feed order, linked to their Markdown", async () => {
    await withSite(files(), { config: CONFIG() }, async (s) => {
      const feed = (await s.json("/api/content.json")).body.data;
      const text = await (await s.request("/llms.txt")).text();
      let expected = "# Example Docs\n\n> Docs for X, and more\n";
      for (const [type, heading] of [["docs", "Docs"], ["blog", "Blog"], ["faq", "FAQ"]]) {
        expected += `\n## ${heading}\n\n`;
        for (const item of feed.filter((i: Json) => i.type === type)) {
          const title = item.title.replace(/[\[\]]/g, "\\$&");
          const description = item.description.replace(/\s+/g, " ").trim();
          expected += `- [${title}](https://example.com/${item.type}/${item.uri}.md)${
            description ? `: ${description}` : ""
          }\n`;
        }
      }
      assert.equal(text, expected);
      assert.ok(
        text.includes("- [Intro \\[start\\]](https://example.com/docs/intro.md): Where to begin\n"),
      );
      assert.ok(text.includes("(https://example.com/faq/why.md): Because of reasons\n"));
      assert.ok(!text.includes("Plan") && !text.includes("Hidden") && !text.includes("Empty"));
      // Every link resolves.
      for (const [, link] of text.matchAll(/\]\((https:\/\/example\.com[^)]+)\)/g)) {
        assert.equal((await s.request(new URL(link).pathname)).status, 200, link);
      }
    });
  });

  it("has no description line without one, and the host as title without a title", async () => {
    const config = `parameters:
  service.content.config:
    plugins: { faq: ~, llms: ~ }
`;
    const files = { "faq/why.md": md({ title: "Why?", description: "Because." }, LONG) };
    await withSite(files, { config }, async (s) => {
      const text = await (await s.request("/llms.txt")).text();
      assert.equal(
        text,
        "# localhost:8000\n\n## FAQ\n\n- [Why?](http://localhost:8000/faq/why.md): Because.\n",
      );
    });
  });

  it("llms-full.txt holds every feed item's Markdown in feed order under its title and source", async () => {
    await withSite(files(), { config: CONFIG() }, async (s) => {
      const feed = (await s.json("/api/content.json")).body.data;
      let expected = "";
      for (const item of feed) {
        const json = (await s.json(new URL(item.link).pathname)).body;
        expected +=
          `# ${item.title}\n\nSource: https://example.com/${item.type}/${item.uri}\n\n${json.body.trim()}\n\n`;
      }
      const response = await s.request("/llms-full.txt");
      assert.equal(response.headers.get("content-type"), "text/plain; charset=utf-8");
      const text = await response.text();
      assert.equal(text, expected);
      assert.ok(!text.includes("Zanzibarian"));
    });
  });

  it("are 404 without llms in the config, as /feed.json is without feed", async () => {
    const config = `parameters:
  service.content.config:
    plugins: { faq: ~, api: ~ }
`;
    await withSite({ "faq/why.md": md({ title: "Why?" }, "Because.") }, { config }, async (s) => {
      for (const path of ["/llms.txt", "/llms-full.txt", "/feed.json"]) {
        assert.equal((await s.request(path)).status, 404, path);
      }
      assert.equal((await s.request("/api/mcp", { method: "POST", body: "{}" })).status, 404);
      assert.equal((await s.request("/faq/why.md")).status, 200, "the Markdown form is always on");
    });
  });
});

describe("GET /feed.json (SPEC 14)", () => {
  it("is a valid JSON Feed 1.1 document, newest first, 50 a page with next_url", async () => {
    await withSite(files(), { config: CONFIG() }, async (s) => {
      const feed = (await s.json("/api/content.json?include=url,text")).body.data;
      // Newest date first; a stable sort keeps feed order among equal dates.
      const expected = [...feed].sort((a: Json, b: Json) =>
        a.date < b.date ? 1 : a.date > b.date ? -1 : 0
      );
      const seen: Json[] = [];
      let url: string | undefined = "https://example.com/feed.json";
      let pages = 0;
      while (url) {
        const response = await s.request(new URL(url).pathname + new URL(url).search);
        assert.equal(response.status, 200, url);
        assert.equal(response.headers.get("content-type"), "application/feed+json; charset=utf-8");
        const page = JSON.parse(await response.text());
        assert.deepEqual(jsonFeedProblems(page), [], url);
        assert.equal(page.title, "Example Docs");
        assert.equal(page.home_page_url, "https://example.com/");
        assert.equal(page.description, "Docs for X,\n  and more");
        assert.ok(page.items.length <= 50);
        if (page.next_url) assert.equal(page.items.length, 50);
        seen.push(...page.items);
        url = page.next_url;
        pages++;
      }
      assert.equal(pages, Math.ceil(expected.length / 50));
      assert.deepEqual(seen.map((item) => item.id), expected.map((item: Json) => item.id));
      for (const [i, item] of seen.entries()) {
        const from = expected[i];
        assert.deepEqual(item, {
          id: from.id,
          url: from.url,
          title: from.title,
          summary: from.description,
          content_text: from.text,
          date_published: `${from.date}T00:00:00Z`,
          date_modified: `${from.last_update}T00:00:00Z`,
          authors: from.authors.map(({ name }: Json) => ({ name })),
          tags: from.tags.map(({ name }: Json) => name),
        });
      }
      assert.ok(!seen.some((item) => /plan|hidden|empty/.test(item.id)));
    });
  });

  it("applies the feed's filters and pages them", async () => {
    await withSite(files(), { config: CONFIG() }, async (s) => {
      const ids = async (query: string) => {
        const out: string[] = [];
        let url: string | undefined = `/feed.json?${query}`;
        while (url) {
          const { status, body } = await s.json(url);
          assert.equal(status, 200, url);
          out.push(...body.items.map((item: Json) => item.id));
          url = body.next_url && new URL(body.next_url).pathname + new URL(body.next_url).search;
        }
        return out.sort();
      };
      for (
        const query of ["type=blog", "tag=three", "search=number&type=blog", "year=2026&month=2"]
      ) {
        const feed = (await s.json(`/api/content.json?${query}&fields=id`)).body.data;
        assert.deepEqual(await ids(query), feed.map((item: Json) => item.id).sort(), query);
      }
      const second = (await s.json("/feed.json?type=blog&page=2")).body;
      assert.equal(second.feed_url, "https://example.com/feed.json?type=blog");
      assert.equal(second.next_url, "https://example.com/feed.json?type=blog&page=3");
      const beyond = (await s.json("/feed.json?page=9")).body;
      assert.deepEqual(beyond.items, []);
      assert.equal(beyond.next_url, undefined);
    });
  });

  it("refuses what it does not take with a 400 naming the parameter", async () => {
    await withSite(files(), { config: CONFIG() }, async (s) => {
      for (
        const [query, name] of [
          ["limit=5", "limit"],
          ["sort=title", "sort"],
          ["include=body", "include"],
          ["fields=id", "fields"],
          ["since=0", "since"],
          ["type=nope", "type"],
          ["page=0", "page"],
          ["colour=red", "colour"],
        ]
      ) {
        const { status, body, headers } = await s.json(`/feed.json?${query}`);
        assert.equal(status, 400, query);
        assert.equal(headers.get("content-type"), "application/problem+json");
        assert.ok(body.detail.includes(name), `${query}: ${body.detail}`);
      }
    });
  });
});

describe("the outputs of a site whose files change", () => {
  it("follow an edit: the Markdown, llms.txt and the JSON Feed of the new index", async () => {
    const s = await site(files(), { config: CONFIG() });
    try {
      await s.request("/docs/intro.md");
      await s.request("/llms.txt");
      await s.request("/feed.json");
      const { writeFile } = await import("node:fs/promises");
      await writeFile(
        `${s.root}/docs/intro.md`,
        md({ title: "Intro renamed", description: "Now elsewhere" }, `New words. ${LONG}`),
      );
      await s.api.reload();
      const { front, body } = splitMarkdown(await (await s.request("/docs/intro.md")).text());
      assert.equal(front.title, "Intro renamed");
      assert.equal(body, `New words. ${LONG}\n`);
      assert.ok((await (await s.request("/llms.txt")).text()).includes("[Intro renamed]"));
      const feed = (await s.json("/feed.json")).body;
      const intro = feed.items.find((item: Json) => item.id === "docs_doc_intro");
      assert.equal(intro.title, "Intro renamed");
      assert.ok(intro.content_text.startsWith("New words."));
    } finally {
      await s.close();
    }
  });
});
