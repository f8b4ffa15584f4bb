// SPEC 16 (fidelity to the site generator) on sites in each generator's own shape
// (tests/fixtures/generators/<name>/, each with the services.yaml a user would write):
// every file is the item its generator publishes (url, title, lang, version,
// variant_of), files that are not pages are not items, every root-relative link the
// pages write reaches exactly one item, and no text holds markup.
//
// The tables below are written from each generator's documentation, not from this
// code: the comment above each group names the rule and the page it comes from.
// Ids follow SPEC 3 and 4 (slugs of the file and folder names, front-matter `slug`
// through slugify) and SPEC 16.3 (a variant's items have their uri prefixed by the
// variant's lang and version slugs; locale folders inside the plugin's folder
// already carry theirs).
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { cp, mkdtemp, readdir, readFile, rm, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serviceOn, type TestSite } from "./helpers.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures/generators/", import.meta.url));
const FIXED_TIME = new Date("2026-01-01T00:00:00Z");

/** What the feed must say of one file (SPEC 4 `url`, `title`; SPEC 16.3 the rest). */
interface Page {
  id: string;
  url: string;
  title: string;
  lang: string | null;
  version: string | null;
  variant_of: string | null;
}

/** A fixture: its folder, its pages by file (relative to the folder), its non-pages. */
interface Fixture {
  name: string;
  pages: Record<string, Page>;
  /** Files a generator never publishes: partials, drafts, `permalink: false`. */
  notPages: string[];
}

/** Variant fields of a page: its locale, its version, the id it has in the default variant. */
interface Variant {
  lang?: string;
  version?: string;
  of?: string;
}

/** A row maker for one site: `page(id, path, title, variant)` with the path on `siteUrl`. */
function siteOf(siteUrl: string, defaults: Variant = {}) {
  return (id: string, path: string, title: string, variant: Variant = {}): Page => {
    const { lang, version, of } = { ...defaults, ...variant };
    return {
      id,
      url: siteUrl + path,
      title,
      lang: lang ?? null,
      version: version ?? null,
      variant_of: of ?? null,
    };
  };
}

// ---------------------------------------------------------------------------
// Docusaurus (docs and blog plugins, versions.json, i18n/fr)
// ---------------------------------------------------------------------------

