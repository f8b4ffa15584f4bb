// `deno task snapshot <file>` writes the parsed content tree; createContentApi({ snapshot })
// serves it with no file access at all.
import { describe, it } from "node:test";
import process from "node:process";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createContentApi } from "../mod.ts";
import { LONG, md, memoryLogger, removeSite, writeSite } from "./helpers.ts";
import { formatTimestamp } from "../src/util/dates.ts";
import type { SnapshotDocument } from "../src/snapshot.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const deno = `${root}node_modules/.bin/deno`;
const CONFIG = `parameters:
  service.content.config:
    url: https://example.com
    plugins: { academy: ~, docs: ~, blog: ~, api: ~, sitemap: ~ }
`;
const FILES = {
  "services.yaml": CONFIG,
  "docs/guide.md": md({ title: "Guide", tags: ["Deno"], date: "2026-01-02" }, LONG),
  "docs/guide/intro.md": md({ title: "Intro", tags: ["deno"], last_update: "2026-02-03" }, LONG),
  "docs/draft.md": md({ title: "Draft", draft: true }, LONG),
  "academy/c.md": md({ title: "Course" }, LONG),
  "academy/c/m.md": md({ title: "Module" }, LONG),
  "academy/c/m/l.md": md({ title: "Lesson", time: 7 }, LONG),
  "blog/2026-03-04-post.md": md({ title: "Post", image: "/img/p.png" }, LONG),
};

async function serveAll(api: Awaited<ReturnType<typeof createContentApi>>) {
  const get = async (path: string) =>
    await (await api.fetch(new Request(`http://edge${path}`))).text();
  const feed = await get("/api/content.json");
  const items: string[] = [];
  for (const item of JSON.parse(feed).data) items.push(await get(new URL(item.link).pathname));
  return { feed, items, sitemap: await get("/sitemap.xml") };
}

describe("edge snapshot", () => {
  it("the snapshot task writes a file that serves the same bytes with the content folder gone", async () => {
    const site = await writeSite(FILES);
    const out = join(site, "..", `${site.split("/").pop()}.snapshot.json`);
    try {
      const fromFiles = await serveAll(
        await createContentApi({
          config: join(site, "services.yaml"),
          now: () => 0,
          logger: memoryLogger(),
        }),
      );
      const printed = execFileSync(deno, ["task", "snapshot", out], {
        cwd: root,
        env: { ...process.env, CONTENT_CONFIG: join(site, "services.yaml") },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      });
      // Seven content files, one of them a draft: a snapshot holds only what the routes serve (SPEC 10).
      assert.match(printed, /wrote .*: 6 files/);
      await removeSite(site);
      const text = await readFile(out, "utf8");
      const snapshot = JSON.parse(text) as SnapshotDocument;
      assert.equal(snapshot.files.length, 6);
      assert.ok(!text.includes("Draft"), "no draft in the snapshot");
      assert.ok(snapshot.files.every((f) => !("attrs" in f)), "no raw front matter");
      assert.ok(snapshot.files.every((f) => /^[0-9a-f]{64}$/.test(f.checksum) && f.mtime > 0));
      const fromSnapshot = await serveAll(await createContentApi({ snapshot: out, now: () => 0 }));
      // The snapshot is served as it was made: its build time and its journal's position
      // (every replica alike); everything else is what the files served.
      const meta = JSON.parse(fromSnapshot.feed).meta;
      assert.equal(meta.generated, formatTimestamp(snapshot.builtAt));
      assert.equal(meta.cursor, `${snapshot.journal.id}.${snapshot.journal.head}`);
      assert.equal(snapshot.journal.head, 6);
      const live = JSON.parse(fromFiles.feed).meta;
      const same = (feed: string, from: { generated: string; cursor: string }) =>
        feed.replace(from.generated, "G").replace(from.cursor, "C");
      assert.equal(same(fromSnapshot.feed, meta), same(fromFiles.feed, live));
      assert.deepEqual(fromSnapshot.items, fromFiles.items);
      assert.equal(fromSnapshot.sitemap, fromFiles.sitemap);
      assert.equal(meta.count, 6);
    } finally {
      await removeSite(site);
      await removeSite(out);
    }
  });

  it("serves under Deno with read permission for the snapshot file only, and with none at all", async () => {
    const site = await writeSite(FILES);
    const out = `${site}.snapshot.json`;
    try {
      execFileSync(deno, ["run", "-A", "cli.ts", "snapshot", out], {
        cwd: root,
        env: { ...process.env, CONTENT_CONFIG: join(site, "services.yaml") },
        stdio: "ignore",
      });
      const expected = await serveAll(await createContentApi({ snapshot: out, now: () => 0 }));
      await removeSite(site);
      const script = "tests/fixtures/serve_snapshot.ts";
      const readOnly = execFileSync(deno, [
        "run",
        "--no-prompt",
        `--allow-read=${out}`,
        script,
        out,
      ], {
        cwd: root,
        encoding: "utf8",
      });
      assert.deepEqual(JSON.parse(readOnly), expected);
      const none = execFileSync(deno, ["run", "--no-prompt", script, "-"], {
        cwd: root,
        encoding: "utf8",
        input: await readFile(out, "utf8"),
      });
      assert.deepEqual(JSON.parse(none), expected);
    } finally {
      await removeSite(site);
      await removeSite(out);
    }
  });

  it("rejects a file that is not a snapshot with one clear line", async () => {
    const site = await writeSite({ "x.json": '{"hello": 1}' });
    try {
      await assert.rejects(
        createContentApi({ snapshot: join(site, "x.json") }),
        { name: "ConfigError", message: /^snapshot: expected a content-feed snapshot/ },
      );
    } finally {
      await removeSite(site);
    }
  });
});

describe("examples/deno_deploy.ts", () => {
  it("serves the snapshot it imports as a JSON module", async () => {
    // The example sits in a site's project beside its snapshot and imports the
    // package by name (tests/package_test.ts runs it so); here the name maps to
    // this checkout's mod.ts, so a change to the example is tried without packing.
    const out = join(root, "examples", "snapshot.json");
    const maps = await mkdtemp(join(tmpdir(), "content-feed-map-"));
    const map = join(maps, "import_map.json");
    try {
      await writeFile(map, JSON.stringify({ imports: { "content-feed": `file://${root}mod.ts` } }));
      execFileSync(deno, ["run", "-A", "cli.ts", "snapshot", out], { cwd: root, stdio: "ignore" });
      const printed = execFileSync(
        deno,
        [
          "eval",
          `--import-map=${map}`,
          `const { default: app } = await import("./examples/deno_deploy.ts");
           const response = await app.fetch(new Request("https://edge.example/api/content.json?limit=1"));
           const body = await response.json();
           console.log(response.status, body.meta.total, body.data[0].link.startsWith("https://edge.example/"));`,
        ],
        { cwd: root, encoding: "utf8", env: { ...process.env, BASE_URL: "" } },
      );
      assert.match(printed.trim(), /^200 \d+ true$/);
    } finally {
      await rm(out, { force: true });
      await rm(maps, { recursive: true, force: true });
    }
  });
});
