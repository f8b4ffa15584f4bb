// `content-feed build <dir>` (issue 28): the routes' answers as static
// files. The sample site (and 100 more posts, so /feed.json has pages) is
// built and each file compared with what `createContentApi` answers on the
// same files; the folders a build refuses, `--force`, a failed build that
// leaves the previous one in place; and the built folder served by nginx,
// through which every link, its `.md`, every `next_url` and every sitemap
// part resolves (skipped, saying how to install nginx, where there is none:
// .ci/run installs it).
import { after, before, describe, it } from "node:test";
import process from "node:process";
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { appendFileSync, existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { createContentApi } from "../mod.ts";
import { renderSitemapParts } from "../src/feed/sitemap.ts";
import { parseCliArgs, USAGE, UsageError } from "../src/cli/args.ts";
import { BUILD_MARKER } from "../src/source/out_folder.ts";
import { buildStaticSite } from "../src/cli/build.ts";
import { configFor, LONG, md, removeSite, writeSite } from "./helpers.ts";
import { OWN_RUNTIME, ROOT, RUNTIMES } from "./server_helpers.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const NOW = Date.UTC(2026, 10, 21, 9, 15, 2);
const BASE = "https://docs.example.com/feed";
const quiet = { info() {}, warn() {}, error() {} };
const POSTS = 100;
/** Each test's time limit (Bun reads it from `it`, not from `describe`): CI is a loaded machine. */
const SLOW = { timeout: 120_000 };

const NGINX = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/bin/nginx"].find(
  existsSync,
) ?? (spawnSync("nginx", ["-v"]).error ? undefined : "nginx");
const NO_NGINX = NGINX
  ? false
  : "nginx is not installed: `sudo apt-get install nginx-light` (Debian, Ubuntu) or `brew install nginx`";

/** The sample site (content/) copied, with {@link POSTS} more posts: 148 feed items, 3 feed pages. */
async function sampleSite(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "content-feed-build-site-"));
  await cp(join(ROOT, "content"), root, {
    recursive: true,
    filter: (path) => !path.includes(".content-feed"),
  });
  for (let n = 1; n <= POSTS; n++) {
    const day = new Date(Date.UTC(2024, 0, n)).toISOString().slice(0, 10);
    await writeFile(
      join(root, "blog", `${day}-post-${n}.md`),
      md({ title: `Post ${n}`, tags: ["news"] }, `${LONG}\n\nNumber ${n}.`),
    );
  }
  return root;
}

/** Every file under a folder, relative, `/`-separated, sorted. */
async function filesOf(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...await filesOf(dir, path));
    else out.push(path);
  }
  return out.sort();
}

/** Every file's bytes, by path. */
async function contentsOf(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const path of await filesOf(dir)) out.set(path, await readFile(join(dir, path), "utf8"));
  return out;
}

/** The entries beside a folder that a build of it left (staging or replaced folders). */
async function leftovers(out: string): Promise<string[]> {
  return (await readdir(dirname(out))).filter((name) => name.startsWith(`.${basename(out)}.`));
}

