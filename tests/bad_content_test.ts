// Bad content files (SPEC 3, 4, 5, 7): each is reported in a warning naming it, or served as the
// SPEC says, while every other item keeps serving.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, stat, symlink, writeFile } from "node:fs/promises";
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ALL_PLUGINS,
  LONG,
  md,
  removeSite,
  site,
  type SiteFiles,
  type TestSite,
  withSite as withSiteOptions,
  writeSite,
} from "./helpers.ts";
import { OWN_RUNTIME, type Running, RUNTIMES, startServer } from "./server_helpers.ts";

const GOOD: SiteFiles = {
  "docs/good.md": md({ title: "Good", date: "2026-01-15", last_update: "2026-01-16" }, LONG),
};

/** A site of `files` beside one good file, always removed. */
function withSite(files: SiteFiles, fn: (s: TestSite) => Promise<void>): Promise<void> {
  return withSiteOptions({ ...GOOD, ...files }, {}, fn);
}

/** `site()` with `prepare(root)` before the first load, and `cleanup(root)` after the test. */
async function withPreparedSite(
  files: SiteFiles,
  prepare: (root: string) => Promise<void>,
  fn: (s: TestSite) => Promise<void>,
  cleanup: (root: string) => Promise<void> = async () => {},
): Promise<void> {
  let root = "";
  const s = await site({ ...GOOD, ...files }, {
    prepare: (r) => prepare(root = r),
  }).catch(async (error) => {
    if (root) await cleanup(root);
    throw error;
  });
  try {
    await fn(s);
  } finally {
    await cleanup(s.root);
    await s.close();
  }
}

/** The warnings that name a file (its path relative to the content root). */
function warningsFor(s: TestSite, file: string): string[] {
  return s.log.warnings().filter((w) => w.includes(file));
}

/** The capabilities that let root read and list any file, whatever its mode. */
const READ_ANYTHING = "-dac_override,-dac_read_search";

/**
 * How to start a server for which a mode of `000` holds: as it is when the
 * mode already holds for this process; as root (CI runs as root, which reads
 * anything) through `setpriv` without the capabilities that override file
 * modes, so it stays root and owns every file but reads as an owner does;
 * else why it cannot be tested here. `locked` is a file of mode `000`.
 */
function unprivileged(locked: string): { prefix: string[] } | { skip: string } {
  try {
    readFileSync(locked);
  } catch {
    return { prefix: [] };
  }
  const prefix = [
    "setpriv",
    `--inh-caps=${READ_ANYTHING}`,
    `--bounding-set=${READ_ANYTHING}`,
    "--",
  ];
  const probe = spawnSync(prefix[0], [...prefix.slice(1), "cat", locked], { encoding: "utf8" });
  if (probe.status !== 0 && /denied/i.test(probe.stderr ?? "")) return { prefix };
  return {
    skip: `file modes do not hold for this process, and setpriv cannot drop them: ${
      probe.error?.message ?? probe.stderr
    }`,
  };
}

/** Stops a server and gives the warning lines it printed, every one (its stderr has closed). */
async function stopForWarnings(server: Running): Promise<string[]> {
  const closed = once(server.process, "close");
  await server.stop();
  await closed;
  return server.stderr().split("\n").filter((line) => line.startsWith("warning: "));
}

/** The ids in the unfiltered feed. */
async function feedIds(s: TestSite): Promise<string[]> {
  const { status, body } = await s.json("/api/content.json");
  assert.equal(status, 200);
  // deno-lint-ignore no-explicit-any
  return body.data.map((item: any) => item.id);
}

/** The good file is in the feed, served at its link, and no warning names it. */
async function assertGoodServes(s: TestSite): Promise<void> {
  assert.ok((await feedIds(s)).includes("docs_doc_good"), "the good item is in the feed");
  const item = await s.json("/docs/good.json");
  assert.equal(item.status, 200);
  assert.equal(item.body.title, "Good");
  assert.deepEqual(warningsFor(s, "docs/good.md"), []);
}

