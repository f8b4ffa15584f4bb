// Versions and locales (SPEC 16.3), where a page is published (SPEC 16.1,
// 16.2), and what `check` says a crawl would see (SPEC 16.5): through the
// service's fetch, the journal's file and the command line.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's export map gives this path no types Deno finds; the comment points at them.
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.d.ts"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { parseConfig } from "../src/config/parse.ts";
import { ConfigError } from "../src/config/types.ts";
import {
  LONG,
  md,
  removeSite,
  serviceOn,
  site,
  type SiteFiles,
  withSite,
  writeSite,
} from "./helpers.ts";
import { RUNTIMES } from "./server_helpers.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const VARIANTS = `parameters:
  service.content.config:
    url: https://feed.example
    site_url: https://example.com
    locales: [en, fr]
    plugins:
      docs:
        variants:
          - { path: docs, version: "2.0" }
          - { path: i18n/fr/docs, lang: fr }
          - { path: versions/1.0, version: "1.0" }
      blog: { route: /news }
      api: ~
      sitemap: ~
`;

const FILES: SiteFiles = {
  "docs/intro.md": md({ title: "Intro" }, `Welcome. ${LONG}`),
  "docs/guide/setup.md": md({ title: "Setup" }, `Install it. ${LONG}`),
  "i18n/fr/docs/intro.md": md({ title: "Introduction" }, `Bienvenue. ${LONG}`),
  "versions/1.0/intro.md": md({ title: "Intro (1.0)" }, `Welcome to 1.0. ${LONG}`),
  "blog/2026-01-02-hello.md": md({ title: "Hello" }, `Hello. ${LONG}`),
};

const FIELDS = "fields=id,uri,url,lang,version,variant_of";

describe("versions and locales (SPEC 16.3)", () => {
  it("makes each variant's items one page's: lang, version, variant_of, unique ids, urls on site_url", async () => {
    await withSite(FILES, { config: VARIANTS }, async (s) => {
      const { body } = await s.json(`/api/content.json?${FIELDS}`);
      assert.deepEqual(body.data, [
        {
          id: "docs_doc_intro",
          uri: "intro",
          url: "https://example.com/docs/intro",
          lang: "en",
          version: "2.0",
          variant_of: null,
        },
        {
          id: "docs_doc_guide_setup",
          uri: "guide/setup",
          url: "https://example.com/docs/guide/setup",
          lang: "en",
          version: "2.0",
          variant_of: null,
        },
        {
          id: "docs_doc_fr_intro",
          uri: "fr/intro",
          url: "https://example.com/fr/docs/intro",
          lang: "fr",
          version: "2.0",
          variant_of: "docs_doc_intro",
        },
        {
          id: "docs_doc_1-0_intro",
          uri: "1-0/intro",
          url: "https://example.com/docs/1.0/intro",
          lang: "en",
          version: "1.0",
          variant_of: "docs_doc_intro",
        },
        {
          id: "blog_post_2026-01-02-hello",
          uri: "2026-01-02-hello",
          url: "https://example.com/news/2026-01-02-hello",
          lang: "en",
          version: null,
          variant_of: null,
        },
      ]);
      // The item route serves each variant's item at its own uri.
      assert.equal((await s.json("/docs/fr/intro.json")).body.title, "Introduction");
      // `link` stays on the service's own URL; `url` is the site's page.
      const fr = (await s.json("/api/content.json?lang=fr&include=url")).body.data[0];
      assert.equal(fr.link, "https://feed.example/docs/fr/intro.json");
      assert.equal(fr.url, "https://example.com/fr/docs/intro");
    });
  });

  it("filters by lang and version, and refuses a value the site lacks, listing the ones it has", async () => {
    await withSite(FILES, { config: VARIANTS }, async (s) => {
      const ids = async (query: string) =>
        (await s.json(`/api/content.json?${query}&fields=id`)).body.data.map((i: Json) => i.id);
      assert.deepEqual(await ids("lang=fr"), ["docs_doc_fr_intro"]);
      assert.deepEqual(await ids("version=1.0"), ["docs_doc_1-0_intro"]);
      assert.deepEqual(await ids("lang=en&version=2.0&type=docs"), [
        "docs_doc_intro",
        "docs_doc_guide_setup",
      ]);
      const bad = await s.json("/api/content.json?lang=de");
      assert.equal(bad.status, 400);
      assert.match(bad.body.detail, /^lang must be one of en, fr, got "de"$/);
      const badVersion = await s.json("/api/content.json?version=3.0");
      assert.match(badVersion.body.detail, /^version must be one of 2\.0, 1\.0, got "3\.0"$/);
    });
  });

  it("with since, a lang filter gives that locale's changes and deletions only", async () => {
    const s = await site(FILES, { config: VARIANTS });
    try {
      const start = (await s.json("/api/content.json?since=0&lang=fr&fields=id")).body;
      assert.deepEqual(start.data.map((i: Json) => i.id), ["docs_doc_fr_intro"]);
      const { rm, writeFile } = await import("node:fs/promises");
      await rm(join(s.root, "i18n/fr/docs/intro.md"));
      await rm(join(s.root, "docs/guide/setup.md"));
      await writeFile(join(s.root, "versions/1.0/intro.md"), md({ title: "Edited" }, LONG));
      await s.api.reload();
      const fr = (await s.json(`/api/content.json?since=${start.meta.cursor}&lang=fr&fields=id`))
        .body;
      assert.deepEqual(fr.data, []);
      assert.deepEqual(fr.deleted.map((d: Json) => d.id), ["docs_doc_fr_intro"]);
      const v1 =
        (await s.json(`/api/content.json?since=${start.meta.cursor}&version=1.0&fields=id`))
          .body;
      assert.deepEqual(v1.data.map((i: Json) => i.id), ["docs_doc_1-0_intro"]);
      assert.deepEqual(v1.deleted, []);
    } finally {
      await s.close();
    }
  });

  it("gives the sitemap each page's locales as hreflang alternates", async () => {
    await withSite(FILES, { config: VARIANTS }, async (s) => {
      const xml = await (await s.request("/sitemap.xml")).text();
      assert.match(xml, /xmlns:xhtml="http:\/\/www\.w3\.org\/1999\/xhtml"/);
      const intro = xml.split("\n").find((line) =>
        line.includes("<loc>https://example.com/docs/intro</loc>")
      )!;
      assert.match(
        intro,
        /<xhtml:link rel="alternate" hreflang="en" href="https:\/\/example\.com\/docs\/intro"\/><xhtml:link rel="alternate" hreflang="fr" href="https:\/\/example\.com\/fr\/docs\/intro"\/>/,
      );
      // A page in one locale only (and other versions) has no alternates.
      const setup = xml.split("\n").find((line) => line.includes("guide/setup"))!;
      assert.doesNotMatch(setup, /xhtml:link/);
      const old = xml.split("\n").find((line) => line.includes("/docs/1.0/intro"))!;
      assert.doesNotMatch(old, /xhtml:link/);
    });
  });

  it("JSON Feed, MCP and OpenAPI take lang and version too; JSON Feed items say their language", async () => {
    const config = VARIANTS.replace(
      "      sitemap: ~\n",
      "      sitemap: ~\n      mcp: ~\n      feed: ~\n",
    );
    await withSite(FILES, { config }, async (s) => {
      const feed = (await s.json("/feed.json?lang=fr")).body;
      assert.deepEqual(
        feed.items.map((i: Json) => [i.id, i.url, i.language]),
        [["docs_doc_fr_intro", "https://example.com/fr/docs/intro", "fr"]],
      );
      assert.equal(feed.home_page_url, "https://example.com/");
      assert.equal((await s.json("/feed.json?version=3.0")).status, 400);
      const client = new Client({ name: "variants-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL("http://localhost:8000/api/mcp"), {
          fetch: (input, init) => s.api.fetch(new Request(input, init)),
        }),
      );
      try {
        const call = async (name: string, args: Record<string, unknown>) => {
          const result = await client.callTool({ name, arguments: args }) as Json;
          assert.equal(result.isError, undefined, JSON.stringify(result));
          return JSON.parse(result.content[0].text);
        };
        const listed = await call("list_content", { version: "1.0" });
        assert.deepEqual(listed.data.map((i: Json) => i.id), ["docs_doc_1-0_intro"]);
        const found = await call("search_content", { query: "Bienvenue", lang: "fr" });
        assert.deepEqual(found.data.map((i: Json) => i.id), ["docs_doc_fr_intro"]);
        const none = await call("search_content", { query: "Bienvenue", lang: "en" });
        assert.deepEqual(none.data, []);
        // A value the site lacks: a tool error (MCP 2025-11-25), naming the values it has.
        const refused = await client.callTool({
          name: "list_content",
          arguments: { lang: "de" },
        }) as Json;
        assert.equal(refused.isError, true);
        assert.match(
          refused.content[0].text,
          /^list_content: lang must be one of en, fr, got "de"/,
        );
      } finally {
        await client.close();
      }
      const openapi = (await s.json("/api/openapi.json")).body;
      const names = (path: string) =>
        openapi.paths[path].get.parameters.map((p: Json) => p.name ?? p.$ref);
      for (const path of ["/api/content.json", "/feed.json"]) {
        const listed = JSON.stringify(names(path));
        assert.match(listed, /lang/, path);
        assert.match(listed, /version/, path);
      }
    });
  });

  it("keeps a journal of before the two columns: its cursors go on", async () => {
    const s = await site(FILES, { config: VARIANTS });
    const state = join(s.root, ".content-feed");
    let cursor: string;
    try {
      cursor = (await s.json("/api/content.json?fields=id")).body.meta.cursor;
    } finally {
      await s.api.close();
    }
    // The journal as the version before SPEC 16.3 wrote it: no lang, no version columns.
    const db = new DatabaseSync(join(state, "journal.sqlite"));
    db.exec(
      `CREATE TABLE old AS SELECT id, seq, born, key, type, category, deleted, lives FROM entries;
      DROP TABLE entries;
      CREATE TABLE entries (
        id TEXT PRIMARY KEY, seq INTEGER NOT NULL, born INTEGER NOT NULL, key TEXT NOT NULL,
        type TEXT NOT NULL, category TEXT NOT NULL, deleted INTEGER, lives TEXT NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO entries SELECT * FROM old; DROP TABLE old;`,
    );
    db.close();
    const next = await serviceOn(s.root, { config: VARIANTS });
    try {
      assert.deepEqual(next.log.warnings(), []);
      const answer = await next.json(`/api/content.json?since=${cursor}&fields=id`);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.data, []);
      const columns = new DatabaseSync(join(state, "journal.sqlite"), { readOnly: true });
      await next.close();
      const names = (columns.prepare("SELECT name FROM pragma_table_info('entries')").all() as {
        name: string;
      }[]).map((c) => c.name);
      columns.close();
      assert.deepEqual(names.slice(-2), ["lang", "version"]);
    } finally {
      await next.close().catch(() => {});
      await s.close();
    }
  });
});

describe("the keys of SPEC 16.1: one line naming the key", () => {
  const parse = (body: string) =>
    parseConfig(`parameters:\n  service.content.config:\n${body}`, "/site/services.yaml");
  for (
    const [body, key] of [
      ["    generator: gatsby\n    plugins: { docs: ~ }\n", "generator"],
      ["    site_url: example.com\n    plugins: { docs: ~ }\n", "site_url"],
      ["    locales: [en, en]\n    plugins: { docs: ~ }\n", "locales"],
      ["    plugins: { docs: { route: docs } }\n", "plugins.docs.route"],
      ["    plugins: { docs: { generator: jekyl } }\n", "plugins.docs.generator"],
      ["    plugins: { docs: { variants: [{ lang: fr }] } }\n", "plugins.docs.variants[0].path"],
      [
        "    locales: [en]\n    plugins: { docs: { variants: [{ path: x, lang: fr }] } }\n",
        "plugins.docs.variants[0].lang",
      ],
      ["    plugins: { docs: { clean_urls: yes } }\n", "plugins.docs.clean_urls"],
    ] as const
  ) {
    it(`${key}`, () => {
      assert.throws(() => parse(body), (error: Error) => {
        assert.ok(error instanceof ConfigError, String(error));
        assert.ok(error.message.includes(`service.content.config.${key}:`), error.message);
        assert.equal(error.message.split("\n").length, 1);
        return true;
      });
    });
  }

  it("expands {lang} in a variant for every locale but the default", () => {
    const config = parse(
      "    locales: [en, fr, ja]\n    plugins:\n      docs: { variants: [{ path: 'i18n/{lang}/docs', route: '/{lang}/docs' }] }\n",
    );
    assert.deepEqual(config.plugins[0].variants, [
      { path: "i18n/fr/docs", route: "/fr/docs", lang: "fr" },
      { path: "i18n/ja/docs", route: "/ja/docs", lang: "ja" },
    ]);
  });
});

describe("content-feed check says what a crawl would see (SPEC 16.5)", () => {
  const CHECKED: SiteFiles = {
    "services.yaml": VARIANTS,
    "docs/intro.md": md(
      { title: "Intro" },
      `See [setup](/docs/guide/setup/), [the French](/fr/docs/intro#top) and [nothing](/docs/nope).\n\n${LONG}`,
    ),
    "docs/guide/setup.md": md({ title: "Setup" }, `Back to <a href="/docs/nope">nope</a>. ${LONG}`),
    "docs/mdx.md": md(
      { title: "Mdx" },
      `${LONG}\n\n::: tip\nStill here\n:::\n\n\`<Code />\` is fine.`,
    ),
    "i18n/fr/docs/intro.md": md({ title: "Introduction" }, `Bienvenue. ${LONG}`),
    "versions/1.0/intro.md": md({ title: "Intro (1.0)" }, `Welcome. ${LONG}`),
    "blog/2026-01-02-hello.md": md({ title: "Hello" }, LONG),
  };

  it("a translation by file name shares its folder's listing: its globs skip no file of it", () => {
    const [command, ...args] = RUNTIMES.deno("cli.ts");
    const config = "tests/fixtures/generators/hugo-filenames/services.yaml";
    const run = spawnSync(command, [...args, "check", "--json", "--config", config], {
      encoding: "utf8",
    });
    const report = JSON.parse(run.stdout);
    assert.ok(report.plugins.length > 1, run.stdout);
    for (const plugin of report.plugins) assert.deepEqual(plugin.skipped, {}, plugin.plugin);
  });

  it("names markup left in a text with the text around it, but not markup the page writes as text", async () => {
    const root = await writeSite({
      ...CHECKED,
      "services.yaml": VARIANTS.replace("      api: ~\n", "      pages: ~\n      api: ~\n"),
      "docs/intro.md": md({ title: "Intro" }, `Write &lt;Tabs&gt; around tabs. ${LONG}`),
      "docs/guide/setup.md": md({ title: "Setup" }, LONG),
      // Liquid in an HTML page: the text layer reads HTML pages as HTML.
      "pages/about.html": `<html><head><title>About</title></head><body><p>${LONG}</p>` +
        `<p>Read {% include callout.html %} first.</p></body></html>`,
    });
    try {
      const [command, ...args] = RUNTIMES.deno("cli.ts");
      const run = spawnSync(
        command,
        [...args, "check", "--json", "--config", join(root, "services.yaml")],
        { encoding: "utf8" },
      );
      assert.equal(run.status, 1, run.stderr);
      const markup = JSON.parse(run.stdout).findings.filter((f: Json) =>
        f.kind === "markup in text"
      );
      assert.deepEqual(markup.map((f: Json) => f.file), ["pages/about.html"]);
      assert.match(markup[0].detail, /Read \{% include callout\.html %\} first\./);
    } finally {
      await removeSite(root);
    }
  });

  it("counts the links that reach no item per target, names each file and line; exits 1", async () => {
    const root = await writeSite(CHECKED);
    try {
      const [command, ...args] = RUNTIMES.deno("cli.ts");
      const run = (...extra: string[]) =>
        spawnSync(command, [...args, "check", "--config", join(root, "services.yaml"), ...extra], {
          encoding: "utf8",
        });
      const table = run();
      assert.equal(table.status, 1, table.stderr);
      assert.match(
        table.stdout,
        /broken link: \/docs\/nope, reaches no item \(2 links: docs\/intro\.md:\d+, docs\/guide\/setup\.md:\d+\)/,
      );
      assert.doesNotMatch(
        table.stdout,
        /broken link: \/docs\/guide\/setup|broken link: \/fr\/docs\/intro/,
      );
      assert.match(
        table.stdout,
        /published as:\n {2}docs \(plain\) at \/docs, lang en, version 2\.0: docs, 3 items/,
      );
      assert.match(
        table.stdout,
        /docs:fr \(plain\) at \/fr\/docs, lang fr, version 2\.0: i18n\/fr\/docs, 1 items/,
      );
      const json = JSON.parse(run("--json").stdout);
      assert.equal(json.ok, false);
      const links = json.findings.filter((f: Json) => f.kind === "broken link");
      assert.deepEqual(links.map((f: Json) => [f.file, f.detail]), [
        ["docs/intro.md", "/docs/nope"],
        ["docs/guide/setup.md", "/docs/nope"],
      ]);
      assert.equal(links[0].line, 4);
    } finally {
      await removeSite(root);
    }
  });
});