const docusaurus = siteOf("https://docs.example.org", { lang: "en" });
const DOCUSAURUS: Fixture = {
  name: "docusaurus",
  pages: {
    // Versioning (https://docusaurus.io/docs/versioning, "Overview"): the newest
    // version of versions.json is served at the docs route, /docs/…
    // Doc URLs (https://docusaurus.io/docs/create-doc, docs-introduction "Doc URLs"):
    // number prefixes are stripped from file and folder names (01-intro → intro,
    // 02-guides → guides); `slug: /` is the version's home; an absolute slug is a path
    // from the version's route; a relative slug replaces the file name in its folder;
    // `id` replaces the file name; index.md, README.md and a file named like its
    // folder are the folder's URL, which ends with "/" (plugin-content-docs slug.ts:
    // the folder slug keeps its trailing slash).
    "versioned_docs/version-2.0/01-intro.md": docusaurus(
      "docs_doc_01-intro",
      "/docs/",
      "Introduction",
      { version: "2.0" },
    ),
    "versioned_docs/version-2.0/02-guides/index.md": docusaurus(
      "docs_doc_02-guides",
      "/docs/guides/",
      "Guides",
      { version: "2.0" },
    ),
    "versioned_docs/version-2.0/02-guides/01-install.md": docusaurus(
      "docs_doc_02-guides_01-install",
      "/docs/guides/install",
      "Installation",
      { version: "2.0" },
    ),
    // `id: configuration` in 02-configure.md: the URL takes the id, the feed's uri the file name.
    "versioned_docs/version-2.0/02-guides/02-configure.md": docusaurus(
      "docs_doc_02-guides_02-configure",
      "/docs/guides/configuration",
      "Configuration",
      { version: "2.0" },
    ),
    // `slug: /upgrade`: absolute, from the version's route.
    "versioned_docs/version-2.0/02-guides/04-upgrade.md": docusaurus(
      "docs_doc_02-guides_upgrade",
      "/docs/upgrade",
      "Upgrade guide",
      { version: "2.0" },
    ),
    // concepts/concepts.md: a file named like its folder is the folder's URL.
    "versioned_docs/version-2.0/concepts/concepts.md": docusaurus(
      "docs_doc_concepts_concepts",
      "/docs/concepts/",
      "Concepts",
      { version: "2.0" },
    ),
    // `slug: evaluation`: relative to the file's folder.
    "versioned_docs/version-2.0/concepts/flag-evaluation.md": docusaurus(
      "docs_doc_concepts_evaluation",
      "/docs/concepts/evaluation",
      "How flags are evaluated",
      { version: "2.0" },
    ),
    "versioned_docs/version-2.0/reference/README.md": docusaurus(
      "docs_doc_reference",
      "/docs/reference/",
      "Reference",
      { version: "2.0" },
    ),
    "versioned_docs/version-2.0/reference/cli.md": docusaurus(
      "docs_doc_reference_cli",
      "/docs/reference/cli",
      "Command line",
      { version: "2.0" },
    ),
    // `id: getting-started` in GettingStarted.md (the example): the id, not the name.
    "versioned_docs/version-2.0/GettingStarted.md": docusaurus(
      "docs_doc_gettingstarted",
      "/docs/getting-started",
      "Getting started",
      { version: "2.0" },
    ),

    // Versioning, "Overview": an older version at /docs/<version>/…; its items'
    // uri is prefixed with the version's slug (SPEC 16.3).
    "versioned_docs/version-1.0/01-intro.md": docusaurus(
      "docs_doc_1-0_01-intro",
      "/docs/1.0/",
      "Introduction",
      { version: "1.0", of: "docs_doc_01-intro" },
    ),
    "versioned_docs/version-1.0/02-guides/01-install.md": docusaurus(
      "docs_doc_1-0_02-guides_01-install",
      "/docs/1.0/guides/install",
      "Install Beacon 1",
      { version: "1.0", of: "docs_doc_02-guides_01-install" },
    ),
    // A page only 1.0 has: variant_of is the id it would have in 2.0.
    "versioned_docs/version-1.0/legacy-api.md": docusaurus(
      "docs_doc_1-0_legacy-api",
      "/docs/1.0/legacy-api",
      "Legacy API",
      { version: "1.0", of: "docs_doc_legacy-api" },
    ),

    // Versioning, "Overview": the docs folder itself is the unreleased version
    // (named `current`, plugin-content-docs constants.ts) at /docs/next/…
    "docs/01-intro.md": docusaurus(
      "docs_doc_current_01-intro",
      "/docs/next/",
      "Introduction",
      { version: "current", of: "docs_doc_01-intro" },
    ),
    "docs/02-guides/index.md": docusaurus(
      "docs_doc_current_02-guides",
      "/docs/next/guides/",
      "Guides",
      { version: "current", of: "docs_doc_02-guides" },
    ),
    "docs/02-guides/01-install.md": docusaurus(
      "docs_doc_current_02-guides_01-install",
      "/docs/next/guides/install",
      "Installation",
      { version: "current", of: "docs_doc_02-guides_01-install" },
    ),
    "docs/02-guides/02-configure.md": docusaurus(
      "docs_doc_current_02-guides_02-configure",
      "/docs/next/guides/configuration",
      "Configuration",
      { version: "current", of: "docs_doc_02-guides_02-configure" },
    ),
    // New in the unreleased version: MDX with <Tabs> indented in a list, an import of a partial.
    "docs/02-guides/03-deploy.mdx": docusaurus(
      "docs_doc_current_02-guides_03-deploy",
      "/docs/next/guides/deploy",
      "Deploy a relay",
      { version: "current", of: "docs_doc_02-guides_03-deploy" },
    ),
    "docs/02-guides/04-upgrade.md": docusaurus(
      "docs_doc_current_02-guides_upgrade",
      "/docs/next/upgrade",
      "Upgrade guide",
      { version: "current", of: "docs_doc_02-guides_upgrade" },
    ),
    "docs/concepts/concepts.md": docusaurus(
      "docs_doc_current_concepts_concepts",
      "/docs/next/concepts/",
      "Concepts",
      { version: "current", of: "docs_doc_concepts_concepts" },
    ),
    "docs/concepts/flag-evaluation.md": docusaurus(
      "docs_doc_current_concepts_evaluation",
      "/docs/next/concepts/evaluation",
      "How flags are evaluated",
      { version: "current", of: "docs_doc_concepts_evaluation" },
    ),
    "docs/reference/README.md": docusaurus(
      "docs_doc_current_reference",
      "/docs/next/reference/",
      "Reference",
      { version: "current", of: "docs_doc_reference" },
    ),
    "docs/reference/cli.md": docusaurus(
      "docs_doc_current_reference_cli",
      "/docs/next/reference/cli",
      "Command line",
      { version: "current", of: "docs_doc_reference_cli" },
    ),
    "docs/GettingStarted.md": docusaurus(
      "docs_doc_current_gettingstarted",
      "/docs/next/getting-started",
      "Getting started",
      { version: "current", of: "docs_doc_gettingstarted" },
    ),
    "docs/whats-new.md": docusaurus(
      "docs_doc_current_whats-new",
      "/docs/next/whats-new",
      "What's new",
      { version: "current", of: "docs_doc_whats-new" },
    ),

    // i18n (https://docusaurus.io/docs/i18n/tutorial, "Translate Markdown files"):
    // i18n/<locale>/docusaurus-plugin-content-docs/current/ translates the docs
    // folder and version-<v>/ a version, published under /<locale>/.
    "i18n/fr/docusaurus-plugin-content-docs/current/01-intro.md": docusaurus(
      "docs_doc_fr_current_01-intro",
      "/fr/docs/next/",
      "Introduction",
      { lang: "fr", version: "current", of: "docs_doc_01-intro" },
    ),
    "i18n/fr/docusaurus-plugin-content-docs/current/02-guides/01-install.md": docusaurus(
      "docs_doc_fr_current_02-guides_01-install",
      "/fr/docs/next/guides/install",
      "Installation",
      { lang: "fr", version: "current", of: "docs_doc_02-guides_01-install" },
    ),
    "i18n/fr/docusaurus-plugin-content-docs/version-2.0/01-intro.md": docusaurus(
      "docs_doc_fr_01-intro",
      "/fr/docs/",
      "Introduction",
      { lang: "fr", version: "2.0", of: "docs_doc_01-intro" },
    ),
    "i18n/fr/docusaurus-plugin-content-docs/version-2.0/02-guides/01-install.md": docusaurus(
      "docs_doc_fr_02-guides_01-install",
      "/fr/docs/guides/install",
      "Installation",
      { lang: "fr", version: "2.0", of: "docs_doc_02-guides_01-install" },
    ),
    "i18n/fr/docusaurus-plugin-content-docs/version-2.0/02-guides/02-configure.md": docusaurus(
      "docs_doc_fr_02-guides_02-configure",
      "/fr/docs/guides/configuration",
      "Configuration",
      { lang: "fr", version: "2.0", of: "docs_doc_02-guides_02-configure" },
    ),

    // Blog (https://docusaurus.io/docs/blog, "Blog post date"): a YYYY-MM-DD prefix
    // of the file or folder name gives /blog/YYYY/MM/DD/<rest of the name>; a
    // folder post is its index.md; `slug` replaces the whole path after the blog's
    // route; a name without a date is the path.
    "blog/2021-08-26-welcome/index.md": docusaurus(
      "blog_post_2021-08-26-welcome",
      "/blog/2021/08/26/welcome",
      "Welcome to the Beacon blog",
    ),
    "blog/2022-08-25-release.md": docusaurus(
      "blog_post_2022-08-25-release",
      "/blog/2022/08/25/release",
      "Beacon 2.0 is out",
    ),
    "blog/2023-03-14-evaluation-engine.md": docusaurus(
      "blog_post_new-evaluation-engine",
      "/blog/new-evaluation-engine",
      "A new evaluation engine",
    ),
    "blog/2024-01-09-year-in-review.mdx": docusaurus(
      "blog_post_2024-01-09-year-in-review",
      "/blog/2024/01/09/year-in-review",
      "Our year in review",
    ),
    "blog/roadmap.md": docusaurus("blog_post_roadmap", "/blog/roadmap", "Roadmap"),
    // i18n: i18n/<locale>/docusaurus-plugin-content-blog/ translates the blog.
    "i18n/fr/docusaurus-plugin-content-blog/2022-08-25-release.md": docusaurus(
      "blog_post_fr_2022-08-25-release",
      "/fr/blog/2022/08/25/release",
      "Beacon 2.0 est disponible",
      { lang: "fr", of: "blog_post_2022-08-25-release" },
    ),
  },
  // create-doc: "All files prefixed with an underscore (_) under the docs directory
  // are treated as partial pages and will be ignored by default" (the blog's default
  // exclude is the same); `draft: true` is not published in production.
  notPages: [
    "docs/02-guides/_shared-prerequisites.md",
    "versioned_docs/version-2.0/02-guides/_shared-prerequisites.md",
    "docs/02-guides/05-feature-previews.md",
    "blog/_post-template.md",
  ],
};

