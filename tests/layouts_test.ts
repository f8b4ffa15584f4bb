// SPEC 3, 4, 5 on the layouts real sites have: trees in the shape of Hugo,
// Docusaurus, VitePress, Jekyll and Starlight sites (tests/fixtures/sites/)
// load every content file that is not a draft or a partial, and each layout
// rule of the SPEC on its own.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import process from "node:process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ContentApi, createContentApi } from "../mod.ts";
import { createGitTracker, refStamp } from "../src/source/git.ts";
import { LONG, md, memoryLogger, type SiteFiles, withSite } from "./helpers.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures/sites/", import.meta.url));
const FIXED_TIME = new Date("2026-01-01T00:00:00Z");

/** A services.yaml with these plugin lines (and api and sitemap). */
function config(plugins: string): string {
  return `parameters:
  service.content.config:
    url: https://example.com
    plugins:
${plugins.replace(/^/gm, "      ")}
      api: ~
      sitemap: ~
`;
}

/** Serves a copy of a fixture tree with `plugins`; calls `fn` with the API and its warnings. */
async function withFixture(
  name: string,
  plugins: string,
  fn: (api: ContentApi, warnings: string[]) => void | Promise<void>,
): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), `content-feed-${name}-`));
  try {
    await cp(join(FIXTURES, name), join(root, name), { recursive: true });
    // One modification time for every file: the dates that fall back to it, and the
    // order of siblings without dates, are the same on every run.
    for (const path of await readdir(join(root, name), { recursive: true })) {
      await utimes(join(root, name, path), FIXED_TIME, FIXED_TIME);
    }
    await writeFile(join(root, "services.yaml"), config(plugins));
    const log = memoryLogger();
    const api = await createContentApi({ config: join(root, "services.yaml"), logger: log });
    await fn(api, log.warnings());
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The served items as `id: title | description` lines, in feed order. */
function rows(api: ContentApi): string[] {
  return api.index.items.map((item) =>
    `${item.eligible ? "" : "(not in feed) "}${item.id}: ${item.title} | ${item.description}`
  );
}

const byId = (api: ContentApi, id: string) => api.index.items.find((item) => item.id === id)!;

describe("sites in the shape of each generator load completely", () => {
  it("Hugo: _index.md per section, weights, shortcodes, a draft", async () => {
    await withFixture(
      "hugo",
      'docs: { path: hugo/content, exclude: ["posts/**"] }\nblog: { path: hugo/content/posts }',
      (api, warnings) => {
        assert.deepEqual(rows(api), [
          "docs_doc_docs: Documentation | Everything about the tool.",
          "docs_doc_docs_getting-started: Getting started | New here? Read the pages of this section in order.",
          "docs_doc_docs_getting-started_installation: Installation | Install the tool with your package manager, then check that tool version prints a version number before you continue.",
          "docs_doc_docs_getting-started_quick-start: Quick start | Create a project with tool new site my-site, add a page, and run the development server to see it in your browser right away.",
          "docs_doc_docs_reference_functions_strings: String functions | Functions that work on strings: strings.Title, strings.ToLower and strings.Trim, with an example of each one below.",
          "blog_post_2024-03-01-launch: We launched | Today we released the first version of the tool to everyone. Thank you to all the people who tried the early builds.",
        ]);
        // The home page is _index.md at the top of the plugin folder: not a folder's own file.
        assert.equal(api.index.byPath.get("docs/index"), undefined);
        const installation = byId(api, "docs_doc_docs_getting-started_installation");
        assert.deepEqual(
          [installation.date, installation.last_update, installation.parent],
          ["2024-02-02", "2024-03-05", "docs_doc_docs_getting-started"],
        );
        // A folder without an own file (reference/functions) is a path segment; the parent is docs.
        assert.equal(
          byId(api, "docs_doc_docs_reference_functions_strings").parent,
          "docs_doc_docs",
        );
        assert.deepEqual(warnings, []);
      },
    );
  });

  it("Docusaurus: _category_.json folders, MDX, folder-style posts, an authors file", async () => {
    await withFixture(
      "docusaurus",
      "docs: { path: docusaurus/docs }\nblog: { path: docusaurus/blog, authors: authors.yml }",
      (api, warnings) => {
        assert.deepEqual(rows(api), [
          "docs_doc_intro: Tutorial Intro | Let's discover Docusaurus in less than 5 minutes. Get started by creating a new site, or try it right away in your browser.",
          "docs_doc_tutorial-basics_create-a-page: Create a Page | Add Markdown or React files to src/pages to create a standalone page: each file becomes a page of the site.",
          "docs_doc_tutorial-basics_markdown-features: Markdown Features | Markdown and MDX features you can use.",
          "docs_doc_tutorial-extras_manage-docs-versions: Manage Docs Versions | Docusaurus can manage multiple versions of your docs. Create a version with one command, and each version keeps its own copy.",
          "blog_post_welcome: Welcome | Docusaurus blogging features are powered by the blog plugin, with a post per folder when it has images.",
          "blog_post_2019-05-28-first-blog-post: First Blog Post | Lorem ipsum dolor sit amet, consectetur adipiscing elit. Pellentesque elementum dignissim ultricies. Fusce rhoncus ipsum tempor eros aliquam consequat.",
        ]);
        const welcome = byId(api, "blog_post_welcome");
        assert.equal(welcome.date, "2021-08-26"); // the folder's date prefix
        assert.deepEqual(welcome.authors.map((a) => a.name), ["Ana Pérez", "Jōji Tanaka"]);
        assert.deepEqual(
          byId(api, "blog_post_2019-05-28-first-blog-post").authors,
          [{ name: "Ana Pérez", slug: "ana-perez" }],
        );
        assert.deepEqual(warnings, []);
      },
    );
  });

  it("VitePress: subfolders with no sibling file, {#anchors}, a home page without prose", async () => {
    await withFixture("vitepress", "docs: { path: vitepress/docs }", (api, warnings) => {
      assert.deepEqual(rows(api), [
        "(not in feed) docs_doc_index: index | ",
        "docs_doc_guide_getting-started: Getting Started | VitePress is in beta. Pin its version.",
        "docs_doc_guide_what-is-vitepress: What is VitePress? | VitePress is a Static Site Generator designed for building fast, content-centric websites. In a nutshell, VitePress takes your source content written in Markdown.",
        "docs_doc_reference_site-config: Site Config | Site config is where you can define the global settings of the site, such as its title, its description and its default language & locale.",
      ]);
      assert.deepEqual(warnings, []);
    });
  });

  it("Jekyll: _posts with timestamped dates, Liquid, nav_order, a permalink pattern", async () => {
    await withFixture(
      "jekyll",
      'blog: { path: jekyll/_posts, permalink: "/{yyyy}/{mm}/{dd}/{slug}.html" }\ndocs: { path: jekyll/docs }',
      (api, warnings) => {
        assert.deepEqual(rows(api), [
          "blog_post_2014-01-01-liquid: Listing posts | The list above comes from a Liquid loop over every post of the site, rendered when the site is built.",
          "blog_post_2013-05-06-welcome-to-jekyll: Welcome to Jekyll! | You'll find this post in your _posts directory. Go ahead and edit it and re-build the site to see your changes.",
          "docs_doc_index: Home | Jekyll is a static site generator: it takes text written in your favorite markup language and uses layouts to create a website.",
          "docs_doc_installation: Installation | Jekyll is a Ruby gem you can install on most systems — see the requirements first, then install the gem with a single command.",
        ]);
        const welcome = byId(api, "blog_post_2013-05-06-welcome-to-jekyll");
        assert.equal(welcome.date, "2013-05-06"); // 02:12:52 +0200 is 00:12:52 UTC
        assert.equal(welcome.url, "/2013/05/06/2013-05-06-welcome-to-jekyll.html");
        assert.deepEqual(warnings, []);
      },
    );
  });

  it("Starlight: .mdx pages with imports and components", async () => {
    await withFixture(
      "starlight",
      "docs: { path: starlight/src/content/docs }",
      (api, warnings) => {
        assert.deepEqual(rows(api), [
          "docs_doc_index: Welcome to Starlight | Get started building your docs site with Starlight.",
          "docs_doc_guides_components: Components | Components let you reuse UI in your pages: tabs, cards and asides, with their text written right in the page where they are used.",
          "docs_doc_guides_example: Example Guide | A guide in my new Starlight docs site.",
          "docs_doc_reference_example: Example Reference | A reference page in my new Starlight docs site.",
        ]);
        assert.deepEqual(warnings, []);
      },
    );
  });
});

const DOCS = config("docs: ~");

/** The served items as `uri parent` lines. */
function tree(s: { api: ContentApi }): string[] {
  return s.api.index.items.map((item) => `${item.uri} ${item.parent ?? "-"}`);
}

describe("a folder's own file (SPEC 3)", () => {
  it("is x.md, else x/index.*, x/_index.*, x/README.*: the others left out with a warning naming both", async () => {
    const files: SiteFiles = {
      "services.yaml": DOCS,
      "docs/a.md": md({ title: "A beside" }, LONG),
      "docs/a/index.md": md({ title: "A index" }, LONG),
      "docs/b/_index.md": md({ title: "B hugo" }, LONG),
      "docs/b/README.md": md({ title: "B readme" }, LONG),
      "docs/c/README.md": md({ title: "C readme" }, LONG),
      "docs/c/page.md": md({ title: "C page" }, LONG),
    };
    await withSite(files, {}, (s) => {
      assert.deepEqual(tree(s).sort(), ["a -", "b -", "c -", "c/page docs_doc_c"]);
      assert.equal(s.api.index.byPath.get("docs/a")!.title, "A beside");
      assert.equal(s.api.index.byPath.get("docs/b")!.title, "B hugo");
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 2, warnings.join("\n"));
      assert.match(warnings.join("\n"), /docs\/a\/index\.md: same item as docs\/a\.md/);
      assert.match(warnings.join("\n"), /docs\/b\/README\.md: same item as docs\/b\/_index\.md/);
    });
  });

  it("takes its slug, title and date from the folder's name", async () => {
    await withSite(
      {
        "services.yaml": config("blog: ~"),
        "blog/2021-08-26-welcome/index.md": `Welcome, with a body of prose long enough. ${LONG}`,
        "blog/2022-01-02-named/index.md": md({ title: "Named", slug: "custom" }, LONG),
      },
      {},
      (s) => {
        const welcome = s.api.index.byPath.get("blog/2021-08-26-welcome")!;
        assert.deepEqual([welcome.title, welcome.date], ["2021-08-26-welcome", "2021-08-26"]);
        assert.equal(s.api.index.byPath.get("blog/custom")!.date, "2022-01-02");
      },
    );
  });

  it("keeps a non-draft over a draft for the same item", async () => {
    await withSite(
      {
        "services.yaml": DOCS,
        "docs/a.md": md({ title: "Draft", draft: true }, LONG),
        "docs/a/index.md": md({ title: "Published" }, LONG),
        "docs/b.md": md({ title: "Draft b", draft: true }, LONG),
        "docs/b.mdx": md({ title: "Published b" }, LONG),
      },
      {},
      (s) => {
        assert.equal(s.api.index.byPath.get("docs/a")!.title, "Published");
        assert.equal(s.api.index.byPath.get("docs/b")!.title, "Published b");
      },
    );
  });

  it("index.md, README.md at the top of a plugin folder are ordinary items; _index.md there is not content", async () => {
    await withSite(
      {
        "services.yaml": DOCS,
        "docs/index.md": md({ title: "Index" }, LONG),
        "docs/README.md": md({ title: "Readme" }, LONG),
        "docs/_index.md": md({ title: "Hugo home" }, LONG),
      },
      {},
      (s) => {
        assert.deepEqual(tree(s).sort(), ["index -", "readme -"]);
      },
    );
  });
});