/** Runs `cli.ts` under this runtime from the repository; its exit code, stdout and stderr. */
function cli(args: string[], env: Record<string, string> = {}) {
  const [program, ...rest] = RUNTIMES[OWN_RUNTIME]("cli.ts");
  const run = spawnSync(program, [...rest, ...args], {
    cwd: ROOT,
    env: { ...process.env, CONTENT_CONFIG: "", BASE_URL: "", SOURCE_DATE_EPOCH: "", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

describe("content-feed build: the sample site", { timeout: 60_000 }, () => {
  let site = "";
  let scratch = "";
  before(async () => {
    site = await sampleSite();
    scratch = await mkdtemp(join(tmpdir(), "content-feed-build-out-"));
  });
  after(async () => {
    await removeSite(site);
    await removeSite(scratch);
  });

  it(
    "writes what each route answers without a query, file for file, and no state folder",
    SLOW,
    async () => {
      const out = join(scratch, "public");
      const built = await buildStaticSite({
        config: join(site, "services.yaml"),
        out,
        baseUrl: `${BASE}/`,
        now: NOW,
      });
      assert.equal(existsSync(join(site, ".content-feed")), false, "a build keeps no state folder");
      assert.equal(built.base, BASE);
      assert.equal(built.out, out);
      const api = await createContentApi({
        config: join(site, "services.yaml"),
        baseUrl: BASE,
        now: () => NOW,
        logger: quiet,
      });
      try {
        const { index } = api;
        assert.equal(index.feed.length, 48 + POSTS);
        assert.equal(built.items, index.items.length);
        assert.equal(built.feed, index.feed.length);
        const expected = [
          BUILD_MARKER,
          ".nojekyll",
          "api/content.json",
          "api/manifest.json",
          "api/openapi.json",
          "sitemap.xml",
          "llms.txt",
          "llms-full.txt",
          "feed.json",
          "feed/2.json",
          "feed/3.json",
          ...index.items.flatMap((item) => [
            `${item.type}/${item.uri}.json`,
            `${item.type}/${item.uri}.md`,
          ]),
        ].sort();
        const files = await filesOf(out);
        assert.deepEqual(files, expected);
        assert.equal(built.files, expected.length - 2);
        assert.ok(index.items.some((item) => !index.feedPlace.has(item)), "items beyond the feed");

        for (const path of files) {
          if (path === BUILD_MARKER || path === ".nojekyll") continue;
          const page = /^feed\/(\d+)\.json$/.exec(path)?.[1];
          const url = page
            ? `${BASE}/feed.json?page=${page}`
            : path === "api/manifest.json"
            ? `${BASE}/api/content.json?fields=id,checksum,last_update`
            : `${BASE}/${path}`;
          const response = await api.fetch(new Request(url));
          assert.equal(response.status, 200, url);
          const served = await response.text();
          const written = await readFile(join(out, path), "utf8");
          if (path.startsWith("api/content") || path === "api/manifest.json") {
            const [a, b] = [JSON.parse(written), JSON.parse(served)];
            // The build's journal is named by the content; the server's is random. Same head.
            assert.match(a.meta.cursor, new RegExp(`^[0-9a-f]{10}\\.${index.feed.length}$`));
            assert.equal(a.meta.cursor, built.cursor);
            assert.match(b.meta.cursor, new RegExp(`\\.${index.feed.length}$`));
            delete a.meta.cursor;
            delete b.meta.cursor;
            assert.deepEqual(a, b, path);
          } else if (path === "feed.json" || page) {
            // A page's next_url names the next file, not the next query.
            const [a, b] = [JSON.parse(written), JSON.parse(served)];
            const n = Number(page ?? 1);
            if (n < 3) {
              assert.equal(a.next_url, `${BASE}/feed/${n + 1}.json`);
              assert.equal(b.next_url, `${BASE}/feed.json?page=${n + 1}`);
            } else assert.equal(a.next_url, undefined);
            delete a.next_url;
            delete b.next_url;
            assert.deepEqual(a, b, path);
          } else assert.equal(written, served, path);
        }
      } finally {
        api.close();
      }
    },
  );

  it(
    "gives the same bytes for the same content; an edit changes the cursor and replaces the previous build",
    SLOW,
    async () => {
      const config = join(site, "services.yaml");
      const first = join(scratch, "first");
      const second = join(scratch, "second");
      const a = await buildStaticSite({ config, out: first, baseUrl: BASE, now: NOW });
      const b = await buildStaticSite({ config, out: second, baseUrl: BASE, now: NOW });
      assert.equal(a.cursor, b.cursor);
      assert.deepEqual(await contentsOf(second), await contentsOf(first));

      const edited = join(site, "blog", "2024-01-01-post-1.md");
      const before = await readFile(edited, "utf8");
      try {
        await writeFile(edited, `${before}\n\nAn edit.\n`);
        // `first` is a previous build: replaced without --force.
        const c = await buildStaticSite({ config, out: first, baseUrl: BASE, now: NOW });
        assert.notEqual(c.cursor, a.cursor);
        assert.equal(c.cursor.split(".")[1], a.cursor.split(".")[1]);
        const now = await contentsOf(first);
        const then = await contentsOf(second);
        assert.match(now.get("blog/2024-01-01-post-1.md")!, /An edit\./);
        assert.equal(now.get("blog/2024-01-01-post-2.md"), then.get("blog/2024-01-01-post-2.md"));
        const checksum = (files: Map<string, string>) =>
          JSON.parse(files.get("api/manifest.json")!).data
            .find((item: Json) => item.id === "blog_post_2024-01-01-post-1").checksum;
        assert.notEqual(checksum(now), checksum(then));
        assert.deepEqual(await leftovers(first), []);
      } finally {
        await writeFile(edited, before);
      }
    },
  );

  it("cuts the sitemap into parts named by a sitemap index above its limits", SLOW, async () => {
    const api = await createContentApi({
      config: join(site, "services.yaml"),
      baseUrl: BASE,
      now: () => NOW,
      logger: quiet,
    });
    try {
      const whole = await (await api.fetch(new Request(`${BASE}/sitemap.xml`))).text();
      const urls = whole.match(/<url>.*?<\/url>/g)!;
      assert.equal(urls.length, 48 + POSTS);
      const partUrl = (n: number) => `${BASE}/sitemap-${n}.xml`;
      // Within the limits: the one urlset the route answers.
      assert.deepEqual(renderSitemapParts(api.index, BASE, partUrl), { sitemap: whole, parts: [] });
      // At most 40 URLs a part: four parts, each URL once, in order, each part a urlset.
      const byCount = renderSitemapParts(api.index, BASE, partUrl, 40);
      assert.equal(byCount.parts.length, 4);
      assert.deepEqual(byCount.parts.flatMap((part) => part.match(/<url>.*?<\/url>/g)!), urls);
      for (const part of byCount.parts) {
        assert.equal(part.slice(0, whole.indexOf("<url>")), whole.slice(0, whole.indexOf("<url>")));
        assert.ok(part.match(/<url>/g)!.length <= 40);
      }
      assert.match(byCount.sitemap, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex /);
      assert.deepEqual(
        [...byCount.sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]),
        [1, 2, 3, 4].map(partUrl),
      );
      // Each part's lastmod is the newest it lists.
      const lastmods = [...byCount.sitemap.matchAll(/<lastmod>([^<]+)<\/lastmod>/g)].map((m) =>
        m[1]
      );
      byCount.parts.forEach((part, i) => {
        const newest = [...part.matchAll(/<lastmod>([^<]+)<\/lastmod>/g)].map((m) => m[1]).sort()
          .at(-1);
        assert.equal(lastmods[i], newest);
      });
      // At most 8,000 bytes a part: cut by size, none over it.
      const bySize = renderSitemapParts(api.index, BASE, partUrl, 50_000, 8000);
      assert.ok(bySize.parts.length > 1);
      for (const part of bySize.parts) {
        assert.ok(new TextEncoder().encode(part).length <= 8000);
      }
      assert.deepEqual(bySize.parts.flatMap((part) => part.match(/<url>.*?<\/url>/g)!), urls);
    } finally {
      api.close();
    }
  });
});

describe("content-feed build: only the enabled routes", { timeout: 60_000 }, () => {
  it(
    "writes no sitemap, llms.txt or feed.json when they are not enabled, and no feed without api",
    SLOW,
    async () => {
      const files = {
        "docs/a.md": md({ title: "A", order: 1 }, LONG),
        "docs/b.md": md({ title: "B", order: 2 }, LONG),
      };
      const withApi = await writeSite({
        ...files,
        "services.yaml": configFor(["docs", "api"], "https://example.com"),
      });
      const without = await writeSite({
        ...files,
        "services.yaml": configFor(["docs"], "https://example.com"),
      });
      const scratch = await mkdtemp(join(tmpdir(), "content-feed-build-out-"));
      try {
        await buildStaticSite({ config: join(withApi, "services.yaml"), out: join(scratch, "a") });
        assert.deepEqual(await filesOf(join(scratch, "a")), [
          BUILD_MARKER,
          ".nojekyll",
          "api/content.json",
          "api/manifest.json",
          "api/openapi.json",
          "docs/a.json",
          "docs/a.md",
          "docs/b.json",
          "docs/b.md",
        ]);
        const feed = JSON.parse(await readFile(join(scratch, "a/api/content.json"), "utf8"));
        assert.deepEqual(feed.data.map((item: Json) => item.link), [
          "https://example.com/docs/a.json",
          "https://example.com/docs/b.json",
        ]);
        await buildStaticSite({ config: join(without, "services.yaml"), out: join(scratch, "b") });
        assert.deepEqual(await filesOf(join(scratch, "b")), [
          BUILD_MARKER,
          ".nojekyll",
          "api/openapi.json",
          "docs/a.json",
          "docs/a.md",
          "docs/b.json",
          "docs/b.md",
        ]);
      } finally {
        await removeSite(withApi);
        await removeSite(without);
        await removeSite(scratch);
      }
    },
  );
});

describe("content-feed build: the folders it writes", { timeout: 60_000 }, () => {
  let project = "";
  let config = "";
  before(async () => {
    // A working directory of its own: the site's config in content/, builds beside it.
    project = await writeSite({
      "content/services.yaml": configFor(["docs", "api"], "https://example.com"),
      ...Object.fromEntries(
        Array.from({ length: 40 }, (_, i) => [`content/docs/page-${i}.md`, md({ order: i }, LONG)]),
      ),
    });
    config = join(project, "content/services.yaml");
  });
  after(() => removeSite(project));
  const build = (
    out: string,
    more: { force?: boolean; progress?: (done: number, total: number, phase: string) => void } = {},
  ) => buildStaticSite({ config, out, cwd: project, now: NOW, ...more });
  const refused = (out: string, message: RegExp, force = false) =>
    assert.rejects(build(out, { force }), (error: Error) => {
      assert.equal(error.name, "OutFolderRefused");
      assert.match(error.message, message);
      assert.equal(error.message.split("\n").length, 1);
      return true;
    });

  it(
    "refuses a folder that exists and is not a previous build, unless --force, which replaces it",
    SLOW,
    async () => {
      const out = join(project, "site");
      await mkdir(join(out, "keep"), { recursive: true });
      await writeFile(join(out, "keep/notes.txt"), "mine");
      await refused("site", /^site exists and is not a previous build .*--force/);
      assert.equal(await readFile(join(out, "keep/notes.txt"), "utf8"), "mine");
      await build("site", { force: true });
      assert.equal(existsSync(join(out, "keep")), false);
      assert.ok(existsSync(join(out, BUILD_MARKER)));
      // Now a previous build: no --force needed; an empty folder needs none either.
      await build("site");
      await mkdir(join(project, "empty"));
      await build("empty");
      assert.ok(existsSync(join(project, "empty/api/content.json")));
      assert.deepEqual(await leftovers(out), []);
    },
  );

  it("takes a folder outside the working directory only by an absolute path", SLOW, async () => {
    const outside = await mkdtemp(join(tmpdir(), "content-feed-build-elsewhere-"));
    try {
      await refused(`../${basename(outside)}/x`, /outside the working directory.*absolute path/);
      // A link inside the working directory that leads out of it is outside too.
      await symlink(outside, join(project, "elsewhere"));
      await refused("elsewhere/x", /outside the working directory/);
      await refused("elsewhere", /outside the working directory/);
      await build(join(outside, "x"));
      assert.ok(existsSync(join(outside, "x/api/content.json")));
      // An absolute path to a symbolic link: the folder it points to is named instead.
      await refused(join(project, "elsewhere"), /is a symbolic link/);
    } finally {
      await removeSite(outside);
    }
  });

  it(
    "never replaces the working directory, what holds it, the content, its plugins' folders or the state folder",
    SLOW,
    async () => {
      await writeFile(join(project, "a-file"), "");
      for (
        const [out, message] of [
          [".", /is the working directory/],
          ["", /is empty/],
          [dirname(project), /holds the working directory/],
          ["/", /holds the working directory/],
          ["content", /is the content root/],
          ["content/docs", /in the docs plugin's folder/],
          ["content/docs/static", /in the docs plugin's folder/],
          ["content/.content-feed", /is the state folder/],
          ["a-file", /is a file, not a folder/],
        ] as const
      ) {
        await refused(out, message, true);
      }
      assert.ok(existsSync(join(project, "content/docs/page-0.md")));
    },
  );

  it("leaves the previous build as it was when a build fails", SLOW, async () => {
    const out = join(project, "kept");
    await build("kept");
    const before = await contentsOf(out);
    let edited = false;
    await assert.rejects(
      build("kept", {
        // The last item's file changes once the first file is written: its forms are read later.
        progress: (_done, _total, phase) => {
          if (edited || phase !== "wrote") return;
          edited = true;
          appendFileSync(join(project, "content/docs/page-39.md"), "\nChanged mid-build.\n");
        },
      }),
      (error: Error) => {
        assert.equal(error.name, "ContentChanged");
        assert.match(error.message, /^docs\/page-39\.md changed while the build read it/);
        return true;
      },
    );
    assert.ok(edited);
    assert.deepEqual(await contentsOf(out), before);
    assert.deepEqual(await leftovers(out), [], "the staging folder is removed");
  });
});

describe("content-feed build (the command line)", { timeout: 120_000 }, () => {
  it("reads build <dir> [--config F] [--base-url URL] [--force]; --help names it", () => {
    assert.deepEqual(
      parseCliArgs(["build", "public", "--base-url", "https://x.example", "--force"]),
      {
        command: "build",
        config: undefined,
        out: "public",
        baseUrl: "https://x.example",
        force: true,
      },
    );
    assert.equal((parseCliArgs(["build", "public"]) as Json).force, false);
    for (
      const [args, message] of [
        [["build"], /build needs the folder to write/],
        [["build", "a", "b"], /unexpected argument "b"/],
        [["check", "--force"], /--force does not apply to check/],
        [["serve", "--base-url", "https://x"], /--base-url does not apply to serve/],
        [["snapshot", "s.json", "--force"], /--force does not apply to snapshot/],
      ] as const
    ) {
      assert.throws(() => parseCliArgs([...args]), (error: Error) => {
        assert.ok(error instanceof UsageError);
        assert.match(error.message, message);
        return true;
      });
    }
    assert.match(USAGE, /content-feed build <dir> \[--config F\] \[--base-url URL\] \[--force\]/);
  });

  it(
    "exits 0 with a line that says what it wrote, 2 for a folder it refuses or a wrong command line, 1 when it fails",
    SLOW,
    async () => {
      const scratch = await mkdtemp(join(tmpdir(), "content-feed-build-cli-"));
      try {
        const out = join(scratch, "public");
        const ok = cli(["build", out, "--base-url", "https://example.com/docs/"], {
          CONTENT_CONFIG: "content/services.yaml",
          SOURCE_DATE_EPOCH: String(NOW / 1000),
        });
        assert.equal(ok.code, 0, ok.err);
        assert.match(
          ok.out,
          /^built .*public: \d+ files \(51 items, 48 in the feed, [\d.]+ [KM]B\), links on https:\/\/example\.com\/docs\/, cursor [0-9a-f]{10}\.48\n$/,
        );
        assert.equal(ok.err, "");
        const feed = JSON.parse(await readFile(join(out, "api/content.json"), "utf8"));
        assert.equal(feed.meta.generated, "2026-11-21 09:15:02");
        assert.equal(feed.meta.url, "https://example.com/docs/");
        // BASE_URL where the config has no url.
        const fromEnv = cli(["build", out, "--config", "content/services.yaml"], {
          BASE_URL: "https://env.example",
        });
        assert.equal(fromEnv.code, 0, fromEnv.err);
        assert.match(fromEnv.out, /links on https:\/\/env\.example\//);

        await mkdir(join(scratch, "mine"));
        await writeFile(join(scratch, "mine/index.html"), "<p>mine</p>");
        for (
          const [args, env, message] of [
            [
              ["build", join(scratch, "mine"), "--base-url", "https://x.example"],
              {},
              /mine exists and is not a previous build/,
            ],
            [
              ["build", "../elsewhere", "--base-url", "https://x.example"],
              {},
              /outside the working directory/,
            ],
            [
              ["build", out, "--config", "content/services.yaml", "--base-url", "ftp://x"],
              {},
              /--base-url: expected an absolute http\(s\) URL/,
            ],
            [["build", out, "--config", "content/services.yaml"], {}, /needs a base URL/],
            [
              ["build", out],
              { SOURCE_DATE_EPOCH: "yesterday" },
              /SOURCE_DATE_EPOCH: expected Unix seconds/,
            ],
          ] as const
        ) {
          const run = cli([...args], { CONTENT_CONFIG: "content/services.yaml", ...env });
          assert.equal(run.code, 2, `${args.join(" ")}: ${run.err}`);
          assert.equal(run.err.trim().split("\n").length, 1, run.err);
          assert.match(run.err, /^content-feed: /);
          assert.match(run.err, message);
          assert.equal(run.out, "");
        }
        assert.equal(await readFile(join(scratch, "mine/index.html"), "utf8"), "<p>mine</p>");
        // A folder under a file cannot be made: the build fails (1), in one line.
        await writeFile(join(scratch, "a-file"), "");
        const failed = cli([
          "build",
          join(scratch, "a-file/public"),
          "--base-url",
          "https://x.example",
        ], {
          CONTENT_CONFIG: "content/services.yaml",
        });
        assert.equal(failed.code, 1, failed.err);
        assert.equal(failed.err.trim().split("\n").length, 1, failed.err);
        // --help names the command.
        assert.match(cli(["--help"]).out, /content-feed build <dir>/);
      } finally {
        await removeSite(scratch);
      }
    },
  );
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("content-feed build, served by nginx", { skip: NO_NGINX, timeout: 120_000 }, () => {
  let site = "";
  let dir = "";
  let nginx: ChildProcess | undefined;
  let base = "";
  before(async () => {
    site = await sampleSite();
    dir = await mkdtemp(join(tmpdir(), "content-feed-build-nginx-"));
    const port = await freePort();
    base = `http://127.0.0.1:${port}/site`;
    // Parts of 60 URLs: the sitemap index's parts are served too.
    await buildStaticSite({
      config: join(site, "services.yaml"),
      out: join(dir, "www/site"),
      baseUrl: base,
      sitemapLimits: { urls: 60, bytes: 50 * 1024 * 1024 },
    });
    const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
      .map((kind) => `${kind}_temp_path ${dir}/temp/${kind};`).join("\n  ");
    await mkdir(join(dir, "temp"));
    // The configuration docs/deploying.md gives for nginx.
    await writeFile(
      join(dir, "nginx.conf"),
      `daemon off;
${process.getuid?.() === 0 ? "user root;" : ""}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  ${temp}
  types {
    application/json json;
    text/markdown md;
    text/plain txt;
    application/xml xml;
  }
  charset utf-8;
  charset_types application/json text/markdown text/plain application/xml application/feed+json;
  server {
    listen 127.0.0.1:${port};
    root ${dir}/www;
    location ~ ^/site/feed(/\\d+)?\\.json$ {
      types { }
      default_type application/feed+json;
    }
  }
}
`,
    );
    nginx = spawn(NGINX!, ["-p", dir, "-c", join(dir, "nginx.conf")], { stdio: "ignore" });
    for (let i = 0; i < 100; i++) {
      try {
        await fetch(`${base}/llms.txt`).then((r) => r.arrayBuffer());
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }, SLOW);
  after(async () => {
    nginx?.kill("SIGTERM");
    if (dir) await rm(dir, { recursive: true, force: true });
    if (site) await rm(site, { recursive: true, force: true });
  });

  const get = async (url: string) => {
    const response = await fetch(url);
    const body = await response.text();
    assert.equal(response.status, 200, `${url}: ${response.status}`);
    return { body, type: response.headers.get("content-type") };
  };

  it(
    "holds the server's items; every link, its .md, every next_url and sitemap part resolves",
    SLOW,
    async () => {
      const api = await createContentApi({
        config: join(site, "services.yaml"),
        baseUrl: base,
        logger: quiet,
      });
      try {
        const served = await (await api.fetch(new Request(`${base}/api/content.json`))).json();
        const feed = await get(`${base}/api/content.json`);
        assert.equal(feed.type, "application/json; charset=utf-8");
        const built = JSON.parse(feed.body);
        assert.equal(built.data.length, 48 + POSTS);
        assert.deepEqual(built.data, served.data);
        assert.deepEqual(
          JSON.parse((await get(`${base}/api/manifest.json`)).body).data.map((i: Json) => i.id),
          served.data.map((item: Json) => item.id),
        );
        for (const item of built.data) {
          const json = await get(item.link);
          assert.equal(JSON.parse(json.body).id, item.id);
          const markdown = await get(item.link.replace(/\.json$/, ".md"));
          assert.equal(markdown.type, "text/markdown; charset=utf-8");
          assert.match(markdown.body, /^---\ntitle: /);
        }
        // Every page of /feed.json, by next_url: each feed item once, newest first, as the server pages it.
        const ids: string[] = [];
        let pages = 0;
        // Bounded: a next_url that a static host does not resolve (a query) would loop.
        for (let url: string | undefined = `${base}/feed.json`; url && pages < 10; pages++) {
          const page = await get(url);
          assert.equal(page.type, "application/feed+json; charset=utf-8");
          const body = JSON.parse(page.body);
          ids.push(...body.items.map((item: Json) => item.id));
          url = body.next_url;
        }
        assert.equal(pages, 3);
        const serverIds: string[] = [];
        for (let n = 1; n <= 3; n++) {
          const page = await (await api.fetch(new Request(`${base}/feed.json?page=${n}`))).json();
          serverIds.push(...page.items.map((item: Json) => item.id));
        }
        assert.deepEqual(ids, serverIds);
        // llms.txt links each feed item's Markdown.
        const llms = (await get(`${base}/llms.txt`)).body;
        const links = [...llms.matchAll(/\]\((http[^)]+)\)/g)].map((m) => m[1]);
        assert.equal(links.length, 48 + POSTS);
        for (const link of links) await get(link);
        // The sitemap index and its parts.
        const sitemap = (await get(`${base}/sitemap.xml`)).body;
        const parts = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
        assert.equal(parts.length, 3);
        let urls = 0;
        for (const part of parts) urls += (await get(part)).body.match(/<url>/g)!.length;
        assert.equal(urls, 48 + POSTS);
        await get(`${base}/api/openapi.json`);
        await get(`${base}/llms-full.txt`);
      } finally {
        api.close();
      }
    },
  );
});
