// End-to-end tests of GET /{type}/{uri}.json (SPEC 7) over real files in temp folders.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFile, stat, utimes } from "node:fs/promises";
import { join } from "node:path";
import { countedHandler } from "./counted_handler.ts";
import {
  FEED_KEYS,
  LONG,
  md,
  removeSite,
  site,
  type SiteFiles,
  type TestSite,
  writeSite,
} from "./helpers.ts";

const CONFIG = `parameters:
  service.content.config:
    url: https://example.com
    plugins:
      academy: ~
      docs: { orphans: skip } # the strict layout: a folder without its own file is no content
      faq: ~
      api: ~
`;

const dated = (front: Record<string, unknown>) => ({
  date: "2026-01-01",
  last_update: "2026-01-02",
  ...front,
});

const SHORT = md(dated({ title: "Short", sidebar_position: 2, tags: ["Node"] }), "Short.");

/** Served items, feed-eligible or not, drafts, orphans, a disabled plugin, and bait files. */
const FILES: SiteFiles = {
  "academy/course.md": md(dated({ title: "Course" }), LONG),
  "academy/course/mod.md": md(dated({ title: "Module" }), LONG),
  "academy/course/mod/lesson.md": md(dated({ title: "Lesson" }), `Lesson one.\n\n${LONG}`),
  "docs/guide.md": md(dated({ title: "Guide" }), LONG),
  "docs/guide/intro.md": md(dated({ title: "Intro", sidebar_position: 1, tags: ["Node"] }), LONG),
  "docs/guide/short.md": SHORT,
  "docs/guide/noindex.md": md(
    dated({ title: "No index", sidebar_position: 3, indexable: false }),
    LONG,
  ),
  "docs/guide/unlisted.md": md(
    dated({ title: "Unlisted", sidebar_position: 4, unlisted: true }),
    LONG,
  ),
  "docs/guide/empty.md": md(dated({ title: "Empty", sidebar_position: 5 }), ""),
  "docs/guide/wip.md": md(
    dated({ title: "WIP", sidebar_position: 0, draft: true, indexable: true }),
    LONG,
  ),
  "docs/guide/wip/deep.md": md(dated({ title: "Deep", draft: false, indexable: true }), LONG),
  "docs/guide/wip/deep/deeper.md": md(dated({ title: "Deeper" }), LONG),
  "docs/slugged.md": md(dated({ title: "Slugged", slug: "Guía Rápida", date: "2026-02-01" }), LONG),
  "docs/slugged/step-one.md": md(dated({ title: "Step one" }), LONG),
  "docs/orphan/lost.md": md(dated({ title: "Lost" }), LONG),
  "docs/_partial.md": md(dated({ title: "Partial" }), LONG),
  "docs/.hidden.md": md(dated({ title: "Hidden" }), LONG),
  "docs/guide/_attachments/file.md": md(dated({ title: "Attachment" }), LONG),
  "faq/secret-draft.md": md(dated({ title: "Secret", draft: true }), LONG),
  "blog/post.md": md(dated({ title: "Post" }), LONG),
  "etc/passwd.json": '{"secret":"SECRET-PASSWD"}',
  "docs/passwd.json": '{"secret":"SECRET-DOCS"}',
};

/** Paths that try to step out of a plugin's folder, or name a file that is no item. */
const TRAVERSALS = [
  "/docs/../services.yaml",
  "/docs/..%2Fservices.yaml",
  "/docs/..%2Fservices.yaml.json",
  "/docs/..%2F..%2Fservices.yaml",
  "/docs/%2e%2e/%2e%2e/etc/passwd.json",
  "/docs/%2e%2e%2f%2e%2e%2fetc%2fpasswd.json",
  "/docs/..%2F..%2Fetc%2Fpasswd.json",
  "/docs/guide/..%2F..%2F..%2Fetc%2Fpasswd.json",
  "/docs/..%5C..%5Cservices.yaml.json",
  "/docs/passwd.json",
  "/etc/passwd.json",
  "/docs/%00.json",
  "/docs/guide%00.json",
];

