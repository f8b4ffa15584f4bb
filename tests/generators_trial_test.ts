// SPEC 16 on small sites a new user writes from each generator's documentation
// (issue 26's trial, not the fixtures' shapes), end to end: real files in a
// temporary folder, the feed's `url`s and what `content-feed check` reports.
// Each case names the documentation page its expectation comes from.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { checkContent } from "../src/cli/check.ts";
import { LONG, md, removeSite, serviceOn, type SiteFiles, writeSite } from "./helpers.ts";

/** The feed's url of each file (an item not in the feed: its item route's), and check's report. */
async function trial(files: SiteFiles) {
  const root = await writeSite(files);
  try {
    const site = await serviceOn(root);
    try {
      const urls: Record<string, string> = {};
      const feed = await site.json("/api/content.json?include=url&limit=10000");
      assert.equal(feed.status, 200);
      // deno-lint-ignore no-explicit-any
      const byId = new Map<string, string>(feed.body.data.map((item: any) => [item.id, item.url]));
      for (const item of site.api.index.items) {
        urls[item.file] = byId.get(item.id) ??
          (await site.json(`/${item.type}/${item.uri}.json?include=url`)).body.url;
      }
      const report = await checkContent(join(root, "services.yaml"));
      return { urls, warnings: site.log.warnings(), report };
    } finally {
      await site.close();
    }
  } finally {
    await removeSite(root);
  }
}