describe("a folder without an own file (SPEC 3, 5)", () => {
  it("adds its name to the uri, hangs its items from the nearest item, and comes after its siblings", async () => {
    await withSite(
      {
        "services.yaml": DOCS,
        "docs/guide.md": md({ title: "Guide", date: "2026-01-01" }, LONG),
        "docs/guide/z-last.md": md({ title: "Z", date: "2026-01-01" }, LONG),
        "docs/guide/Part One/b.md": md({ title: "B", date: "2026-01-01" }, LONG),
        "docs/guide/Part One/deeper/c.md": md({ title: "C", date: "2026-01-01" }, LONG),
        "docs/guide/part-two/a.md": md({ title: "A", date: "2026-01-01" }, LONG),
        "docs/top/x.md": md({ title: "X", date: "2026-01-01" }, LONG),
      },
      {},
      (s) => {
        assert.deepEqual(tree(s), [
          "guide -",
          "guide/z-last docs_doc_guide",
          "guide/part-one/b docs_doc_guide",
          "guide/part-one/deeper/c docs_doc_guide",
          "guide/part-two/a docs_doc_guide",
          "top/x -",
        ]);
        assert.deepEqual(s.log.warnings(), []);
      },
    );
  });

  it("counts folders for academy categories: one folder deep is a module", async () => {
    await withSite(
      {
        "services.yaml": config("academy: ~"),
        "academy/course/module/lesson.md": md({ title: "Lesson" }, LONG),
        "academy/course/intro.md": md({ title: "Module without course file" }, LONG),
      },
      {},
      (s) => {
        const rows = s.api.index.items.map((item) => `${item.category} ${item.uri}`);
        assert.deepEqual(rows.sort(), ["lesson course/module/lesson", "module course/intro"]);
      },
    );
  });
});