/** A file that is left out: one warning names it, and no route serves it. */
async function assertLeftOut(s: TestSite, file: string, uriPath: string, reason?: RegExp) {
  const warnings = warningsFor(s, file);
  assert.equal(warnings.length, 1, `one warning names ${file}: ${JSON.stringify(s.log.lines)}`);
  if (reason) assert.match(warnings[0], reason);
  const item = await s.request(uriPath);
  assert.equal(item.status, 404, uriPath);
  assert.equal(item.headers.get("content-type"), "application/problem+json");
  await item.arrayBuffer();
  const sitemap = await (await s.request("/sitemap.xml")).text();
  assert.ok(!sitemap.includes(uriPath.replace(/\.json$/, "<")), `${uriPath} not in the sitemap`);
}

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

describe("bad content files", () => {
  it("invalid YAML front matter: left out, the warning names the file and the line", async () => {
    await withSite(
      { "docs/bad.md": "---\ntitle: ok\nkey: value: other\n---\n" + LONG },
      async (s) => {
        await assertLeftOut(s, "docs/bad.md", "/docs/bad.json", /\bline 3\b/);
        assert.deepEqual(await feedIds(s), ["docs_doc_good"]);
        await assertGoodServes(s);
      },
    );
  });

  it("front matter that is not a map: left out with a warning", async () => {
    await withSite({ "docs/list.md": "---\n- a\n- b\n---\n" + LONG }, async (s) => {
      await assertLeftOut(s, "docs/list.md", "/docs/list.json");
      assert.deepEqual(await feedIds(s), ["docs_doc_good"]);
      await assertGoodServes(s);
    });
  });

  it("unterminated front matter: left out with a warning (the YAML never leaks into a body)", async () => {
    await withSite({ "docs/open.md": `---\ntitle: Open\nsecret: yes\n\n${LONG}\n` }, async (s) => {
      await assertLeftOut(s, "docs/open.md", "/docs/open.json");
      assert.deepEqual(await feedIds(s), ["docs_doc_good"]);
      await assertGoodServes(s);
    });
  });

  it("front matter only: served by the item route with an empty body, never in the feed", async () => {
    const files = {
      "docs/only.md": md({ title: "Only", date: "2026-02-01" }),
      "docs/forced.md": md({ title: "Forced", indexable: true }),
    };
    await withSite(files, async (s) => {
      assert.deepEqual(await feedIds(s), ["docs_doc_good"]);
      const only = await s.json("/docs/only.json");
      assert.equal(only.status, 200);
      assert.equal(only.body.title, "Only");
      assert.equal(only.body.body, "");
      assert.equal(only.body.description, "");
      assert.equal(only.body.date, "2026-02-01");
      // SPEC 5: an empty body is never in the feed, whatever `indexable` says.
      const forced = await s.json("/docs/forced.json");
      assert.equal(forced.status, 200);
      assert.equal(forced.body.body, "");
      const sitemap = await (await s.request("/sitemap.xml")).text();
      assert.ok(!sitemap.includes("/docs/only<") && !sitemap.includes("/docs/forced<"));
      await assertGoodServes(s);
    });
  });

  it("an empty file: an item with an empty body, served by the item route, not in the feed", async () => {
    await withSite({ "docs/empty.md": "" }, async (s) => {
      assert.deepEqual(await feedIds(s), ["docs_doc_good"]);
      const { mtimeMs } = await stat(join(s.root, "docs/empty.md"));
      const { status, body } = await s.json("/docs/empty.json");
      assert.equal(status, 200);
      assert.deepEqual(body, {
        id: "docs_doc_empty",
        checksum: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        type: "docs",
        category: "doc",
        uri: "empty",
        link: "https://example.com/docs/empty.json",
        image: null,
        title: "empty",
        description: "",
        authors: [{ name: "Anonymous", slug: "anonymous" }],
        tags: [],
        date: dayOf(mtimeMs),
        last_update: dayOf(mtimeMs),
        time: 1,
        body: "",
        parent: null,
        children: [],
      });
      await assertGoodServes(s);
    });
  });

  it("a binary file (NUL bytes): left out with a warning", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    const nul = new TextEncoder().encode(`---\ntitle: Nul\n---\n${LONG}\0${LONG}`);
    await withSite({ "docs/image.md": png, "docs/nul.md": nul }, async (s) => {
      await assertLeftOut(s, "docs/image.md", "/docs/image.json");
      await assertLeftOut(s, "docs/nul.md", "/docs/nul.json");
      assert.deepEqual(await feedIds(s), ["docs_doc_good"]);
      await assertGoodServes(s);
    });
  });

  it("a file that is not UTF-8 (latin-1): left out with a warning", async () => {
    const text = `---\ntitle: Caf\xe9 cr\xe8me\n---\n${LONG} Cr\xe8me br\xfbl\xe9e.`;
    const latin1 = Uint8Array.from(text, (c) => c.charCodeAt(0));
    await withSite({ "docs/latin.md": latin1 }, async (s) => {
      await assertLeftOut(s, "docs/latin.md", "/docs/latin.json");
      assert.deepEqual(await feedIds(s), ["docs_doc_good"]);
      await assertGoodServes(s);
    });
  });

  it("a 20 MB Markdown file: loaded and served in full", async () => {
    const paragraph =
      "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod.\n\n";
    const body = paragraph.repeat(Math.ceil((20 * 1024 * 1024) / paragraph.length)).trim();
    const words = body.split(/\s+/).length;
    await withSite(
      {
        // Above the 10 MB default of max_file_size (SPEC 3), so the limit is raised.
        "services.yaml": `${ALL_PLUGINS}    max_file_size: 30MB\n`,
        "docs/huge.md": md({ title: "Huge", date: "2026-01-10" }, body),
      },
      async (s) => {
        assert.deepEqual(warningsFor(s, "docs/huge.md"), []);
        assert.deepEqual(await feedIds(s), ["docs_doc_good", "docs_doc_huge"]);
        const item = await s.json("/docs/huge.json");
        assert.equal(item.status, 200);
        assert.equal(item.body.body.length, body.length);
        assert.equal(item.body.body, body);
        assert.equal(item.body.time, Math.ceil(words / 200));
        assert.equal(item.body.description, paragraph.trim());
        const found = await s.json("/api/content.json?search=adipiscing");
        assert.deepEqual(found.body.data.map((d: { id: string }) => d.id), ["docs_doc_huge"]);
        await assertGoodServes(s);
      },
    );
  });

  it("a UTF-8 BOM and CRLF line endings are accepted", async () => {
    const files = {
      "docs/crlf.md": "\uFEFF---\r\ntitle: Crlf\r\ntags: [Uno, Dos]\r\n---\r\n" +
        `First paragraph.\r\n\r\n${LONG}\r\n`,
      "docs/bom.md": `\uFEFF# Heading\n\n${LONG}`,
      "docs/lf.md": `\uFEFF---\ntitle: Lf\n---\n${LONG}`,
    };
    await withSite(files, async (s) => {
      for (const file of Object.keys(files)) assert.deepEqual(warningsFor(s, file), [], file);
      const crlf = await s.json("/docs/crlf.json");
      assert.equal(crlf.status, 200);
      assert.equal(crlf.body.title, "Crlf");
      assert.deepEqual(crlf.body.tags, [
        { name: "Uno", slug: "uno", count: 1 },
        { name: "Dos", slug: "dos", count: 1 },
      ]);
      assert.equal(crlf.body.description, "First paragraph.");
      assert.equal(crlf.body.body.replace(/\r\n/g, "\n"), `First paragraph.\n\n${LONG}`);
      const bom = await s.json("/docs/bom.json");
      assert.equal(bom.body.title, "Heading"); // the first level-1 heading (SPEC 4)
      assert.equal(bom.body.body, `# Heading\n\n${LONG}`);
      assert.equal(bom.body.description, LONG);
      const lf = await s.json("/docs/lf.json");
      assert.equal(lf.body.title, "Lf");
      assert.equal(lf.body.body, LONG);
      assert.deepEqual((await feedIds(s)).sort(), [
        "docs_doc_bom",
        "docs_doc_crlf",
        "docs_doc_good",
        "docs_doc_lf",
      ]);
    });
  });

  it("front-matter values of the wrong type fall back to defaults, with a warning per key", async () => {
    const front = [
      "title: [1, 2]",
      "description: {a: 1}",
      "image: 5",
      "authors: true",
      "tags: {x: 1}",
      "date: true",
      "time: abc",
      "indexable: maybe",
      "sidebar_position: first",
    ].join("\n");
    await withSite({ "docs/2026-04-01-types.md": md(front, LONG) }, async (s) => {
      const warnings = warningsFor(s, "docs/2026-04-01-types.md");
      const keys = [
        "title",
        "description",
        "image",
        "authors",
        "tags",
        "date",
        "time",
        "indexable",
        "sidebar_position",
      ];
      for (const key of keys) {
        const named = warnings.filter((w) => new RegExp(`['"\`]${key}['"\`]`).test(w));
        assert.equal(named.length, 1, `one warning names '${key}': ${JSON.stringify(warnings)}`);
      }
      const { status, body } = await s.json("/docs/2026-04-01-types.json");
      assert.equal(status, 200);
      const { checksum: _c, last_update: _l, body: _b, ...fields } = body;
      assert.deepEqual(fields, {
        id: "docs_doc_2026-04-01-types",
        type: "docs",
        category: "doc",
        uri: "2026-04-01-types",
        link: "https://example.com/docs/2026-04-01-types.json",
        image: null,
        title: "2026-04-01-types",
        description: LONG,
        authors: [{ name: "Anonymous", slug: "anonymous" }],
        tags: [],
        date: "2026-04-01",
        time: 1,
        parent: null,
        children: [],
      });
      assert.deepEqual((await feedIds(s)).sort(), ["docs_doc_2026-04-01-types", "docs_doc_good"]);
      await assertGoodServes(s);
    });
  });

  it("impossible dates fall back (file name prefix, then modification time) with a warning", async () => {
    const files = {
      "blog/2026-01-05-post.md": md({ date: "2026-02-30", last_update: "2026-02-29" }, LONG),
      "blog/undated.md": md({ created: "2025-13-01" }, LONG),
    };
    await withSite(files, async (s) => {
      const post = warningsFor(s, "blog/2026-01-05-post.md");
      assert.equal(post.length, 2, JSON.stringify(post));
      assert.ok(post.some((w) => w.includes("2026-02-30") && /['"`]date['"`]/.test(w)), post[0]);
      assert.ok(post.some((w) => w.includes("2026-02-29") && /['"`]last_update['"`]/.test(w)));
      const undated = warningsFor(s, "blog/undated.md");
      assert.equal(undated.length, 1);
      assert.match(undated[0], /['"`]created['"`]/);
      const postMtime = (await stat(join(s.root, "blog/2026-01-05-post.md"))).mtimeMs;
      const undatedMtime = (await stat(join(s.root, "blog/undated.md"))).mtimeMs;
      const a = await s.json("/blog/2026-01-05-post.json");
      assert.deepEqual([a.body.date, a.body.last_update], ["2026-01-05", dayOf(postMtime)]);
      const b = await s.json("/blog/undated.json");
      assert.deepEqual([b.body.date, b.body.last_update], [
        dayOf(undatedMtime),
        dayOf(undatedMtime),
      ]);
      assert.deepEqual((await feedIds(s)).sort(), [
        "blog_post_2026-01-05-post",
        "blog_post_undated",
        "docs_doc_good",
      ]);
      await assertGoodServes(s);
    });
  });

  it("duplicate slugs: the first in path order wins, a warning names both files", async () => {
    const files = {
      "docs/a.md": md({ title: "A", slug: "same" }, LONG),
      "docs/b.md": md({ title: "B", slug: "Same" }, LONG),
      "docs/b/child.md": md({ title: "Child of B" }, LONG),
      "docs/c.markdown": md({ title: "C markdown" }, LONG),
      "docs/c.md": md({ title: "C md" }, LONG),
    };
    await withSite(files, async (s) => {
      const b = warningsFor(s, "docs/b.md");
      assert.equal(b.length, 1, JSON.stringify(s.log.lines));
      assert.ok(b[0].includes("docs/a.md"), b[0]);
      // "c.markdown" < "c.md" in path order.
      const c = warningsFor(s, "docs/c.md");
      assert.equal(c.length, 1, JSON.stringify(s.log.lines));
      assert.ok(c[0].includes("docs/c.markdown"), c[0]);
      assert.equal((await s.json("/docs/same.json")).body.title, "A");
      assert.equal((await s.json("/docs/c.json")).body.title, "C markdown");
      assert.equal((await s.request("/docs/same/child.json")).status, 404);
      assert.equal((await s.request("/docs/b.json")).status, 404);
      assert.deepEqual((await feedIds(s)).sort(), ["docs_doc_c", "docs_doc_good", "docs_doc_same"]);
      await assertGoodServes(s);
    });
  });

  it("symbolic links that lead outside the content root: not followed, with a warning", async () => {
    const outside = await mkdtemp(join(tmpdir(), "content-feed-outside-"));
    try {
      await writeFile(join(outside, "secret.md"), md({ title: "Secret" }, LONG));
      await mkdir(join(outside, "more"));
      await writeFile(join(outside, "more", "deep.md"), md({ title: "Deep" }, LONG));
      await withPreparedSite(
        { "docs/guide.md": md({ title: "Guide" }, LONG) },
        async (root) => {
          await symlink(join(outside, "secret.md"), join(root, "docs/secret.md"));
          // A folder link beside its own file, so that only the link keeps it out.
          await symlink(join(outside, "more"), join(root, "docs/guide"));
        },
        async (s) => {
          assert.equal(warningsFor(s, "docs/secret.md").length, 1, JSON.stringify(s.log.lines));
          assert.equal(warningsFor(s, "docs/guide").length, 1, JSON.stringify(s.log.lines));
          assert.equal((await s.request("/docs/secret.json")).status, 404);
          assert.equal((await s.request("/docs/guide/deep.json")).status, 404);
          const feed = await (await s.request("/api/content.json")).text();
          assert.ok(!feed.includes("Secret") && !feed.includes("Deep"));
          assert.deepEqual((await feedIds(s)).sort(), ["docs_doc_good", "docs_doc_guide"]);
          await assertGoodServes(s);
        },
      );
    } finally {
      await removeSite(outside);
    }
  });

  it("a symbolic link outside the root that appears later is warned about on reload", async () => {
    const outside = await mkdtemp(join(tmpdir(), "content-feed-outside-"));
    try {
      await writeFile(join(outside, "secret.md"), md({ title: "Secret" }, LONG));
      await withSite({}, async (s) => {
        assert.deepEqual(s.log.warnings(), []);
        await symlink(join(outside, "secret.md"), join(s.root, "docs/secret.md"));
        await s.api.reload();
        assert.equal(warningsFor(s, "docs/secret.md").length, 1, JSON.stringify(s.log.lines));
        assert.equal((await s.request("/docs/secret.json")).status, 404);
        await assertGoodServes(s);
      });
    } finally {
      await removeSite(outside);
    }
  });

  it("unreadable files and folders: left out with a warning, also when the tests run as root", async (t) => {
    const root = await writeSite({
      "services.yaml": ALL_PLUGINS,
      ...GOOD,
      "docs/locked.md": md({ title: "Locked" }, LONG),
      "docs/closed.md": md({ title: "Closed" }, LONG),
      "docs/closed/inner.md": md({ title: "Inner" }, LONG),
    });
    try {
      await chmod(join(root, "docs/locked.md"), 0o000);
      await chmod(join(root, "docs/closed"), 0o000);
      const runAs = unprivileged(join(root, "docs/locked.md"));
      if ("skip" in runAs) return t.skip(runAs.skip);
      const server = await startServer([...runAs.prefix, ...RUNTIMES[OWN_RUNTIME]("main.ts")], {
        CONTENT_CONFIG: join(root, "services.yaml"),
      });
      let warnings: string[];
      try {
        assert.equal((await fetch(`${server.url}/docs/locked.json`)).status, 404);
        assert.equal((await fetch(`${server.url}/docs/closed/inner.json`)).status, 404);
        const feed = await (await fetch(`${server.url}/api/content.json`)).json();
        // deno-lint-ignore no-explicit-any
        const ids = feed.data.map((item: any) => item.id).sort();
        assert.deepEqual(ids, ["docs_doc_closed", "docs_doc_good"]);
        const good = await fetch(`${server.url}/docs/good.json`);
        assert.equal(good.status, 200);
        assert.equal((await good.json()).title, "Good");
      } finally {
        warnings = await stopForWarnings(server);
      }
      // Warnings about content name the file first; Bun's watcher, refused the closed folder,
      // adds one of its own (it polls instead), which names the folder's absolute path.
      const naming = (file: string) =>
        warnings.filter((line) => line.startsWith(`warning: ${file}`));
      assert.equal(naming("docs/locked.md").length, 1, warnings.join("\n"));
      assert.match(naming("docs/locked.md")[0], /cannot be read \(EACCES\); left out/);
      assert.equal(naming("docs/closed").length, 1, warnings.join("\n"));
      assert.match(naming("docs/closed")[0], /docs\/closed\/: .*EACCES/);
      assert.deepEqual(naming("docs/good.md"), []);
    } finally {
      await chmod(join(root, "docs/locked.md"), 0o644).catch(() => {});
      await chmod(join(root, "docs/closed"), 0o755).catch(() => {});
      await removeSite(root);
    }
  });

  it("file names with spaces and non-ASCII letters: slugified uri, served at its link", async () => {
    const files = {
      "docs/Guía Rápida.md": md({ date: "2026-01-02" }, LONG),
      "docs/Ñandú  über   alles.md": md({ title: "Ñandú" }, LONG),
      "docs/Cafe\u0301 Crème.md": md({}, LONG), // a decomposed é, as macOS writes names
      "docs/Guía Rápida/Paso 1 & 2.md": md({}, LONG),
    };
    await withSite(files, async (s) => {
      assert.deepEqual(s.log.warnings(), []);
      const { body } = await s.json("/api/content.json?type=docs");
      // deno-lint-ignore no-explicit-any
      const got = body.data.map((d: any) => [d.id, d.uri, d.link, d.title]).sort();
      assert.deepEqual(got, [
        [
          "docs_doc_cafe-creme",
          "cafe-creme",
          "https://example.com/docs/cafe-creme.json",
          "Cafe\u0301 Crème",
        ],
        ["docs_doc_good", "good", "https://example.com/docs/good.json", "Good"],
        [
          "docs_doc_guia-rapida",
          "guia-rapida",
          "https://example.com/docs/guia-rapida.json",
          "Guía Rápida",
        ],
        [
          "docs_doc_guia-rapida_paso-1-and-2",
          "guia-rapida/paso-1-and-2",
          "https://example.com/docs/guia-rapida/paso-1-and-2.json",
          "Paso 1 & 2",
        ],
        [
          "docs_doc_nandu-uber-alles",
          "nandu-uber-alles",
          "https://example.com/docs/nandu-uber-alles.json",
          "Ñandú",
        ],
      ]);
      for (const [id, , link] of got) {
        const item = await s.json(new URL(link).pathname);
        assert.equal(item.status, 200, link);
        assert.equal(item.body.id, id);
      }
    });
  });

  it("a file name with no Latin letters or digits: every link in the feed still resolves", async () => {
    await withSite({ "docs/日本語.md": md({ title: "日本語" }, LONG) }, async (s) => {
      const { body } = await s.json("/api/content.json");
      // deno-lint-ignore no-explicit-any
      for (const item of body.data as any[]) {
        const served = await s.json(new URL(item.link).pathname);
        assert.equal(served.status, 200, `${item.id} at ${item.link}`);
        assert.equal(served.body.id, item.id);
      }
      // deno-lint-ignore no-explicit-any
      const listed = body.data.some((item: any) => item.title === "日本語");
      assert.ok(listed || warningsFor(s, "docs/日本語.md").length === 1, "served or warned");
      await assertGoodServes(s);
    });
  });
});