/**
 * Whether reading a file moves its access time on this file system (not
 * under `noatime`): set to 0, older than its modification time, a read
 * moves it under `relatime` too.
 */
async function accessTimesMove(file: string): Promise<boolean> {
  await utimes(file, 0, (await stat(file)).mtime);
  await readFile(file);
  return (await stat(file)).atimeMs !== 0;
}

/** body, parent and children of every served item, by id. */
const DETAIL: Record<string, { body: string; parent: string | null; children: string[] }> = {
  "academy_course_course": {
    body: LONG,
    parent: null,
    children: ["academy_module_course_mod"],
  },
  "academy_module_course_mod": {
    body: LONG,
    parent: "academy_course_course",
    children: ["academy_lesson_course_mod_lesson"],
  },
  "academy_lesson_course_mod_lesson": {
    body: `Lesson one.\n\n${LONG}`,
    parent: "academy_module_course_mod",
    children: [],
  },
  "docs_doc_guia-rapida": {
    body: LONG,
    parent: null,
    children: ["docs_doc_guia-rapida_step-one"],
  },
  "docs_doc_guia-rapida_step-one": { body: LONG, parent: "docs_doc_guia-rapida", children: [] },
  "docs_doc_guide": {
    body: LONG,
    parent: null,
    children: [
      "docs_doc_guide_intro",
      "docs_doc_guide_short",
      "docs_doc_guide_noindex",
      "docs_doc_guide_unlisted",
      "docs_doc_guide_empty",
    ],
  },
  "docs_doc_guide_intro": { body: LONG, parent: "docs_doc_guide", children: [] },
};

