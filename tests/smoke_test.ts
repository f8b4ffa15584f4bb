import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createContentApi } from "../mod.ts";
import { FEED_KEYS, LONG, md, memoryLogger, site } from "./helpers.ts";

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
        cursor: s.api.cursor,
      });
      assert.deepEqual(Object.keys(body.data[0]), FEED_KEYS);
      assert.equal(body.data[0].id, "docs_doc_intro");
      assert.equal(body.data[0].link, "https://example.com/docs/intro.json");
    } finally {
      await s.close();
    }
  });
});

describe("the sample site (content/services.yaml)", () => {
  const config = fileURLToPath(new URL("../content/services.yaml", import.meta.url));
  // deno-lint-ignore no-explicit-any
  async function withSample(run: (get: (path: string) => Promise<any>) => Promise<void>) {
    const log = memoryLogger();
    const api = await createContentApi({ config, baseUrl: "https://example.com", logger: log });
    try {
      await run(async (path) => {
        const response = await api.fetch(new Request(`https://example.com${path}`));
        assert.equal(response.status, 200, path);
        return await response.json();
      });
      assert.deepEqual(log.warnings(), []);
    } finally {
      await api.close();
    }
  }

  it("feeds every plugin's items: drafts, unlisted, excluded, partial and attachment files left out", async () => {
    await withSample(async (get) => {
      const feed = await get("/api/content.json");
      const ids: string[] = feed.data.map((item: { id: string }) => item.id);
      const perType: Record<string, number> = {};
      for (const item of feed.data) perType[item.type] = (perType[item.type] ?? 0) + 1;
      assert.deepEqual(perType, { academy: 15, blog: 5, docs: 17, faq: 5, pages: 6 });
      assert.equal(feed.meta.total, 48);
      for (
        const left of [
          "blog_post_2025-12-05-roadmap-2026", // draft: true
          "blog_post_2026-01-22-internal-benchmarks", // unlisted: true
          "docs_doc_drafts_wip", // exclude: ["drafts/**"]
          "docs_doc_reference_internals", // indexable: false
          "docs_doc_reference_errors", // a body under 100 characters
        ]
      ) assert.ok(!ids.includes(left), left);
      // Not _partials/_snippet.md, guide/_attachments/diagram.md, drafts/wip.md (excluded),
      // reference/internals.md (indexable: false) nor reference/errors.md (too short).
      assert.deepEqual(ids.filter((id) => id.startsWith("docs_")), [
        "docs_doc_guide",
        "docs_doc_guide_getting-started",
        "docs_doc_guide_guia-rapida",
        "docs_doc_guide_configuration",
        "docs_doc_guide_configuration_plugins",
        "docs_doc_guide_configuration_environment",
        "docs_doc_reference",
        "docs_doc_reference_cli",
        "docs_doc_reference_api",
        "docs_doc_deploy",
        "docs_doc_deploy_static-hosts",
        "docs_doc_deploy_docker",
        "docs_doc_orphaned_note",
        // Its version 1.0 and its Spanish translation, each page a variant of one above.
        "docs_doc_1-0_guide",
        "docs_doc_1-0_guide_getting-started",
        "docs_doc_es_guide",
        "docs_doc_es_guide_getting-started",
      ]);
      const variants = await get(
        "/api/content.json?type=docs&lang=es&include=url,lang,version,variant_of&fields=id,url,lang,version,variant_of",
      );
      assert.deepEqual(variants.data, [
        {
          id: "docs_doc_es_guide",
          url: "https://example.com/es/docs/guide",
          lang: "es",
          version: "2.0",
          variant_of: "docs_doc_guide",
        },
        {
          id: "docs_doc_es_guide_getting-started",
          url: "https://example.com/es/docs/guide/getting-started",
          lang: "es",
          version: "2.0",
          variant_of: "docs_doc_guide_getting-started",
        },
      ]);
      const older = await get("/docs/1-0/guide/getting-started.json");
      assert.deepEqual([older.title, older.parent], [
        "Getting started (Lumen 1.0)",
        "docs_doc_1-0_guide",
      ]);
      // A folder without an own file is a plain path segment: its items have no parent.
      assert.equal((await get("/docs/orphaned/note.json")).parent, null);
    });
  });

  it("serves the four new layouts: a folder-style post, a folder's index.md, MDX, a title from # heading", async () => {
    await withSample(async (get) => {
      const feed = await get("/api/content.json");
      const byId = new Map(feed.data.map((item: { id: string }) => [item.id, item]));
      const expected = [
        {
          id: "blog_post_2026-04-02-lumen-1-1",
          uri: "2026-04-02-lumen-1-1",
          title: "Lumen 1.1: search that works offline",
          description:
            "Lumen 1.1 ships the first item of our 2026 roadmap: search that works offline. Every build now writes a compact search index next to the pages, and the default theme's search box answers from it in a few milliseconds, with no server and no third-party service.",
          date: "2026-04-02",
        },
        {
          id: "docs_doc_deploy",
          uri: "deploy",
          title: "Deploying Lumen",
          description:
            "A Lumen site can be published in two ways: as static files that any web host serves, or as a small server that also answers the content feed and preview links. This section covers both, starting with the simplest one.",
          date: "2026-04-06",
        },
        {
          id: "docs_doc_deploy_static-hosts",
          uri: "deploy/static-hosts",
          title: "Static hosts",
          description:
            "Every host on this page serves the same dist/ folder that lumen build writes, so you can move a site from one host to another without changing a single content file.",
          date: "2026-04-06",
        },
        {
          id: "pages_page_comunidad",
          uri: "comunidad",
          title: "La comunidad de Lumen en español",
          description:
            "Lumen se escribe en cuatro ciudades, y una de ellas es Valencia. Desde allí Ana coordina la comunidad hispanohablante: traduce la documentación, revisa las preguntas del foro en español y organiza una llamada abierta el primer jueves de cada mes.",
          date: "2026-04-10",
        },
      ];
      for (const want of expected) {
        // deno-lint-ignore no-explicit-any
        const item = byId.get(want.id) as any;
        assert.ok(item, `${want.id} is in the feed`);
        const got = {
          id: item.id,
          uri: item.uri,
          title: item.title,
          description: item.description,
          date: item.date,
        };
        assert.deepEqual(got, want);
        assert.doesNotMatch(item.description, /import|:::|[<>*`#]|\]\(/, want.id);
        const [type] = want.id.split("_");
        assert.equal(item.link, `https://example.com/${type}/${want.uri}.json`);
        const form = await get(`/${type}/${want.uri}.json`);
        assert.deepEqual(
          { uri: form.uri, title: form.title, description: form.description, date: form.date },
          { uri: want.uri, title: want.title, description: want.description, date: want.date },
        );
      }
      // docs/deploy/index.md is the folder's own file: the parent of the pages beside it.
      const deploy = await get("/docs/deploy.json");
      assert.equal(deploy.parent, null);
      assert.deepEqual(deploy.children, ["docs_doc_deploy_static-hosts", "docs_doc_deploy_docker"]);
      const mdx = await get("/docs/deploy/static-hosts.json");
      assert.equal(mdx.parent, "docs_doc_deploy");
      assert.match(mdx.body, /^import Tabs from '@theme\/Tabs';\n/);
      const docker = await get("/docs/deploy/docker.json");
      assert.deepEqual(
        [docker.uri, docker.title, docker.date, docker.parent],
        ["deploy/docker", "Lumen en un contenedor", "2026-04-08", "docs_doc_deploy"],
      );
      // The folder-style post keeps its image beside it, referenced from the body, not as a field.
      const post = await get("/blog/2026-04-02-lumen-1-1.json");
      assert.equal(post.image, null);
      assert.match(post.body, /^!\[[^\]]+\]\(\.\/cover\.png\)\n/);
      // The page's title comes from its first "# " heading, inline markup removed.
      const page = await get("/pages/comunidad.json");
      assert.match(page.body, /^# La comunidad de Lumen \*en español\*\n/);
    });
  });
});