describe("generators: a new user's sites (issue 26 trial)", () => {
  it("docusaurus docs at the site's root with versions: current at /next, no //next (docusaurus.io/docs/versioning); slug: / warns nothing", async () => {
    const { urls, warnings, report } = await trial({
      "services.yaml": `parameters:
  service.content.config:
    site_url: https://quarry.example.dev
    generator: docusaurus
    site: .
    plugins:
      docs: { path: docs, route: / }
      api: ~
`,
      "versions.json": '["2.x", "1.x"]\n',
      // Docs-only mode (docusaurus.io/docs/docs-introduction#docs-only-mode): `slug: /` is the home.
      "docs/intro.md": md({ slug: "/" }, `# Next\n\nSee [install](/next/install). ${LONG}`),
      "docs/install.md": md({ title: "Install" }, LONG),
      "versioned_docs/version-2.x/intro.md": md({ slug: "/" }, `# Quarry\n\n${LONG}`),
      "versioned_docs/version-1.x/old-api.md": md({ title: "Old API" }, LONG),
    });
    assert.deepEqual(urls, {
      "versioned_docs/version-2.x/intro.md": "https://quarry.example.dev/",
      "docs/intro.md": "https://quarry.example.dev/next/",
      "docs/install.md": "https://quarry.example.dev/next/install",
      "versioned_docs/version-1.x/old-api.md": "https://quarry.example.dev/1.x/old-api",
    });
    assert.deepEqual(warnings, []);
    assert.deepEqual(report.warnings, []);
    assert.deepEqual(report.findings, []);
  });

  it("vitepress under a base path: links are read under it, .md links too (vitepress.dev/guide/routing#linking-between-pages); [param].md is no item", async () => {
    const { urls, report } = await trial({
      "services.yaml": `parameters:
  service.content.config:
    site_url: https://tidy.example.com/handbook
    generator: vitepress
    plugins:
      docs: { path: src, route: / }
      api: ~
`,
      "src/index.md": md(
        undefined,
        `# Handbook\n\n[Start](/guide/start), [again](/guide/start.md#top), [guide](/guide/), ` +
          `[with base](/handbook/guide/start.html), [nowhere](/guide/nope). ${LONG}`,
      ),
      "src/guide/index.md": md(undefined, `# Guide\n\n${LONG}`),
      "src/guide/start.md": md(undefined, `# Start\n\n${LONG}`),
      "src/packages/[pkg].md": md(undefined, `# Package\n\n${LONG}`),
      "src/packages/[pkg].paths.js": "export default { paths: () => [] };\n",
    });
    assert.deepEqual(urls, {
      "src/index.md": "https://tidy.example.com/handbook/",
      "src/guide/index.md": "https://tidy.example.com/handbook/guide/",
      "src/guide/start.md": "https://tidy.example.com/handbook/guide/start.html",
    });
    assert.deepEqual(
      report.findings.map((finding) => [finding.kind, finding.detail]),
      [["broken link", "/guide/nope"]],
    );
  });

  it("mkdocs without directory URLs: a link to a folder reaches its index.html; exclude_docs is not published (mkdocs.org configuration)", async () => {
    const { urls, report } = await trial({
      "services.yaml": `parameters:
  service.content.config:
    site_url: https://pyrite.example.org
    generator: mkdocs
    site: .
    plugins:
      docs: { path: documentation, route: / }
      api: ~
`,
      "mkdocs.yml": "docs_dir: documentation\nuse_directory_urls: false\n" +
        "exclude_docs: |\n  includes/\n  *.draft.md\n",
      "documentation/README.md": md(undefined, `# Pyrite\n\n[Guide](/guide/) ${LONG}`),
      "documentation/guide/README.md": md(undefined, `# Guide\n\n${LONG}`),
      "documentation/includes/abbr.md": md(undefined, `*[HTML]: Hyper Text. ${LONG}`),
      "documentation/notes.draft.md": md(undefined, `# Notes\n\n${LONG}`),
    });
    assert.deepEqual(urls, {
      "documentation/README.md": "https://pyrite.example.org/index.html",
      "documentation/guide/README.md": "https://pyrite.example.org/guide/index.html",
    });
    assert.deepEqual(report.findings, []);
  });

  it("starlight: a French page's slug names fr/ once (starlight.astro.build/reference/frontmatter#slug)", async () => {
    const { urls, report } = await trial({
      "services.yaml": `parameters:
  service.content.config:
    site_url: https://lantern.example.io
    generator: starlight
    locales: [en, fr]
    plugins:
      docs: { path: src/content/docs, route: / }
      api: ~
`,
      "src/content/docs/index.mdx": md(
        { title: "Lantern" },
        `[Personnalisé](/fr/guides/personnalise/) ${LONG}`,
      ),
      "src/content/docs/fr/index.mdx": md({ title: "Lantern" }, LONG),
      "src/content/docs/fr/guides/custom.md": md(
        { title: "Personnalisé", slug: "fr/guides/personnalise" },
        LONG,
      ),
    });
    assert.equal(
      urls["src/content/docs/fr/guides/custom.md"],
      "https://lantern.example.io/fr/guides/personnalise/",
    );
    assert.deepEqual(report.findings, []);
  });

  it("hugo: a page with build.render never is not an item (gohugo.io/content-management/build-options)", async () => {
    const { urls } = await trial({
      "services.yaml": `parameters:
  service.content.config:
    site_url: https://gopher.example.net
    generator: hugo
    site: .
    plugins:
      pages: { path: content, route: / }
      api: ~
`,
      "hugo.yaml": "baseURL: https://gopher.example.net/\n",
      "content/about.md": md({ title: "About" }, LONG),
      "content/snippets/notice.md": md({ title: "Notice", build: { render: "never" } }, LONG),
    });
    assert.deepEqual(urls, { "content/about.md": "https://gopher.example.net/about/" });
  });

  it("jekyll: a category's own _posts folder holds its posts (jekyllrb.com/docs/posts, /permalinks)", async () => {
    const { urls, report } = await trial({
      "services.yaml": `parameters:
  service.content.config:
    site_url: https://kettle.example.org
    generator: jekyll
    site: site
    plugins:
      pages: { path: site }
      blog: { path: site/_posts }
      api: ~
`,
      "site/_config.yml": "permalink: /:categories/:title/\n",
      "site/index.md": md({ title: "Home" }, `See [the fest](/events/summer-fest/). ${LONG}`),
      "site/_posts/2024-05-01-hello.md": md({ title: "Hello" }, LONG),
      "site/events/_posts/2024-06-01-summer-fest.md": md({ title: "Summer fest" }, LONG),
    });
    assert.deepEqual(urls, {
      "site/index.md": "https://kettle.example.org/",
      "site/_posts/2024-05-01-hello.md": "https://kettle.example.org/hello/",
      "site/events/_posts/2024-06-01-summer-fest.md":
        "https://kettle.example.org/events/summer-fest/",
    });
    assert.deepEqual(report.findings, []);
  });
});