// ---------------------------------------------------------------------------
// Hugo
// ---------------------------------------------------------------------------

const hugo = siteOf("https://strata.example.org", { lang: "en" });
const HUGO: Fixture = {
  name: "hugo",
  pages: {
    // URL management (https://gohugo.io/content-management/urls/): the URL is the
    // file's path in the content directory with a trailing slash; sections
    // (_index.md, https://gohugo.io/content-management/sections/) and page bundles
    // (index.md, https://gohugo.io/content-management/page-bundles/) are their
    // folder's URL; the home page is the top _index.md.
    // Multilingual (https://gohugo.io/content-management/multilingual/,
    // "Translation by content directory"): each language's contentDir; the default
    // language has no prefix unless defaultContentLanguageInSubdir
    // (https://gohugo.io/configuration/languages/).
    "content/en/_index.md": hugo("pages_page_index", "/", "Strata"),
    "content/en/docs/_index.md": hugo("pages_page_docs", "/docs/", "Documentation"),
    // A section page whose body is empty: a page of its own (SPEC 16.4), not in the feed.
    // Dots in the path are kept (v3.5).
    "content/en/docs/v3.5/_index.md": hugo("pages_page_docs_v3-5", "/docs/v3.5/", "v3.5 docs"),
    "content/en/docs/v3.5/op-guide/_index.md": hugo(
      "pages_page_docs_v3-5_op-guide",
      "/docs/v3.5/op-guide/",
      "Operations guide",
    ),
    "content/en/docs/v3.5/op-guide/clustering.md": hugo(
      "pages_page_docs_v3-5_op-guide_clustering",
      "/docs/v3.5/op-guide/clustering/",
      "Clustering guide",
    ),
    // URL management, "slug": front matter slug replaces the last segment of the path.
    "content/en/docs/v3.5/op-guide/runtime-config.md": hugo(
      "pages_page_docs_v3-5_op-guide_runtime-configuration",
      "/docs/v3.5/op-guide/runtime-configuration/",
      "Runtime reconfiguration",
    ),
    // Underscores are kept in the path.
    "content/en/docs/v3.5/dev-guide/api_grpc_gateway.md": hugo(
      "pages_page_docs_v3-5_dev-guide_api-grpc-gateway",
      "/docs/v3.5/dev-guide/api_grpc_gateway/",
      "gRPC gateway",
    ),
    // A leaf bundle: index.md with its resources beside it.
    "content/en/docs/tutorials/first-cluster/index.md": hugo(
      "pages_page_docs_tutorials_first-cluster",
      "/docs/tutorials/first-cluster/",
      "Your first cluster",
    ),
    // disablePathToLower (https://gohugo.io/configuration/all/, default false): paths
    // are lower-cased.
    "content/en/docs/FAQ.md": hugo(
      "pages_page_docs_faq",
      "/docs/faq/",
      "Frequently asked questions",
    ),
    "content/en/posts/_index.md": hugo("pages_page_posts", "/posts/", "Blog"),
    // Permalinks (https://gohugo.io/configuration/permalinks/): [permalinks.page]
    // posts = '/blog/:year/:month/:slug/' applies to the posts section's pages (not to
    // its section page); :year and :month from front matter `date`; :slug is front
    // matter `slug`, else the title, made URL-safe (lower case, spaces to hyphens,
    // dots kept).
    "content/en/posts/how_to_debug_x.md": hugo(
      "pages_page_posts_how-to-debug-x",
      "/blog/2023/05/how-to-debug-x/",
      "How to debug X",
    ),
    "content/en/posts/release-notes-3.5.md": hugo(
      "pages_page_posts_strata-3-5",
      "/blog/2024/01/strata-3.5/",
      "Strata 3.5 released",
    ),
    "content/en/posts/2024-bundles/index.md": hugo(
      "pages_page_posts_2024-bundles",
      "/blog/2024/03/bundles-in-practice/",
      "Bundles in practice",
    ),
    // URL management, "url": front matter url overrides the whole path.
    "content/en/about.md": hugo("pages_page_about", "/company/about-us/", "About the project"),

    // The second language's contentDir, under /de/.
    "content/de/_index.md": hugo("pages_page_de_index", "/de/", "Strata", {
      lang: "de",
      of: "pages_page_index",
    }),
    "content/de/docs/_index.md": hugo("pages_page_de_docs", "/de/docs/", "Dokumentation", {
      lang: "de",
      of: "pages_page_docs",
    }),
    "content/de/docs/v3.5/op-guide/clustering.md": hugo(
      "pages_page_de_docs_v3-5_op-guide_clustering",
      "/de/docs/v3.5/op-guide/clustering/",
      "Cluster-Anleitung",
      { lang: "de", of: "pages_page_docs_v3-5_op-guide_clustering" },
    ),
    // The permalink pattern under the language's prefix; :slug from the German title.
    "content/de/posts/how_to_debug_x.md": hugo(
      "pages_page_de_posts_how-to-debug-x",
      "/de/blog/2023/05/fehlersuche-bei-watches/",
      "Fehlersuche bei Watches",
      { lang: "de", of: "pages_page_posts_how-to-debug-x" },
    ),
  },
  // Drafts are built only with --buildDrafts (https://gohugo.io/methods/page/draft/).
  // Other files of a leaf bundle, Markdown too, at any depth, are its resources, not pages
  // (https://gohugo.io/content-management/page-bundles/#leaf-bundles).
  notPages: [
    "content/en/posts/upcoming-release.md",
    "content/en/posts/2024-bundles/captions.md",
    "content/en/posts/2024-bundles/notes/review.md",
  ],
};