describe("fields of real files (SPEC 4)", () => {
  it("takes order from sidebar_position, order, weight, then nav_order", async () => {
    await withSite(
      {
        "services.yaml": DOCS,
        "docs/a.md": md({ nav_order: 1 }, LONG),
        "docs/b.md": md({ weight: 2 }, LONG),
        "docs/c.md": md({ order: 3 }, LONG),
        "docs/d.md": md({ sidebar_position: 4, weight: 0 }, LONG),
        "docs/e.md": md({}, LONG),
      },
      {},
      (s) => {
        assert.deepEqual(s.api.index.items.map((item) => item.uri), ["a", "b", "c", "d", "e"]);
      },
    );
  });

  it("takes last_update from last_update, lastmod or updated", async () => {
    await withSite(
      {
        "services.yaml": DOCS,
        "docs/a.md": md({ lastmod: "2025-01-02" }, LONG),
        "docs/b.md": md({ updated: "2025-01-03T10:00:00Z" }, LONG),
      },
      {},
      (s) => {
        assert.equal(s.api.index.byPath.get("docs/a")!.last_update, "2025-01-02");
        assert.equal(s.api.index.byPath.get("docs/b")!.last_update, "2025-01-03");
      },
    );
  });

  it("reads a front matter that js-yaml rejects but YAML 1.2 allows (a custom tag)", async () => {
    await withSite(
      {
        "services.yaml": DOCS,
        "docs/tagged.md": `---\ntitle: !custom Tagged page\n---\n${LONG}`,
        "docs/broken.md": `---\ntitle: [unclosed\n---\n${LONG}`,
      },
      {},
      (s) => {
        assert.equal(s.api.index.byPath.get("docs/tagged")!.title, "Tagged page");
        assert.equal(s.api.index.byPath.get("docs/broken"), undefined);
        assert.match(s.log.warnings().join("\n"), /docs\/broken\.md: invalid YAML.*line 2/);
      },
    );
  });
});