async function withSite(
  files: SiteFiles,
  config: string,
  fn: (s: TestSite) => Promise<void>,
): Promise<void> {
  const s = await site(files, { config });
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** GETs an item path, asserts a 200 JSON answer and returns the body. */
// deno-lint-ignore no-explicit-any
async function item(s: TestSite, path: string): Promise<any> {
  const { status, body, headers } = await s.json(path);
  assert.equal(status, 200, `GET ${path}: ${JSON.stringify(body)}`);
  assert.equal(headers.get("content-type"), "application/json; charset=utf-8", path);
  return body;
}

/** GETs a path and asserts a 404 problem that leaks nothing of the files. */
async function notFound(s: Pick<TestSite, "request">, path: string): Promise<void> {
  const response = await s.request(path);
  assert.ok(response instanceof Response, `${path} gets a Response`);
  const text = await response.text();
  assert.equal(response.status, 404, `GET ${path}: ${text}`);
  assert.equal(response.headers.get("content-type"), "application/problem+json", path);
  const body = JSON.parse(text);
  assert.deepEqual(
    { type: body.type, title: body.title, status: body.status },
    { type: "about:blank", title: "Not Found", status: 404 },
    path,
  );
  for (const leak of ["SECRET", "parameters", "service.content.config", "This body is long"]) {
    assert.ok(!text.includes(leak), `${path} leaks ${leak}: ${text}`);
  }
}

describe("item route (SPEC 7)", () => {
  it("resolves every feed link to the feed fields, then body, parent and children", async () => {
    await withSite(FILES, CONFIG, async (s) => {
      const feed = (await s.json("/api/content.json")).body;
      assert.deepEqual(
        // deno-lint-ignore no-explicit-any
        feed.data.map((i: any) => i.id),
        [
          "academy_course_course",
          "academy_module_course_mod",
          "academy_lesson_course_mod_lesson",
          "docs_doc_guia-rapida",
          "docs_doc_guia-rapida_step-one",
          "docs_doc_guide",
          "docs_doc_guide_intro",
        ],
      );
      for (const entry of feed.data) {
        const url = new URL(entry.link);
        assert.equal(url.origin, "https://example.com");
        assert.equal(url.pathname, `/${entry.type}/${entry.uri}.json`);
        const body = await item(s, url.pathname);
        assert.deepEqual(Object.keys(body), [...FEED_KEYS, "body", "parent", "children"]);
        assert.deepEqual(body, { ...entry, ...DETAIL[entry.id] }, entry.id);
      }
    });
  });

  it("serves a non-indexable item with every field", async () => {
    await withSite(FILES, CONFIG, async (s) => {
      const body = await item(s, "/docs/guide/short.json");
      assert.deepEqual(Object.keys(body), [...FEED_KEYS, "body", "parent", "children"]);
      assert.deepEqual(body, {
        id: "docs_doc_guide_short",
        checksum: await sha256(SHORT),
        type: "docs",
        category: "doc",
        uri: "guide/short",
        link: "https://example.com/docs/guide/short.json",
        image: null,
        title: "Short",
        description: "Short.",
        authors: [{ name: "Anonymous", slug: "anonymous" }],
        // The count is the site-wide number of feed items with the tag: only guide/intro.
        tags: [{ name: "Node", slug: "node", count: 1 }],
        date: "2026-01-01",
        last_update: "2026-01-02",
        time: 1,
        body: "Short.",
        parent: "docs_doc_guide",
        children: [],
      });
    });
  });

  it("serves items left out of the feed: indexable false, unlisted, empty body", async () => {
    await withSite(FILES, CONFIG, async (s) => {
      const cases: [string, string, string][] = [
        ["/docs/guide/noindex.json", "docs_doc_guide_noindex", LONG],
        ["/docs/guide/unlisted.json", "docs_doc_guide_unlisted", LONG],
        ["/docs/guide/empty.json", "docs_doc_guide_empty", ""],
      ];
      for (const [path, id, text] of cases) {
        const body = await item(s, path);
        assert.deepEqual(
          { id: body.id, body: body.body, parent: body.parent, children: body.children },
          { id, body: text, parent: "docs_doc_guide", children: [] },
          path,
        );
        assert.equal(body.link, `https://example.com${path}`);
      }
    });
  });

  it("serves an item whose uri has several segments, and slugs from front matter", async () => {
    await withSite(FILES, CONFIG, async (s) => {
      const lesson = await item(s, "/academy/course/mod/lesson.json");
      assert.deepEqual(
        {
          id: lesson.id,
          category: lesson.category,
          uri: lesson.uri,
          link: lesson.link,
          parent: lesson.parent,
          children: lesson.children,
          body: lesson.body,
        },
        {
          id: "academy_lesson_course_mod_lesson",
          category: "lesson",
          uri: "course/mod/lesson",
          link: "https://example.com/academy/course/mod/lesson.json",
          parent: "academy_module_course_mod",
          children: [],
          body: `Lesson one.\n\n${LONG}`,
        },
      );
      const step = await item(s, "/docs/guia-rapida/step-one.json");
      assert.equal(step.id, "docs_doc_guia-rapida_step-one");
      assert.equal(step.parent, "docs_doc_guia-rapida");
      // The file name is not the uri when front matter sets a slug.
      await notFound(s, "/docs/slugged.json");
      await notFound(s, "/docs/slugged/step-one.json");
      // Only the full uri matches.
      await notFound(s, "/academy/mod/lesson.json");
      await notFound(s, "/academy/lesson.json");
      await notFound(s, "/docs/guide/intro/.json");
      await notFound(s, "/docs/GUIDE.json");
      await notFound(s, "/docs/guide");
      await notFound(s, "/docs/guide/intro.md.json");
      await notFound(s, "/docs/guide/intro.json.md");
      // The same path with .md is the item's Markdown form (SPEC 14), never another item.
      const markdown = await s.request("/docs/guide.md");
      assert.equal(markdown.status, 200);
      assert.equal(markdown.headers.get("content-type"), "text/markdown; charset=utf-8");
      assert.match(await markdown.text(), /^---\ntitle: "Guide"\n/);
    });
  });

  it("404s drafts and their whole subtree, and leaves drafts out of children", async () => {
    await withSite(FILES, CONFIG, async (s) => {
      await notFound(s, "/docs/guide/wip.json");
      await notFound(s, "/docs/guide/wip/deep.json");
      await notFound(s, "/docs/guide/wip/deep/deeper.json");
      await notFound(s, "/faq/secret-draft.json");
      const guide = await item(s, "/docs/guide.json");
      assert.deepEqual(guide.children, DETAIL["docs_doc_guide"].children);
    });
  });

  it("404s files in a folder without a file of its own name (orphans: skip)", async () => {
    await withSite(FILES, CONFIG, async (s) => {
      await notFound(s, "/docs/orphan/lost.json");
      await notFound(s, "/docs/lost.json");
      await notFound(s, "/docs/orphan.json");
    });
  });

  it("404s files that are never content", async () => {
    await withSite(FILES, CONFIG, async (s) => {
      await notFound(s, "/docs/_partial.json");
      await notFound(s, "/docs/partial.json");
      await notFound(s, "/docs/.hidden.json");
      await notFound(s, "/docs/hidden.json");
      await notFound(s, "/docs/guide/_attachments/file.json");
      await notFound(s, "/docs/guide/attachments/file.json");
    });
  });

  it("404s an unknown type and a disabled plugin's type", async () => {
    await withSite(FILES, CONFIG, async (s) => {
      await notFound(s, "/nope/guide.json");
      await notFound(s, "/doc/guide.json");
      await notFound(s, "/DOCS/guide.json");
      await notFound(s, "/api/guide.json");
      await notFound(s, "/blog/post.json");
      await notFound(s, "/pages/guide.json");
      // The same file is served once its plugin is enabled.
      const all = CONFIG.replace("      faq: ~\n", "      faq: ~\n      blog: ~\n");
      await withSite(FILES, all, async (t) => {
        assert.equal((await item(t, "/blog/post.json")).id, "blog_post_post");
      });
    });
  });

  it("404s path traversal attempts and never reads the files they name", async (t) => {
    const root = await writeSite({ ...FILES, "services.yaml": CONFIG });
    try {
      const { handle, reads } = await countedHandler(root);
      const request = async (path: string) =>
        await handle(new Request(`https://example.com${path}`));
      // The files they name, outside the index: a read of any of them would move its access time.
      const named = ["services.yaml", "etc/passwd.json", "docs/passwd.json"].map((p) =>
        join(root, p)
      );
      const watched = await accessTimesMove(join(root, "docs/guide.md"));
      if (!watched) {
        t.diagnostic("access times do not move here: reads are counted by the handler only");
      }
      for (const file of named) await utimes(file, 0, (await stat(file)).mtime);
      // The count is live: an item's own route reads its file, once.
      const guide = await request("/docs/guide.json");
      assert.equal(guide.status, 200);
      await guide.arrayBuffer();
      assert.deepEqual([...reads], [["docs/guide.md", 1]]);
      reads.clear();
      for (const path of TRAVERSALS) await notFound({ request }, path);
      assert.deepEqual([...reads], [], "a traversal read an item's file");
      if (watched) {
        for (const file of named) {
          assert.equal((await stat(file)).atimeMs, 0, `${file} was read`);
        }
      }
    } finally {
      await removeSite(root);
    }
  });

  it("404s malformed percent-encoding rather than failing", async () => {
    await withSite(FILES, CONFIG, async (s) => {
      for (
        const path of [
          "/docs/%E0%A4%A.json",
          "/docs/%.json",
          "/docs/guide%ZZ.json",
          "/%FF/guide.json",
        ]
      ) {
        await notFound(s, path);
      }
      assert.deepEqual(s.log.lines.filter((l) => l.level === "error"), []);
    });
  });

  it("serves an encoded slash as the same uri (it names the same item)", async () => {
    await withSite(FILES, CONFIG, async (s) => {
      const plain = await item(s, "/docs/guide/intro.json");
      const encoded = await item(s, "/docs/guide%2Fintro.json");
      assert.deepEqual(encoded, plain);
      assert.equal(encoded.link, "https://example.com/docs/guide/intro.json");
    });
  });
});