const hugoByName = siteOf("https://hugo-i18n.example.org", { lang: "en" });
const HUGO_FILENAMES: Fixture = {
  name: "hugo-filenames",
  pages: {
    // Multilingual, "Translation by file name": about.de.md is the German page of
    // about.md; a file without a language code (or with the default's, setup.en.md)
    // is the default language. defaultContentLanguageInSubdir: true publishes the
    // default language under /en/ too (https://gohugo.io/configuration/languages/).
    "content/_index.md": hugoByName("pages_page_index", "/en/", "Orchard"),
    "content/_index.de.md": hugoByName("pages_page_de_index", "/de/", "Orchard", {
      lang: "de",
      of: "pages_page_index",
    }),
    "content/about.md": hugoByName("pages_page_about", "/en/about/", "About Orchard"),
    "content/about.de.md": hugoByName("pages_page_de_about", "/de/about/", "Über Orchard", {
      lang: "de",
      of: "pages_page_about",
    }),
    "content/guides/_index.md": hugoByName("pages_page_guides", "/en/guides/", "Guides"),
    "content/guides/setup.en.md": hugoByName(
      "pages_page_guides_setup",
      "/en/guides/setup/",
      "Setup",
    ),
    "content/guides/setup.de.md": hugoByName(
      "pages_page_de_guides_setup",
      "/de/guides/setup/",
      "Einrichtung",
      { lang: "de", of: "pages_page_guides_setup" },
    ),
    "content/guides/troubleshooting.md": hugoByName(
      "pages_page_guides_troubleshooting",
      "/en/guides/troubleshooting/",
      "Troubleshooting",
    ),
  },
  notPages: [],
};

// ---------------------------------------------------------------------------
// Starlight
// ---------------------------------------------------------------------------

const starlight = siteOf("https://lumen.example.org");
const STARLIGHT: Fixture = {
  name: "starlight",
  pages: {
    // i18n (https://starlight.astro.build/guides/i18n/): with defaultLocale 'en',
    // each locale is a folder of src/content/docs/ and its pages are under
    // /<locale>/. A page's URL is its path with each segment slugified the way
    // GitHub slugs headings (Astro content collections: lower case, punctuation but
    // "-" and "_" dropped, so "v2.0-migration" → "v20-migration"), index the
    // folder's URL, with a trailing slash (build.format 'directory').
    "src/content/docs/en/index.mdx": starlight("docs_doc_en", "/en/", "Lumen", { lang: "en" }),
    "src/content/docs/en/getting-started.mdx": starlight(
      "docs_doc_en_getting-started",
      "/en/getting-started/",
      "Getting started",
      { lang: "en" },
    ),
    "src/content/docs/en/guides/configuration.md": starlight(
      "docs_doc_en_guides_configuration",
      "/en/guides/configuration/",
      "Configuration",
      { lang: "en" },
    ),
    "src/content/docs/en/guides/v2.0-migration.md": starlight(
      "docs_doc_en_guides_v2-0-migration",
      "/en/guides/v20-migration/",
      "Migrating to 2.0",
      { lang: "en" },
    ),
    "src/content/docs/en/reference/index.md": starlight(
      "docs_doc_en_reference",
      "/en/reference/",
      "Reference",
      { lang: "en" },
    ),
    "src/content/docs/en/reference/CLI_Commands.md": starlight(
      "docs_doc_en_reference_cli-commands",
      "/en/reference/cli_commands/",
      "Command line",
      { lang: "en" },
    ),
    "src/content/docs/fr/index.mdx": starlight("docs_doc_fr", "/fr/", "Lumen", {
      lang: "fr",
      of: "docs_doc_en",
    }),
    "src/content/docs/fr/getting-started.mdx": starlight(
      "docs_doc_fr_getting-started",
      "/fr/getting-started/",
      "Premiers pas",
      { lang: "fr", of: "docs_doc_en_getting-started" },
    ),
    "src/content/docs/fr/guides/configuration.md": starlight(
      "docs_doc_fr_guides_configuration",
      "/fr/guides/configuration/",
      "Configuration",
      { lang: "fr", of: "docs_doc_en_guides_configuration" },
    ),
    "src/content/docs/ja/index.mdx": starlight("docs_doc_ja", "/ja/", "Lumen", {
      lang: "ja",
      of: "docs_doc_en",
    }),
    "src/content/docs/ja/getting-started.mdx": starlight(
      "docs_doc_ja_getting-started",
      "/ja/getting-started/",
      "はじめに",
      { lang: "ja", of: "docs_doc_en_getting-started" },
    ),
  },
  // Starlight's docs loader reads "**/[^_]*.{md,mdx,…}": a file or folder starting
  // with "_" is not a page.
  notPages: ["src/content/docs/en/_partials/shared-note.mdx"],
};