describe("the url of an item (SPEC 4, 6.2, 8)", () => {
  it("is the front matter permalink, else the plugin's pattern, else {base}/<type>/<uri>", async () => {
    await withSite(
      {
        "services.yaml": config('blog: { permalink: "/posts/{yyyy}/{mm}/{dd}/{slug}/" }\ndocs: ~'),
        "blog/2026-03-04-hello.md": md({ title: "Hello" }, LONG),
        "blog/other.md": md({ permalink: "https://elsewhere.example/other" }, LONG),
        "docs/page.md": md({ permalink: "about/" }, LONG),
        "docs/plain.md": md({}, LONG),
      },
      {},
      async (s) => {
        const { body } = await s.json("/api/content.json?include=url");
        const urls = Object.fromEntries(
          body.data.map((item: { uri: string; url: string }) => [item.uri, item.url]),
        );
        assert.deepEqual(urls, {
          "2026-03-04-hello": "https://example.com/posts/2026/03/04/2026-03-04-hello/",
          "other": "https://elsewhere.example/other",
          "page": "https://example.com/about/",
          "plain": "https://example.com/docs/plain",
        });
        // The url comes after the seed's fields, and only when asked for.
        assert.deepEqual(Object.keys(body.data[0]).slice(-2), ["time", "url"]);
        const plain = (await s.json("/api/content.json")).body.data[0];
        assert.equal("url" in plain, false);
        const item = (await s.json("/docs/plain.json?include=url")).body;
        assert.equal(item.url, "https://example.com/docs/plain");
        // The sitemap's loc is the url.
        const sitemap = await (await s.request("/sitemap.xml")).text();
        assert.match(
          sitemap,
          /<loc>https:\/\/example\.com\/posts\/2026\/03\/04\/2026-03-04-hello\/<\/loc>/,
        );
        assert.match(sitemap, /<loc>https:\/\/elsewhere\.example\/other<\/loc>/);
      },
    );
  });

  it("rejects an include it does not know, naming what it accepts", async () => {
    await withSite({ "services.yaml": DOCS, "docs/a.md": md({}, LONG) }, {}, async (s) => {
      const { status, body } = await s.json("/api/content.json?include=url,nope");
      assert.equal(status, 400);
      assert.match(
        body.detail,
        /include accepts url, body, text, sections, lang, version, variant_of, got "nope"/,
      );
      assert.equal((await s.request("/docs/a.json?include=nope")).status, 400);
    });
  });

  it("rejects a permalink pattern with an unknown placeholder, in one config line", async () => {
    const root = await mkdtemp(join(tmpdir(), "content-feed-permalink-"));
    try {
      await writeFile(join(root, "services.yaml"), config('blog: { permalink: "/{title}/" }'));
      await assert.rejects(
        createContentApi({ config: join(root, "services.yaml") }),
        /plugins\.blog\.permalink: expected a root-relative path or an absolute URL/,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("a file two plugins select", () => {
  it("is an item of each, before and after an edit, as a fresh start has it", async () => {
    await withSite(
      {
        "services.yaml": config('docs: { path: docs }\npages: { path: ".", include: ["*.md"] }'),
        "docs/x.md": md({ title: "X" }, LONG),
      },
      {},
      async (s) => {
        const ids = () => s.api.index.items.map((item) => `${item.id} ${item.title}`).sort();
        assert.deepEqual(ids(), ["docs_doc_x X", "pages_page_docs_x X"]);
        await writeFile(join(s.root, "docs/x.md"), md({ title: "X, edited" }, LONG));
        await s.api.reload([join(s.root, "docs/x.md")]);
        assert.deepEqual(ids(), ["docs_doc_x X, edited", "pages_page_docs_x X, edited"]);
        await rm(join(s.root, "docs/x.md"));
        await s.api.reload([join(s.root, "docs/x.md")]);
        assert.deepEqual(ids(), []);
      },
    );
  });
});

describe("git dates (SPEC 4)", () => {
  const hasGit = spawnSync("git", ["--version"]).status === 0;
  const git = (cwd: string, args: string[], date?: string) =>
    execFileSync("git", args, {
      cwd,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@example.com",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@example.com",
        ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}),
      },
    });

  /**
   * A repository holding the docs site and `files` (paths under it), committed once at
   * 2021-01-02, that a clone may ask for a part of (`--filter`).
   */
  const makeOrigin = async (files: Record<string, string>): Promise<string> => {
    const folder = await mkdtemp(join(tmpdir(), "content-feed-origin-"));
    await writeFile(join(folder, "services.yaml"), DOCS);
    await mkdir(join(folder, "docs"));
    for (const [path, text] of Object.entries(files)) await writeFile(join(folder, path), text);
    git(folder, ["init", "-q"]);
    git(folder, ["config", "uploadpack.allowFilter", "true"]);
    git(folder, ["add", "."]);
    git(folder, ["commit", "-qm", "one"], "2021-01-02T10:00:00Z");
    return folder;
  };

  it("date from the first commit, last_update from the last one unless the file changed since", async (t) => {
    if (!hasGit) return t.skip("no git here");
    await withSite({
      "services.yaml": DOCS,
      "docs/a.md": md({ title: "A" }, LONG),
      "docs/b.md": md({ title: "B" }, LONG),
      "docs/dated.md": md({ title: "Dated", date: "2020-05-05" }, LONG),
    }, {
      prepare: async (root) => {
        git(root, ["init", "-q"]);
        git(root, ["add", "."]);
        git(root, ["commit", "-qm", "one"], "2021-01-02T10:00:00Z");
        await writeFile(join(root, "docs/a.md"), md({ title: "A" }, `${LONG} Edited.`));
        await writeFile(join(root, "docs/b.md"), md({ title: "B" }, `${LONG} Edited.`));
        git(root, ["commit", "-qam", "two"], "2022-03-04T10:00:00Z");
        await writeFile(join(root, "docs/b.md"), md({ title: "B" }, `${LONG} Changed since.`));
      },
    }, (s) => {
      const get = (uri: string) => s.api.index.byPath.get(`docs/${uri}`)!;
      assert.deepEqual([get("a").date, get("a").last_update], ["2021-01-02", "2022-03-04"]);
      // b changed since its last commit: its last update is its modification time (today).
      const today = new Date().toISOString().slice(0, 10);
      assert.deepEqual([get("b").date, get("b").last_update], ["2021-01-02", today]);
      assert.equal(get("dated").date, "2020-05-05"); // front matter first
      assert.deepEqual(s.log.warnings(), []);
    });
  });

  it("reach a plugin whose folder is the content root (path: .), whose warnings name bare paths", async (t) => {
    if (!hasGit) return t.skip("no git here");
    await withSite({
      "services.yaml": config('pages: { path: ".", exclude: ["bad/**"] }'),
      "about.md": md({ title: "About" }, LONG),
      "guide/intro.md": md({ title: "Intro" }, LONG),
      "broken.md": "---\ntitle: [unclosed\n---\nBody",
    }, {
      prepare: (root) => {
        git(root, ["init", "-q"]);
        git(root, ["add", "."]);
        git(root, ["commit", "-qm", "one"], "2019-01-02T10:00:00Z");
        return Promise.resolve();
      },
    }, (s) => {
      for (const uri of ["about", "guide/intro"]) {
        const item = s.api.index.byPath.get(`pages/${uri}`)!;
        assert.deepEqual([item.date, item.last_update], ["2019-01-02", "2019-01-02"], uri);
      }
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(warnings[0], /^warning: broken\.md: invalid YAML/);
    });
  });

  it("git: false turns them off; a shallow clone gives no first-commit dates, and one warning", async (t) => {
    if (!hasGit) return t.skip("no git here");
    const origin = await makeOrigin({ "docs/a.md": md({ title: "A" }, LONG) });
    const clone = `${origin}-clone`;
    try {
      await writeFile(join(origin, "docs/a.md"), md({ title: "A" }, `${LONG} Edited.`));
      git(origin, ["commit", "-qam", "two"], "2022-03-04T10:00:00Z");
      git(tmpdir(), ["clone", "-q", "--depth", "1", `file://${origin}`, clone]);
      const today = new Date().toISOString().slice(0, 10);
      const log = memoryLogger();
      const shallow = await createContentApi({ config: join(clone, "services.yaml"), logger: log });
      const a = shallow.index.byPath.get("docs/a")!;
      assert.deepEqual([a.date, a.last_update], [today, "2022-03-04"]);
      assert.equal(log.warnings().length, 1);
      assert.match(log.warnings()[0], /shallow/);
      await writeFile(
        join(origin, "services.yaml"),
        DOCS.replace("    plugins:", "    git: false\n    plugins:"),
      );
      const off = await createContentApi({
        config: join(origin, "services.yaml"),
        logger: memoryLogger(),
      });
      assert.equal(off.index.byPath.get("docs/a")!.last_update, today);
    } finally {
      await rm(origin, { recursive: true, force: true });
      await rm(clone, { recursive: true, force: true });
    }
  });

  it("a shallow clone deepened while no server ran: its history is read again, as a fresh start reads it", async (t) => {
    if (!hasGit) return t.skip("no git here");
    const origin = await makeOrigin({
      "docs/a.md": md({ title: "A" }, LONG),
      "docs/b.md": md({ title: "B" }, LONG),
    });
    const clone = `${origin}-clone`;
    try {
      await writeFile(join(origin, "docs/b.md"), md({ title: "B" }, `${LONG} Edited.`));
      git(origin, ["commit", "-qam", "two"], "2022-03-04T10:00:00Z");
      await writeFile(join(origin, "docs/a.md"), md({ title: "A" }, `${LONG} Edited.`));
      git(origin, ["commit", "-qam", "three"], "2023-05-06T10:00:00Z");
      git(tmpdir(), ["clone", "-q", "--depth", "1", `file://${origin}`, clone]);
      const lastUpdates = async () => {
        const api = await createContentApi({
          config: join(clone, "services.yaml"),
          logger: memoryLogger(),
        });
        const dates = ["docs/a", "docs/b"].map((path) => api.index.byPath.get(path)!.last_update);
        api.close();
        return dates;
      };
      // One commit deep: the boundary commit holds every file.
      assert.deepEqual(await lastUpdates(), ["2023-05-06", "2023-05-06"]);
      // A commit deeper, HEAD where it was: b.md's last change is in sight now.
      git(clone, ["fetch", "-q", "--deepen", "1"]);
      const restarted = await lastUpdates();
      assert.deepEqual(restarted, ["2023-05-06", "2022-03-04"]);
      await rm(join(clone, ".content-feed"), { recursive: true, force: true });
      assert.deepEqual(await lastUpdates(), restarted, "a fresh start");
    } finally {
      for (const path of [origin, clone]) await rm(path, { recursive: true, force: true });
    }
  });

  it("a commit replaced (git replace) while no server ran, or while one serves: dated as a fresh start dates it", async (t) => {
    if (!hasGit) return t.skip("no git here");
    const origin = await makeOrigin({
      "docs/a.md": md({ title: "A" }, LONG),
      "docs/b.md": md({ title: "B" }, LONG),
    });
    try {
      await writeFile(join(origin, "docs/b.md"), md({ title: "B" }, `${LONG} Edited.`));
      git(origin, ["commit", "-qam", "two"], "2022-03-04T10:00:00Z");
      const two = String(git(origin, ["rev-parse", "HEAD"])).trim();
      const started = async () => {
        const log = memoryLogger();
        const api = await createContentApi({ config: join(origin, "services.yaml"), logger: log });
        const dates = ["docs/a", "docs/b"].map((path) => api.index.byPath.get(path)!.last_update);
        api.close();
        return { dates, notes: log.lines.filter((line) => /git replace/.test(line.message)) };
      };
      assert.deepEqual((await started()).dates, ["2021-01-02", "2022-03-04"]);
      // "two" replaced by a commit of the same tree and parent, dated otherwise: HEAD stays.
      const tree = String(git(origin, ["rev-parse", "HEAD^{tree}"])).trim();
      const redated = String(
        git(
          origin,
          ["commit-tree", tree, "-p", "HEAD~1", "-m", "two, redated"],
          "2023-05-06T10:00:00Z",
        ),
      ).trim();
      git(origin, ["replace", two, redated]);
      const replaced = await started();
      assert.deepEqual(replaced.dates, ["2021-01-02", "2023-05-06"]);
      assert.equal(replaced.notes.length, 1, "one note says why the history was read again");
      await rm(join(origin, ".content-feed"), { recursive: true, force: true });
      assert.deepEqual((await started()).dates, replaced.dates, "a fresh start");
      // While a server serves: the replacement removed. Its HEAD watcher polls the refs' stamp,
      // which says so; the reload it asks for reads the history again.
      const s = await createContentApi({
        config: join(origin, "services.yaml"),
        logger: memoryLogger(),
        watch: false,
      });
      try {
        const gitDir = join(origin, ".git");
        const before = refStamp(gitDir);
        git(origin, ["replace", "-d", two]);
        assert.notEqual(refStamp(gitDir), before);
        await s.reload();
        assert.equal(s.index.byPath.get("docs/b")!.last_update, "2022-03-04");
      } finally {
        s.close();
      }
      assert.deepEqual((await started()).dates, ["2021-01-02", "2022-03-04"], "and a restart");
    } finally {
      await rm(origin, { recursive: true, force: true });
    }
  });

  it("a partial clone without its blobs: its history and its work tree's changes are read", async (t) => {
    if (!hasGit) return t.skip("no git here");
    const origin = await makeOrigin({
      "docs/a.md": md({ title: "A" }, LONG),
      "docs/c.md": md({ title: "C" }, LONG),
    });
    const clone = `${origin}-partial`;
    try {
      // a.md renamed and edited: telling it a rename would read a.md's blob, never fetched.
      git(origin, ["mv", "docs/a.md", "docs/b.md"]);
      await writeFile(join(origin, "docs/b.md"), md({ title: "B" }, `${LONG} Edited.`));
      await writeFile(join(origin, "docs/c.md"), md({ title: "C" }, `${LONG} Edited.`));
      git(origin, ["commit", "-qam", "two"], "2022-03-04T10:00:00Z");
      git(tmpdir(), ["clone", "-q", "--filter=blob:none", `file://${origin}`, clone]);
      // Both changes staged again, over the first commit.
      git(clone, ["reset", "-q", "--soft", "HEAD~1"]);
      const today = new Date().toISOString().slice(0, 10);
      const log = memoryLogger();
      const partial = await createContentApi({ config: join(clone, "services.yaml"), logger: log });
      const c = partial.index.byPath.get("docs/c")!;
      partial.close();
      assert.deepEqual(log.warnings(), []);
      // Dated by its first commit; its last is its change since, in the work tree.
      assert.deepEqual([c.date, c.last_update], ["2021-01-02", today]);
    } finally {
      for (const path of [origin, clone]) await rm(path, { recursive: true, force: true });
    }
  });

  it("a repository git will not read (a broken .git, another user's folder): one warning that says why", async (t) => {
    if (!hasGit) return t.skip("no git here");
    const origin = await makeOrigin({ "docs/a.md": md({ title: "A" }, LONG) });
    try {
      const today = new Date().toISOString().slice(0, 10);
      const start = async () => {
        const log = memoryLogger();
        const api = await createContentApi({ config: join(origin, "services.yaml"), logger: log });
        const a = api.index.byPath.get("docs/a")!;
        // A reload asks git again: no second warning while it says the same.
        await writeFile(join(origin, "docs/a.md"), md({ title: "A" }, `${LONG} Again.`));
        await api.reload();
        api.close();
        return { dates: [a.date, a.last_update], warnings: log.warnings() };
      };
      const head = await readFile(join(origin, ".git/HEAD"), "utf8");
      await writeFile(join(origin, ".git/HEAD"), "not a reference\n");
      const broken = await start();
      assert.deepEqual(broken.dates, [today, today]);
      assert.equal(broken.warnings.length, 1, broken.warnings.join("\n"));
      assert.match(
        broken.warnings[0],
        /git: the repository could not be read \(fatal: not a git repository.*\), so the files are dated by their modification times/,
      );
      // Owned by another user: git refuses it ("dubious ownership"). Only root can make one.
      if (process.getuid?.() === 0) {
        await writeFile(join(origin, ".git/HEAD"), head);
        execFileSync("chown", ["-R", "nobody", origin]);
        const foreign = await start();
        assert.deepEqual(foreign.dates, [today, today]);
        assert.equal(foreign.warnings.length, 1, foreign.warnings.join("\n"));
        assert.match(foreign.warnings[0], /could not be read \(fatal: detected dubious ownership/);
      }
    } finally {
      await rm(origin, { recursive: true, force: true });
    }
  });

  it("a partial clone without its trees: nothing is fetched from its remote, the files are dated by their modification times, one warning", async (t) => {
    if (!hasGit) return t.skip("no git here");
    const origin = await makeOrigin({ "docs/a.md": md({ title: "A" }, LONG) });
    const clone = `${origin}-partial`;
    const canary = `${origin}-fetched`;
    const uploadPack = `${origin}-upload-pack.sh`;
    try {
      await writeFile(join(origin, "docs/a.md"), md({ title: "A" }, `${LONG} Edited.`));
      git(origin, ["commit", "-qam", "two"], "2022-03-04T10:00:00Z");
      // The history's trees stay on the remote; git would fetch each one as `git log` reads it,
      // through the program the clone's configuration names: here one that leaves a mark.
      git(tmpdir(), ["clone", "-q", "--filter=tree:0", `file://${origin}`, clone]);
      await writeFile(uploadPack, `#!/bin/sh\ntouch '${canary}'\nexec git-upload-pack "$@"\n`, {
        mode: 0o755,
      });
      git(clone, ["config", "remote.origin.uploadpack", uploadPack]);
      const today = new Date().toISOString().slice(0, 10);
      const log = memoryLogger();
      const partial = await createContentApi({ config: join(clone, "services.yaml"), logger: log });
      const a = partial.index.byPath.get("docs/a")!;
      partial.close();
      assert.equal(existsSync(canary), false, "an object was fetched from the remote");
      assert.deepEqual([a.date, a.last_update], [today, today]);
      assert.equal(log.warnings().length, 1, log.warnings().join("\n"));
      assert.match(log.warnings()[0], /history could not be read \(.*promisor/);
      // The tracker remembers it for this HEAD: no second log, no second warning, and a state
      // key (the restart may serve the kept feed); nothing kept for the next process, which tries.
      const tracker = createGitTracker(clone);
      assert.match((await tracker.refresh()).note ?? "", /history could not be read/);
      let before = tracker.processes;
      assert.equal((await tracker.refresh()).note, undefined);
      assert.equal(
        tracker.processes - before,
        2,
        "HEAD read again (its stamp was not known), no log",
      );
      before = tracker.processes;
      assert.equal((await tracker.refresh()).note, undefined);
      assert.equal(tracker.processes - before, 1, "only the work tree's status");
      assert.notEqual(tracker.stateKey(), undefined);
      assert.equal(tracker.history(), undefined);
      assert.equal(tracker.dates("docs/a.md"), undefined);
      assert.equal(existsSync(canary), false, "an object was fetched from the remote");
    } finally {
      for (const path of [origin, clone, canary, uploadPack]) {
        await rm(path, { recursive: true, force: true });
      }
    }
  });
});
