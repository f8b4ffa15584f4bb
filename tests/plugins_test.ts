// SPEC 3: content plugins, their files and their hierarchy, end to end through fetch(Request).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createContentApi } from "../mod.ts";
import { LONG, md, memoryLogger, site, type SiteFiles, type TestSite } from "./helpers.ts";

/** Runs `fn` on a site made of `files` and always removes it. */
async function withSite(
  files: SiteFiles,
  fn: (s: TestSite) => Promise<void>,
  config?: string,
): Promise<void> {
  const s = await site(files, config === undefined ? {} : { config });
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

/** An indexable page with a fixed date, so that sibling order is path order. */
function page(title: string, extra: Record<string, unknown> = {}): string {
  return md({ title, date: "2026-01-01", ...extra }, LONG);
}

/** The feed's items as `[type, category, uri, id]` rows. */
async function feedRows(s: TestSite, query = ""): Promise<string[][]> {
  const { status, body } = await s.json(`/api/content.json${query}`);
  assert.equal(status, 200);
  // deno-lint-ignore no-explicit-any
  return body.data.map((item: any) => [item.type, item.category, item.uri, item.id]);
}

/** The feed's URIs as `type/uri`. */
async function feedPaths(s: TestSite, query = ""): Promise<string[]> {
  return (await feedRows(s, query)).map(([type, , uri]) => `${type}/${uri}`);
}

/** A config that enables the given plugins block (indented YAML lines under `plugins:`). */
function config(plugins: string): string {
  return `parameters:
  service.content.config:
    url: https://example.com
    plugins:
${plugins.replace(/^/gm, "      ")}
`;
}

describe("SPEC 3: plugin types and categories", () => {
  it("gives each plugin its type and its category by depth", async () => {
    await withSite({
      "academy/course.md": page("Course"),
      "academy/course/module.md": page("Module"),
      "academy/course/module/lesson.md": page("Lesson"),
      "blog/post.md": page("Post"),
      "blog/post/reply.md": page("Reply"),
      "docs/doc.md": page("Doc"),
      "docs/doc/sub.md": page("Sub"),
      "faq/question.md": page("Question"),
      "pages/page.md": page("Page"),
      "pages/page/child.md": page("Child"),
    }, async (s) => {
      assert.deepEqual(await feedRows(s), [
        ["academy", "course", "course", "academy_course_course"],
        ["academy", "module", "course/module", "academy_module_course_module"],
        ["academy", "lesson", "course/module/lesson", "academy_lesson_course_module_lesson"],
        ["blog", "post", "post", "blog_post_post"],
        ["blog", "post", "post/reply", "blog_post_post_reply"],
        ["docs", "doc", "doc", "docs_doc_doc"],
        ["docs", "doc", "doc/sub", "docs_doc_doc_sub"],
        ["faq", "question", "question", "faq_question_question"],
        ["pages", "page", "page", "pages_page_page"],
        ["pages", "page", "page/child", "pages_page_page_child"],
      ]);
      assert.deepEqual(s.log.warnings(), []);
    });
  });

  it("reads .md, .markdown and .html in pages, only .md and .markdown elsewhere", async () => {
    await withSite({
      "pages/a.md": page("A"),
      "pages/b.markdown": page("B"),
      "pages/c.html": page("C"),
      "docs/a.md": page("A"),
      "docs/b.markdown": page("B"),
      "docs/c.html": page("C"),
      "docs/d.txt": page("D"),
      "blog/e.html": page("E"),
      "faq/f.html": page("F"),
      "academy/g.html": page("G"),
    }, async (s) => {
      assert.deepEqual(await feedPaths(s), [
        "docs/a",
        "docs/b",
        "pages/a",
        "pages/b",
        "pages/c",
      ]);
      assert.equal((await s.request("/docs/c.json")).status, 404);
      assert.equal((await s.request("/blog/e.json")).status, 404);
      const html = await s.json("/pages/c.json");
      assert.equal(html.status, 200);
      assert.equal(html.body.title, "C");
      assert.equal(html.body.id, "pages_page_c");
      assert.deepEqual(s.log.warnings(), []);
    });
  });
});

describe("SPEC 3: hierarchy", () => {
  it("makes x.md the parent of the items in x/, with uri, parent and children", async () => {
    await withSite({
      "docs/guide.md": page("Guide"),
      "docs/guide/intro.md": page("Intro"),
      "docs/guide/setup.md": page("Setup"),
      "docs/guide/intro/deep.md": page("Deep"),
      "docs/other.md": page("Other"),
    }, async (s) => {
      assert.deepEqual(await feedPaths(s), [
        "docs/guide",
        "docs/guide/intro",
        "docs/guide/intro/deep",
        "docs/guide/setup",
        "docs/other",
      ]);
      const guide = await s.json("/docs/guide.json");
      assert.equal(guide.status, 200);
      assert.equal(guide.body.uri, "guide");
      assert.equal(guide.body.parent, null);
      assert.deepEqual(guide.body.children, ["docs_doc_guide_intro", "docs_doc_guide_setup"]);
      const intro = await s.json("/docs/guide/intro.json");
      assert.equal(intro.status, 200);
      assert.equal(intro.body.uri, "guide/intro");
      assert.equal(intro.body.link, "https://example.com/docs/guide/intro.json");
      assert.equal(intro.body.parent, "docs_doc_guide");
      assert.deepEqual(intro.body.children, ["docs_doc_guide_intro_deep"]);
      const deep = await s.json("/docs/guide/intro/deep.json");
      assert.equal(deep.status, 200);
      assert.equal(deep.body.id, "docs_doc_guide_intro_deep");
      assert.equal(deep.body.parent, "docs_doc_guide_intro");
      assert.deepEqual(deep.body.children, []);
      const other = await s.json("/docs/other.json");
      assert.equal(other.body.parent, null);
      assert.deepEqual(other.body.children, []);
    });
  });

  it("accepts a .markdown or (in pages) .html file as the parent of a folder", async () => {
    await withSite({
      "docs/guide.markdown": page("Guide"),
      "docs/guide/intro.md": page("Intro"),
      "pages/about.html": page("About"),
      "pages/about/team.md": page("Team"),
      "pages/about/team/ana.html": page("Ana"),
    }, async (s) => {
      assert.deepEqual(await feedPaths(s), [
        "docs/guide",
        "docs/guide/intro",
        "pages/about",
        "pages/about/team",
        "pages/about/team/ana",
      ]);
      assert.equal((await s.json("/docs/guide/intro.json")).body.parent, "docs_doc_guide");
      const team = await s.json("/pages/about/team.json");
      assert.equal(team.body.parent, "pages_page_about");
      assert.deepEqual(team.body.children, ["pages_page_about_team_ana"]);
      assert.deepEqual(s.log.warnings(), []);
    });
  });

  it("keeps the children of x/ under the winner of an x.md / x.markdown clash", async () => {
    await withSite({
      "docs/a.md": page("From md"),
      "docs/a.markdown": page("From markdown"),
      "docs/a/child.md": page("Child"),
    }, async (s) => {
      assert.deepEqual(await feedPaths(s), ["docs/a", "docs/a/child"]);
      const a = await s.json("/docs/a.json");
      assert.equal(a.body.title, "From markdown");
      assert.deepEqual(a.body.children, ["docs_doc_a_child"]);
      assert.equal((await s.json("/docs/a/child.json")).body.parent, "docs_doc_a");
    });
  });

  // The strict layout of derafu/content (SPEC 3 `orphans: skip`).
  const STRICT = config(
    "academy: { orphans: skip }\nblog: { orphans: skip }\ndocs: { orphans: skip }\nfaq: { orphans: skip }\npages: { orphans: skip }\napi: ~",
  );

  it("orphans: skip leaves out an academy folder without its course file, with one warning", async () => {
    await withSite({
      "academy/ok.md": page("Ok"),
      "academy/lost/module.md": page("Module"),
      "academy/lost/module/lesson.md": page("Lesson"),
    }, async (s) => {
      assert.deepEqual(await feedRows(s), [["academy", "course", "ok", "academy_course_ok"]]);
      assert.equal((await s.request("/academy/lost/module.json")).status, 404);
      assert.equal((await s.request("/academy/module.json")).status, 404);
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(warnings[0], /academy\/lost\b/);
    }, STRICT);
  });

  it("orphans: skip leaves out a folder without its own file, with one warning naming it", async () => {
    await withSite({
      "docs/ok.md": page("Ok"),
      "docs/orphan/a.md": page("A"),
      "docs/orphan/b.md": page("B"),
      "docs/orphan/sub.md": page("Sub"),
      "docs/orphan/sub/c.md": page("C"),
    }, async (s) => {
      assert.deepEqual(await feedPaths(s), ["docs/ok"]);
      for (const path of ["/docs/orphan/a.json", "/docs/orphan/sub.json", "/docs/a.json"]) {
        assert.equal((await s.request(path)).status, 404, path);
      }
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(warnings[0], /docs\/orphan\b/);
    }, STRICT);
  });

  it("orphans: skip names the nested folder that lacks its file, and keeps its parent", async () => {
    await withSite({
      "docs/guide.md": page("Guide"),
      "docs/guide/ok.md": page("Ok"),
      "docs/guide/loose/a.md": page("A"),
    }, async (s) => {
      assert.deepEqual(await feedPaths(s), ["docs/guide", "docs/guide/ok"]);
      assert.equal((await s.request("/docs/guide/loose/a.json")).status, 404);
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(warnings[0], /docs\/guide\/loose\b/);
    }, STRICT);
  });

  it("leaves out academy files deeper than the third level, with a warning", async () => {
    await withSite({
      "academy/c.md": page("Course"),
      "academy/c/m.md": page("Module"),
      "academy/c/m/l.md": page("Lesson"),
      "academy/c/m/l/too-deep.md": page("Too deep"),
      "docs/a.md": page("A"),
      "docs/a/b.md": page("B"),
      "docs/a/b/c.md": page("C"),
      "docs/a/b/c/d.md": page("D"),
    }, async (s) => {
      assert.deepEqual(await feedPaths(s), [
        "academy/c",
        "academy/c/m",
        "academy/c/m/l",
        "docs/a",
        "docs/a/b",
        "docs/a/b/c",
        "docs/a/b/c/d",
      ]);
      assert.equal((await s.request("/academy/c/m/l/too-deep.json")).status, 404);
      const lesson = await s.json("/academy/c/m/l.json");
      assert.equal(lesson.body.category, "lesson");
      assert.deepEqual(lesson.body.children, []);
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(warnings[0], /academy\/c\/m\/l\/too-deep\.md/);
    });
  });
});

describe("SPEC 3: files that are never content", () => {
  it("skips _x.md, .x.md and everything under _attachments/", async () => {
    await withSite({
      "docs/ok.md": page("Ok"),
      "docs/_partial.md": page("Partial"),
      "docs/.hidden.md": page("Hidden"),
      "docs/_attachments/a.md": page("Attachment"),
      "docs/_attachments.md": page("Attachments"),
      "docs/guide.md": page("Guide"),
      "docs/guide/_attachments/b.md": page("Nested attachment"),
      "docs/guide/_draft.markdown": page("Underscore"),
      "docs/guide/.swap.md": page("Dot"),
      "pages/_layout.html": page("Layout"),
      "pages/.x.md": page("Dot page"),
      "pages/home.md": page("Home"),
    }, async (s) => {
      assert.deepEqual(await feedPaths(s), ["docs/guide", "docs/ok", "pages/home"]);
      const guide = await s.json("/docs/guide.json");
      assert.deepEqual(guide.body.children, []);
      for (
        const path of [
          "/docs/_partial.json",
          "/docs/partial.json",
          "/docs/hidden.json",
          "/docs/attachments.json",
          "/docs/_attachments/a.json",
          "/docs/a.json",
          "/docs/guide/b.json",
          "/docs/guide/draft.json",
          "/pages/layout.json",
        ]
      ) {
        assert.equal((await s.request(path)).status, 404, path);
      }
      assert.deepEqual(s.log.warnings(), []);
    });
  });
});

describe("SPEC 3: symbolic links", () => {
  it("does not follow links that lead outside the content root, follows those inside", async () => {
    const outside = await mkdtemp(join(tmpdir(), "content-feed-outside-"));
    try {
      await mkdir(join(outside, "folder"), { recursive: true });
      await writeFile(join(outside, "secret.md"), page("Secret file"));
      await writeFile(join(outside, "folder", "inner.md"), page("Secret inner"));
      await withSite({
        "docs/ok.md": page("Ok"),
        "docs/box.md": page("Box"),
        "docs/shelf.md": page("Shelf"),
        "shared/inside.md": page("Inside file"),
        "shared/folder/item.md": page("Inside folder item"),
      }, async (s) => {
        // Links are made after the first load: reload to read them.
        await symlink(join(outside, "secret.md"), join(s.root, "docs", "leak.md"));
        await symlink(join(outside, "folder"), join(s.root, "docs", "box"));
        await symlink(join(s.root, "shared", "inside.md"), join(s.root, "docs", "alias.md"));
        await symlink(join(s.root, "shared", "folder"), join(s.root, "docs", "shelf"));
        // A cycle inside the root ends.
        await symlink(join(s.root, "shared", "folder"), join(s.root, "shared", "folder", "item"));
        await s.api.reload();
        assert.deepEqual(await feedPaths(s), [
          "docs/alias",
          "docs/box",
          "docs/ok",
          "docs/shelf",
          "docs/shelf/item",
        ]);
        // deno-lint-ignore no-explicit-any
        const titles = (await s.json("/api/content.json")).body.data.map((i: any) => i.title);
        assert.equal(titles.includes("Secret file"), false);
        assert.equal(titles.includes("Secret inner"), false);
        assert.equal((await s.request("/docs/leak.json")).status, 404);
        assert.equal((await s.request("/docs/box/inner.json")).status, 404);
        assert.deepEqual((await s.json("/docs/box.json")).body.children, []);
        const alias = await s.json("/docs/alias.json");
        assert.equal(alias.body.title, "Inside file");
        assert.deepEqual((await s.json("/docs/shelf.json")).body.children, [
          "docs_doc_shelf_item",
        ]);
      });
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("does not follow an outside link present at the first load", async () => {
    const outside = await mkdtemp(join(tmpdir(), "content-feed-outside-"));
    const root = await mkdtemp(join(tmpdir(), "content-feed-root-"));
    try {
      await writeFile(join(outside, "secret.md"), page("Secret file"));
      await mkdir(join(outside, "docs"));
      await writeFile(join(outside, "docs", "ok.md"), page("Ok"));
      await writeFile(join(root, "services.yaml"), config("docs: ~\napi: ~"));
      await mkdir(join(root, "docs"));
      await writeFile(join(root, "docs", "real.md"), page("Real"));
      await symlink(join(outside, "secret.md"), join(root, "docs", "leak.md"));
      await symlink(join(outside, "docs"), join(root, "docs", "real"));
      const api = await createContentApi({
        config: join(root, "services.yaml"),
        logger: memoryLogger(),
        now: () => 0,
      });
      const get = (path: string) => api.fetch(new Request(`http://localhost${path}`));
      const feed = await (await get("/api/content.json")).json();
      // deno-lint-ignore no-explicit-any
      assert.deepEqual(feed.data.map((i: any) => i.uri), ["real"]);
      for (const path of ["/docs/leak.json", "/docs/real/ok.json", "/docs/ok.json"]) {
        const response = await get(path);
        assert.equal(response.status, 404, path);
        await response.body?.cancel();
      }
    } finally {
      await rm(root, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });
});

describe("SPEC 3: two files with the same uri", () => {
  it("keeps a.markdown over a.md (path order) and warns naming both", async () => {
    await withSite({
      "docs/a.md": page("From md"),
      "docs/a.markdown": page("From markdown"),
      "docs/b.md": page("B"),
    }, async (s) => {
      assert.deepEqual(await feedPaths(s), ["docs/a", "docs/b"]);
      assert.equal((await s.json("/docs/a.json")).body.title, "From markdown");
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(warnings[0], /docs\/a\.md\b/);
      assert.match(warnings[0], /docs\/a\.markdown\b/);
    });
  });

  it("keeps the first sibling in path order on a front-matter slug clash and warns", async () => {
    await withSite({
      "docs/one.md": page("One", { slug: "Same Thing" }),
      "docs/two.md": page("Two", { slug: "same-thing" }),
      "docs/zeta.md": page("Zeta", { slug: "intro" }),
      "docs/intro.md": page("Intro"),
      // Not siblings: the same slug under two parents is no clash.
      "docs/x.md": page("X"),
      "docs/x/same-thing.md": page("X child"),
    }, async (s) => {
      assert.deepEqual(await feedPaths(s), [
        "docs/intro",
        "docs/same-thing",
        "docs/x",
        "docs/x/same-thing",
      ]);
      assert.equal((await s.json("/docs/same-thing.json")).body.title, "One");
      assert.equal((await s.json("/docs/intro.json")).body.title, "Intro");
      assert.equal((await s.json("/docs/x/same-thing.json")).body.title, "X child");
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 2, warnings.join("\n"));
      const clash = warnings.find((w) => w.includes("docs/two.md"));
      assert.ok(clash, warnings.join("\n"));
      assert.match(clash, /docs\/one\.md\b/);
      const other = warnings.find((w) => w.includes("docs/zeta.md"));
      assert.ok(other, warnings.join("\n"));
      assert.match(other, /docs\/intro\.md\b/);
    });
  });
});

describe("SPEC 3: plugin options and order", () => {
  it("honours path, include and exclude from services.yaml", async () => {
    await withSite(
      {
        "docs/ignored.md": page("Default folder"),
        "documentation/guide.md": page("Guide"),
        "documentation/guide/wip.tmp.md": page("Temp"),
        "documentation/guide/done.md": page("Done"),
        "documentation/drafts/wip.md": page("Draft folder"),
        "news/keep-a.md": page("Kept"),
        "news/keep-b.markdown": page("Not included"),
        "news/skip-c.md": page("Skipped"),
        "blog/keep-d.md": page("Default blog folder"),
      },
      async (s) => {
        assert.deepEqual(await feedPaths(s), ["docs/guide", "docs/guide/done", "blog/keep-a"]);
        const guide = await s.json("/docs/guide.json");
        assert.equal(guide.body.link, "https://example.com/docs/guide.json");
        assert.deepEqual(guide.body.children, ["docs_doc_guide_done"]);
        for (
          const path of [
            "/docs/ignored.json",
            "/docs/drafts/wip.json",
            "/docs/guide/wip-tmp.json",
            "/blog/keep-b.json",
            "/blog/skip-c.json",
            "/blog/keep-d.json",
            "/documentation/guide.json",
          ]
        ) {
          assert.equal((await s.request(path)).status, 404, path);
        }
        assert.deepEqual(s.log.warnings(), []);
      },
      config(`docs:
  path: documentation
  exclude: ["drafts/**", "*.tmp.md"]
blog: { path: news, include: ["keep-*.md"] }
api: ~`),
    );
  });

  it("orders the feed by the config's plugin order", async () => {
    await withSite(
      {
        "academy/c.md": page("Course"),
        "blog/p.md": page("Post"),
        "docs/d.md": page("Doc"),
        "faq/q.md": page("Question"),
        "pages/pg.md": page("Page"),
      },
      async (s) => {
        assert.deepEqual(await feedPaths(s), ["pages/pg", "faq/q", "docs/d", "blog/p"]);
        assert.equal((await s.request("/academy/c.json")).status, 404);
      },
      config("pages: ~\nfaq: ~\ndocs: ~\nblog: ~\napi: ~"),
    );
  });

  it("does not read a disabled plugin's folder", async () => {
    await withSite(
      {
        "docs/d.md": page("Doc"),
        "faq/broken.md": "---\ntitle: [unclosed\n---\nBody",
        "faq/orphan/q.md": page("Orphan"),
        "faq/q.md": md({ title: ["wrong"], date: "2026-02-30" }, LONG),
        "academy/c/m/l/deep.md": page("Deep"),
      },
      async (s) => {
        assert.deepEqual(await feedPaths(s), ["docs/d"]);
        assert.equal((await s.request("/faq/q.json")).status, 404);
        assert.deepEqual(s.log.warnings(), []);
      },
      config("docs: ~\napi: ~"),
    );
  });
});