const starlightRoot = siteOf("https://root-locale.example.org", { lang: "en" });
const STARLIGHT_ROOT: Fixture = {
  name: "starlight-root",
  pages: {
    // i18n, "Use a root locale": the root locale's pages are at the root of
    // src/content/docs/ and of the site, the others in their folder.
    "src/content/docs/index.mdx": starlightRoot("docs_doc_index", "/", "Pathfinder"),
    "src/content/docs/guides/example.md": starlightRoot(
      "docs_doc_guides_example",
      "/guides/example/",
      "Example guide",
    ),
    // Frontmatter reference (https://starlight.astro.build/reference/frontmatter/,
    // "slug"): the page's path from the site's root, as written.
    "src/content/docs/guides/project-structure.md": starlightRoot(
      "docs_doc_guides_guides-structure",
      "/guides/structure/",
      "Project structure",
    ),
    "src/content/docs/release-notes.md": starlightRoot(
      "docs_doc_changelog",
      "/changelog/",
      "Changelog",
    ),
    "src/content/docs/fr/index.mdx": starlightRoot("docs_doc_fr", "/fr/", "Pathfinder", {
      lang: "fr",
      of: "docs_doc_index",
    }),
    "src/content/docs/fr/guides/example.md": starlightRoot(
      "docs_doc_fr_guides_example",
      "/fr/guides/example/",
      "Guide d'exemple",
      { lang: "fr", of: "docs_doc_guides_example" },
    ),
  },
  notPages: [],
};

// ---------------------------------------------------------------------------
// VitePress
// ---------------------------------------------------------------------------

const vitepress = siteOf("https://tidy.example.org", { lang: "en" });
const VITEPRESS: Fixture = {
  name: "vitepress",
  pages: {
    // Routing (https://vitepress.dev/guide/routing, "File-Based Routing"): a page is
    // its path with .html, index.md its folder's URL ("accessible as /guide/"), case
    // kept. i18n (https://vitepress.dev/guide/i18n): the root locale at the root, fr/
    // under /fr/.
    "docs/index.md": vitepress("docs_doc_index", "/", "Tidy"),
    "docs/guide/index.md": vitepress("docs_doc_guide", "/guide/", "Guide"),
    "docs/guide/getting-started.md": vitepress(
      "docs_doc_guide_getting-started",
      "/guide/getting-started.html",
      "Getting started",
    ),
    // Frontmatter config (https://vitepress.dev/reference/frontmatter-config, "title"):
    // front matter title, not the heading.
    "docs/guide/configuration.md": vitepress(
      "docs_doc_guide_configuration",
      "/guide/configuration.html",
      "Configuration",
    ),
    "docs/reference/API.md": vitepress(
      "docs_doc_reference_api",
      "/reference/API.html",
      "API reference",
    ),
    // Using Vue in Markdown (https://vitepress.dev/guide/using-vue): the <script setup>
    // and <style> blocks are not content; the title is the heading after them (SPEC 16.4).
    "docs/team.md": vitepress("docs_doc_team", "/team.html", "Meet the team"),
    "docs/fr/index.md": vitepress("docs_doc_fr", "/fr/", "Tidy", {
      lang: "fr",
      of: "docs_doc_index",
    }),
    "docs/fr/guide/getting-started.md": vitepress(
      "docs_doc_fr_guide_getting-started",
      "/fr/guide/getting-started.html",
      "Premiers pas",
      { lang: "fr", of: "docs_doc_guide_getting-started" },
    ),
    // Routing, "Generating Clean URL": with cleanUrls (plugin option clean_urls) no .html.
    "blog/index.md": vitepress("blog_post_index", "/blog/", "Blog"),
    "blog/release-2.0.md": vitepress("blog_post_release-2-0", "/blog/release-2.0", "Tidy 2.0"),
  },
  notPages: [],
};

// ---------------------------------------------------------------------------
// Jekyll
// ---------------------------------------------------------------------------

const jekyll = siteOf("https://kettle.example.org");
const JEKYLL: Fixture = {
  name: "jekyll",
  pages: {
    // Permalinks (https://jekyllrb.com/docs/permalinks/): `permalink: pretty` in
    // _config.yml; for pages the style's :title is the file's basename and categories
    // and dates are dropped, so about.md is /about/ and an index is its folder.
    "site/index.md": jekyll("pages_page_index", "/", "Home"),
    "site/about.md": jekyll("pages_page_about", "/about/", "About"),
    // "Front Matter": a page's permalink is its URL, from the site's root.
    "site/contact.md": jekyll("pages_page_contact", "/contact-us/", "Contact"),
    "site/docs/index.md": jekyll("pages_page_docs", "/docs/", "Documentation"),
    "site/docs/install.md": jekyll("pages_page_docs_install", "/docs/install/", "Installation"),
    // "Built-in formats": pretty is /:categories/:year/:month/:day/:title/; the date
    // and title come from the file name (https://jekyllrb.com/docs/posts/), several
    // categories make a hierarchy, none is left out.
    "site/_posts/2024-01-15-hello-world.md": jekyll(
      "blog_post_2024-01-15-hello-world",
      "/release/2024/01/15/hello-world/",
      "Hello, world",
    ),
    "site/_posts/2024-02-20-second-post.md": jekyll(
      "blog_post_2024-02-20-second-post",
      "/2024/02/20/second-post/",
      "Templates that stay readable",
    ),
    "site/_posts/2024-03-05-kettle-2.md": jekyll(
      "blog_post_2024-03-05-kettle-2",
      "/announcements/kettle-2/",
      "Kettle 2.0",
    ),
    "site/_posts/2024-04-01-brewing-faster.md": jekyll(
      "blog_post_2024-04-01-brewing-faster",
      "/guides/2024/04/01/brewing-faster/",
      "Brewing faster builds",
    ),
    // "Collections": the collection's own permalink, /learn/:path/, where :path is
    // the document's path in the collection's folder.
    "site/_tutorials/first-steps.md": jekyll(
      "docs_doc_first-steps",
      "/learn/first-steps/",
      "First steps",
    ),
    "site/_tutorials/advanced/plugins.md": jekyll(
      "docs_doc_advanced_plugins",
      "/learn/advanced/plugins/",
      "Writing a plugin",
    ),
  },
  // Drafts are built only with --drafts (https://jekyllrb.com/docs/posts/#drafts);
  // _includes and _layouts are not pages (https://jekyllrb.com/docs/structure/).
  notPages: [
    "site/_drafts/upcoming-feature.md",
    "site/_includes/callout.md",
    "site/_layouts/default.html",
  ],
};

// ---------------------------------------------------------------------------
// Eleventy
// ---------------------------------------------------------------------------

const eleventy = siteOf("https://notes.example.org");
const ELEVENTY: Fixture = {
  name: "eleventy",
  pages: {
    // Permalinks (https://www.11ty.dev/docs/permalinks/, "Default Output"): index
    // files are their folder's URL, other files /<path>/, and a file named like its
    // folder is the folder's URL.
    "src/index.md": eleventy("pages_page_index", "/", "Field Notes"),
    "src/about.md": eleventy("pages_page_about", "/about/", "About"),
    // A front-matter permalink ending in index.html: page.url drops the index.html.
    "src/privacy.md": eleventy("pages_page_privacy", "/legal/privacy/", "Privacy"),
    "src/docs/index.md": eleventy("pages_page_docs", "/docs/", "Guide"),
    "src/docs/getting-started.md": eleventy(
      "pages_page_docs_getting-started",
      "/docs/getting-started/",
      "Getting started",
    ),
    "src/docs/shortcodes/shortcodes.md": eleventy(
      "pages_page_docs_shortcodes_shortcodes",
      "/docs/shortcodes/",
      "Shortcodes",
    ),
    // Template and directory data files (https://www.11ty.dev/docs/data-template-dir/):
    // posts/posts.json's permalink applies to every file in posts/ and below;
    // page.fileSlug (https://www.11ty.dev/docs/data-eleventy-supplied/) drops a
    // YYYY-MM-DD- prefix.
    "src/posts/2023-06-01-hello-eleventy.md": eleventy(
      "pages_page_posts_2023-06-01-hello-eleventy",
      "/blog/hello-eleventy/",
      "Hello, Eleventy",
    ),
    "src/posts/2024-02-10-nunjucks-tips.md": eleventy(
      "pages_page_posts_2024-02-10-nunjucks-tips",
      "/blog/nunjucks-tips/",
      "Five Nunjucks tips",
    ),
    "src/posts/series/2024-03-03-data-cascade.md": eleventy(
      "pages_page_posts_series_2024-03-03-data-cascade",
      "/blog/data-cascade/",
      "Understanding the data cascade",
    ),
    // notes/notes.11tydata.json: "{{ page.filePathStem }}.html"; for notes/index.md the
    // stem is /notes/index, and page.url drops the index.html.
    "src/notes/index.md": eleventy("pages_page_notes", "/notes/", "Notes"),
    "src/notes/css-grid.md": eleventy(
      "pages_page_notes_css-grid",
      "/notes/css-grid.html",
      "A CSS grid that fills the row",
    ),
  },
  // Permalinks, "permalink: false": the file is processed but writes no page;
  // _includes holds layouts and partials (https://www.11ty.dev/docs/config/).
  notPages: ["src/posts/2024-05-01-unfinished-thoughts.md", "src/_includes/note.md"],
};

// ---------------------------------------------------------------------------
// MkDocs
// ---------------------------------------------------------------------------

const mkdocs = siteOf("https://harbor.example.org", { lang: "en" });
const MKDOCS: Fixture = {
  name: "mkdocs",
  pages: {
    // Configuration, use_directory_urls (https://www.mkdocs.org/user-guide/configuration/#use_directory_urls,
    // default true): a/b.md is /a/b/, index.md its folder; README.md is the folder's
    // index when it has no index.md (https://www.mkdocs.org/user-guide/writing-your-docs/#index-pages).
    // mkdocs-static-i18n (https://ultrabug.github.io/mkdocs-static-i18n/, suffix
    // docs_structure): name.<locale>.md is that locale's page, under /<locale>/; a
    // file without a suffix, or with the default's, is the default locale at the root.
    "docs/index.md": mkdocs("docs_doc_index", "/", "Harbor"),
    "docs/index.de.md": mkdocs("docs_doc_de_index", "/de/", "Harbor", {
      lang: "de",
      of: "docs_doc_index",
    }),
    // The H1's attribute list ({ #getting-started }) is not part of the title.
    "docs/getting-started.md": mkdocs(
      "docs_doc_getting-started",
      "/getting-started/",
      "Getting started",
    ),
    "docs/getting-started.de.md": mkdocs(
      "docs_doc_de_getting-started",
      "/de/getting-started/",
      "Loslegen",
      { lang: "de", of: "docs_doc_getting-started" },
    ),
    "docs/tutorial/first-steps.md": mkdocs(
      "docs_doc_tutorial_first-steps",
      "/tutorial/first-steps/",
      "First steps",
    ),
    "docs/tutorial/first-steps.de.md": mkdocs(
      "docs_doc_de_tutorial_first-steps",
      "/de/tutorial/first-steps/",
      "Erste Schritte",
      { lang: "de", of: "docs_doc_tutorial_first-steps" },
    ),
    // Configuration, nav (https://www.mkdocs.org/user-guide/configuration/#nav): a
    // title given in nav is the page's title.
    "docs/tutorial/body.md": mkdocs("docs_doc_tutorial_body", "/tutorial/body/", "Request body"),
    "docs/reference/README.md": mkdocs("docs_doc_reference", "/reference/", "Reference"),
    "docs/reference/cli.md": mkdocs("docs_doc_reference_cli", "/reference/cli/", "Command line"),
    "docs/about/license.en.md": mkdocs(
      "docs_doc_about_license",
      "/about/license/",
      "Licence terms",
    ),
    "docs/about/license.de.md": mkdocs(
      "docs_doc_de_about_license",
      "/de/about/license/",
      "Lizenzbedingungen",
      { lang: "de", of: "docs_doc_about_license" },
    ),
    // MkDocs publishes files whose name starts with "_" (only dot files and
    // templates/ are excluded, https://www.mkdocs.org/user-guide/configuration/#exclude_docs).
    "docs/_release-notes.md": mkdocs("docs_doc_release-notes", "/_release-notes/", "Release notes"),
  },
  notPages: [],
};

const mkdocsFlat = siteOf("https://flat.example.org", { lang: "en" });
const MKDOCS_FLAT: Fixture = {
  name: "mkdocs-flat",
  pages: {
    // use_directory_urls: false: index.md is /index.html, a/b.md is /a/b.html. The
    // German folder is a `variants` entry published under /de.
    "docs/en/docs/index.md": mkdocsFlat("docs_doc_index", "/index.html", "Ferry"),
    "docs/en/docs/tutorial/index.md": mkdocsFlat(
      "docs_doc_tutorial",
      "/tutorial/index.html",
      "Tutorial",
    ),
    "docs/en/docs/tutorial/first-steps.md": mkdocsFlat(
      "docs_doc_tutorial_first-steps",
      "/tutorial/first-steps.html",
      "First steps",
    ),
    "docs/en/docs/deployment.md": mkdocsFlat(
      "docs_doc_deployment",
      "/deployment.html",
      "Deployment",
    ),
    "docs/de/docs/index.md": mkdocsFlat("docs_doc_de_index", "/de/index.html", "Ferry", {
      lang: "de",
      of: "docs_doc_index",
    }),
    "docs/de/docs/tutorial/first-steps.md": mkdocsFlat(
      "docs_doc_de_tutorial_first-steps",
      "/de/tutorial/first-steps.html",
      "Erste Schritte",
      { lang: "de", of: "docs_doc_tutorial_first-steps" },
    ),
  },
  notPages: [],
};

const BY_GENERATOR: Record<string, Fixture[]> = {
  docusaurus: [DOCUSAURUS],
  hugo: [HUGO, HUGO_FILENAMES],
  starlight: [STARLIGHT, STARLIGHT_ROOT],
  vitepress: [VITEPRESS],
  jekyll: [JEKYLL],
  eleventy: [ELEVENTY],
  mkdocs: [MKDOCS, MKDOCS_FLAT],
};

// ---------------------------------------------------------------------------
// Serving a fixture and reading what the feed says of each file
// ---------------------------------------------------------------------------

/** A field the service did not serve (today's code rejects `include=lang`). */
const NOT_SERVED = "(not served)";

/** A fixture served from a temporary copy, and what the feed says of each file. */
interface Served {
  site: TestSite;
  /** By file (relative to the fixture's folder): the fields the feed gives its item. */
  rows: Record<string, Page>;
  /** Every item's `text`, by id (feed items only). */
  texts: Map<string, string>;
}

const served = new Map<string, Promise<Served>>();

/** Serves a fixture once (a copy in a temporary folder: tests never write into tests/fixtures). */
function serve(fixture: Fixture): Promise<Served> {
  let promise = served.get(fixture.name);
  if (!promise) {
    promise = start(fixture);
    served.set(fixture.name, promise);
  }
  return promise;
}

after(async () => {
  for (const promise of served.values()) {
    const result = await promise.catch(() => undefined);
    if (result) {
      await result.site.close();
      await rm(result.site.root, { recursive: true, force: true });
    }
  }
});

async function start(fixture: Fixture): Promise<Served> {
  const root = await mkdtemp(join(tmpdir(), `content-feed-${fixture.name}-`));
  await cp(join(FIXTURES, fixture.name), root, { recursive: true });
  // One modification time for every file: nothing depends on when the copy was made.
  for (const path of await readdir(root, { recursive: true })) {
    await utimes(join(root, path), FIXED_TIME, FIXED_TIME);
  }
  const site = await serviceOn(root).catch(async (error) => {
    await rm(root, { recursive: true, force: true });
    throw error;
  });
  const fields = "url,lang,version,variant_of";
  let feed = await site.json(`/api/content.json?include=${fields}&limit=10000`);
  if (feed.status !== 200) feed = await site.json("/api/content.json?include=url&limit=10000");
  assert.equal(feed.status, 200, `the feed answers: ${JSON.stringify(feed.body)}`);
  // deno-lint-ignore no-explicit-any
  const inFeed = new Map<string, any>(feed.body.data.map((item: any) => [item.id, item]));
  const rows: Record<string, Page> = {};
  for (const item of site.api.index.items) {
    let json = inFeed.get(item.id);
    if (!json) {
      // Not in the feed (an empty Hugo section page): its item route (SPEC 7).
      const path = `/${item.type}/${item.uri}.json`;
      let answer = await site.json(`${path}?include=${fields}`);
      if (answer.status !== 200) answer = await site.json(`${path}?include=url`);
      json = answer.status === 200
        ? answer.body
        : { id: item.id, url: `(item route ${answer.status})` };
    }
    let key = item.file;
    for (let n = 2; key in rows; n++) key = `${item.file} (item ${n})`;
    rows[key] = {
      id: json.id,
      url: json.url,
      title: json.title,
      lang: "lang" in json ? json.lang : NOT_SERVED,
      version: "version" in json ? json.version : NOT_SERVED,
      variant_of: "variant_of" in json ? json.variant_of : NOT_SERVED,
    };
  }
  const withText = await site.json("/api/content.json?include=text&limit=10000");
  assert.equal(withText.status, 200);
  const texts = new Map<string, string>(
    // deno-lint-ignore no-explicit-any
    withText.body.data.map((item: any) => [item.id, item.text]),
  );
  return { site, rows, texts };
}

// ---------------------------------------------------------------------------
// Links and markup
// ---------------------------------------------------------------------------

/** Assets a page may link to that are not pages. */
const ASSET = /\.(?:png|jpe?g|gif|svg|webp|ico|css|js|json|xml|txt|pdf|zip|ya?ml)$/i;

/**
 * The root-relative links a page writes (`](/…)`, `href="/…"`), fenced code aside:
 * what a crawler would follow from the rendered page.
 */
function rootRelativeLinks(source: string): string[] {
  let fence: string | undefined;
  const prose = source.split("\n").filter((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker) fence = marker;
    else if (fence !== undefined && marker?.startsWith(fence)) fence = undefined;
    else return fence === undefined;
    return false;
  }).join("\n");
  const links: string[] = [];
  for (const match of prose.matchAll(/\]\((\/[^)\s]*)\)|href=["'](\/[^"']*)["']/g)) {
    const link = match[1] ?? match[2];
    if (link.startsWith("//")) continue;
    const path = link.replace(/[?#].*$/, "");
    if (ASSET.test(path)) continue;
    links.push(link);
  }
  return links;
}

/**
 * A path as the link measure compares it (SPEC 16): trailing slash, `#fragment`,
 * `?query` and `.html` aside (and `index`, which a server serves at its folder).
 */
function comparable(path: string): string {
  return path
    .replace(/[?#].*$/, "")
    .replace(/\.html$/, "")
    .replace(/(^|\/)index$/, "$1")
    .replace(/\/+$/, "");
}

/** The path of an absolute URL, comparable. */
function pathOf(url: string): string {
  try {
    return comparable(new URL(url).pathname);
  } catch {
    return `(not a URL: ${url})`;
  }
}

/** Where each link of each page goes: `file: link → n items` for every link that does not reach one. */
async function unresolvedLinks(fixture: Fixture, urls: string[]): Promise<string[]> {
  const counts = new Map<string, number>();
  for (const url of urls) counts.set(pathOf(url), (counts.get(pathOf(url)) ?? 0) + 1);
  const problems: string[] = [];
  for (const file of Object.keys(fixture.pages)) {
    const source = await readFile(join(FIXTURES, fixture.name, file), "utf8");
    for (const link of rootRelativeLinks(source)) {
      const n = counts.get(comparable(link)) ?? 0;
      if (n !== 1) problems.push(`${file}: ${link} → ${n} items`);
    }
  }
  return problems;
}

/** Markup that must not be left in a `text` (SPEC 13, 16.4), with a name for each. */
const MARKUP: [string, RegExp][] = [
  ["an HTML or JSX tag", /<\/?[A-Za-z][\w.:-]*(?:\s[^<>]*)?\/?>/],
  ["an MDX import or export line", /^\s*(?:import|export)\s+(?:[\w*{]|type\s)/m],
  ["an MDX comment", /\{\/\*/],
  ["an admonition fence (:::)", /^\s*:::/m],
  ["a pymdownx block (///)", /^\s*\/\/\/(?:\s|$)/m],
  ["a Python-Markdown admonition (!!!, ???)", /^\s*(?:!!!|\?\?\?\+?)(?:\s|$)/m],
  ["an include marker ({* *})", /\{\*|\*\}/],
  ["an include marker ({! !})", /\{!/],
  ["a snippet line (--8<--)", /--8<--/],
  ["a Hugo shortcode", /\{\{[<%]|[>%]\}\}/],
  ["a Liquid or Nunjucks tag", /\{%|%\}/],
  ["a template expression", /\{\{|\}\}/],
  ["a GitHub alert marker", /\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]/i],
  ["an attribute list", /\{\s*[.#][A-Za-z][\w-]*(?:\s+[.#]?[\w-]+(?:=\S+)?)*\s*\}/],
  ["a fence line", /^\s*(?:`{3,}|~{3,})/m],
];

/** What markup a text holds, with the 40 characters around each. */
function markupIn(text: string): string[] {
  const found: string[] = [];
  for (const [name, pattern] of MARKUP) {
    const match = pattern.exec(text);
    if (match) {
      const from = Math.max(0, match.index - 20);
      found.push(`${name}: …${text.slice(from, match.index + match[0].length + 20)}…`);
    }
  }
  return found;
}

// ---------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------

for (const [generator, fixtures] of Object.entries(BY_GENERATOR)) {
  describe(`${generator}: the feed says what the site publishes`, () => {
    for (const fixture of fixtures) {
      const at = `tests/fixtures/generators/${fixture.name}`;

      it(`${at}: every page's url, title, lang, version and variant_of are its generator's`, async () => {
        const { rows } = await serve(fixture);
        // One line per file in the diff: a missing row is a page the feed lost, an
        // extra one a file the generator does not publish.
        assert.deepEqual(sortedByKey(rows), sortedByKey(fixture.pages));
      });

      it(`${at}: files that are not pages are not items; no two items share a url`, async () => {
        const { rows } = await serve(fixture);
        assert.deepEqual(fixture.notPages.filter((file) => file in rows), []);
        const byUrl = new Map<string, string[]>();
        for (const [file, row] of Object.entries(rows)) {
          byUrl.set(row.url, [...(byUrl.get(row.url) ?? []), file]);
        }
        const shared = [...byUrl].filter(([, files]) => files.length > 1);
        assert.deepEqual(shared, []);
      });

      it(`${at}: every root-relative link of its pages reaches exactly one item`, async () => {
        const { rows } = await serve(fixture);
        const urls = Object.values(rows).map((row) => row.url);
        assert.deepEqual(await unresolvedLinks(fixture, urls), []);
      });

      it(`${at}: no item's text holds markup`, async () => {
        const { texts } = await serve(fixture);
        assert.ok(texts.size > 0, "the feed has items");
        const leaks: Record<string, string[]> = {};
        for (const [id, text] of texts) {
          const found = markupIn(text);
          if (found.length > 0) leaks[id] = found;
        }
        assert.deepEqual(leaks, {});
      });

      it(`${at}: the fixture's own links reach its table (the fixture agrees with itself)`, async () => {
        const urls = Object.values(fixture.pages).map((page) => page.url);
        assert.deepEqual(await unresolvedLinks(fixture, urls), []);
        for (const file of [...Object.keys(fixture.pages), ...fixture.notPages]) {
          await readFile(join(FIXTURES, fixture.name, file)); // every file named exists
        }
      });
    }
  });
}

/** A record with its keys in order, so that a diff lists files alphabetically. */
function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
}
