// SPEC 17: a restart and a change cost what changed. Every bound here is a
// count of work (files stat'ed, read, derived, parser runs, git processes),
// never a duration: the tests run on a loaded machine.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { chmod, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import process from "node:process";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createContentApi } from "../mod.ts";
import type { ContentApi } from "../mod.ts";
import { renderFullFeed } from "../src/feed/feed_bytes.ts";
import { createHandler } from "../src/http/handler.ts";
import type { Index } from "../src/index/build.ts";
import type { Item } from "../src/index/item.ts";
import { loadConfigFile } from "../src/config/load.ts";
import {
  COLD_LOAD_FILES,
  contentPipeline,
  createPipeline,
  fixedSource,
  isColdLoad,
} from "../src/pipeline/pipeline.ts";
import { NO_WORK } from "../src/source/load_work.ts";
import { collectV8Garbage } from "../src/adapters/v8_collect.ts";
import { bunTuning } from "../src/adapters/bun.ts";
import { denoTuning } from "../src/adapters/deno.ts";
import { nodeTuning } from "../src/adapters/node.ts";
import { createService } from "../src/service.ts";
import { readBody } from "../src/source/read_file.ts";
import { createJournal } from "../src/sync/journal.ts";
import { partOf } from "../src/pipeline/derivation_cache.ts";
import {
  docsSite,
  git,
  HAS_GIT,
  LONG,
  md,
  memoryLogger,
  removeSite,
  writeSite,
} from "./helpers.ts";

/** Every content file's modification time an hour back: their stamps are trusted (not racy). */
async function age(root: string, paths: readonly string[], seconds = 3600): Promise<void> {
  const then = Date.now() / 1000 - seconds;
  for (const path of paths) await utimes(join(root, path), then, then);
}

/**
 * Rewrites a file in place (its inode) with `from` replaced by `to` of the
 * same length, and puts its modification time back (or sets it to `time`).
 */
async function rewriteInPlace(path: string, from: string, to: string, time?: Date) {
  const mtime = time ?? (await stat(path)).mtime;
  await writeFile(path, (await readFile(path, "utf8")).replace(from, to));
  await utimes(path, mtime, mtime);
}

const contentPaths = (site: Record<string, string>) =>
  Object.keys(site).filter((path) => path.endsWith(".md"));

/** Starts the service, runs `fn`, closes it (its state folder stays). */
async function started<T>(
  root: string,
  fn: (api: ContentApi, warnings: string[]) => Promise<T> | T,
  options: { watch?: boolean } = {},
): Promise<T> {
  const log = memoryLogger();
  const api = await createContentApi({
    config: join(root, "services.yaml"),
    logger: log,
    watch: options.watch ?? false,
  });
  try {
    return await fn(api, log.warnings());
  } finally {
    api.close();
  }
}

/** The feed's data and every item's JSON form: what two starts must serve alike. */
async function served(api: ContentApi): Promise<unknown> {
  const get = async (path: string) => (await api.fetch(new Request(`https://example.com${path}`)));
  const feed = await (await get("/api/content.json")).json();
  const forms = [];
  for (const item of api.index.items) {
    forms.push(await (await get(`/${item.type}/${item.uri}.json`)).json());
  }
  return { data: feed.data, forms, sitemap: await (await get("/sitemap.xml")).text() };
}

describe("restarts pay only for what changed (SPEC 17)", () => {
  it("a restart with nothing changed stats every file and reads none; one after edits reads those", async () => {
    const site = docsSite(30);
    const root = await writeSite(site);
    try {
      await age(root, contentPaths(site));
      const first = await started(root, (api) => api.lastLoad);
      assert.equal(first.read, 31);
      assert.equal(first.derived, 31);
      assert.equal(first.fromCache, 0);
      assert.equal(first.git, 0, "not in a repository: no git process");

      const again = await started(root, (api) => api.lastLoad);
      assert.equal(again.stated, 31, "each file stat'ed once");
      assert.equal(again.read, 0, "no content file read");
      assert.equal(again.derived, 0);
      assert.equal(again.parses, 0, "no parser run");
      assert.equal(again.fromCache, 31);

      // Three files edited while no server ran (one keeps its size), one removed, one added.
      await writeFile(join(root, "docs/s0/doc-0.md"), md({ title: "Zero!" }, LONG));
      const one = await readFile(join(root, "docs/s1/doc-1.md"), "utf8");
      await writeFile(join(root, "docs/s1/doc-1.md"), one.replace("Doc 1", "Doc X"));
      await writeFile(join(root, "docs/s2/doc-2.md"), md({ title: "Two" }, `${LONG} More.`));
      await rm(join(root, "docs/s0/doc-3.md"));
      await writeFile(join(root, "docs/s0/new.md"), md({ title: "New" }, LONG));
      const after = await started(root, (api) => api.lastLoad);
      assert.equal(after.read, 4);
      assert.equal(after.derived, 4);
      assert.equal(after.fromCache, 27);

      // What it serves is what a start from an empty state folder serves.
      const cached = await started(root, served);
      await rm(join(root, ".content-feed"), { recursive: true });
      assert.deepEqual(await started(root, served), cached);
    } finally {
      await removeSite(root);
    }
  });

  it("a file written within 2 s of its read, with its stamp restored, is checked by its checksum", async () => {
    const site = docsSite(3);
    const root = await writeSite(site);
    try {
      // Written now: its stamp is as recent as the cache's read of it.
      const before = await started(root, (api) => api.index.byPath.get("docs/s1/doc-1")!.title);
      assert.equal(before, "Doc 1");
      await rewriteInPlace(join(root, "docs/s1/doc-1.md"), "Doc 1", "Doc 9");
      const after = await started(root, (api) => ({
        title: api.index.byPath.get("docs/s1/doc-1")!.title,
        load: api.lastLoad,
      }));
      assert.equal(after.title, "Doc 9");
      assert.ok(after.load.verified >= 1, "checked by checksum");
      assert.equal(after.load.derived, 1, "only the changed one derived again");
    } finally {
      await removeSite(root);
    }
  });

  it("a file rewritten long after its read, the same size, its time put back: its status change time tells", async () => {
    const site = docsSite(3);
    const root = await writeSite(site);
    try {
      await age(root, contentPaths(site));
      const path = join(root, "docs/s1/doc-1.md");
      const rewrite = async (from: string, to: string) => {
        // Past the second of the last status change: Deno gives it in whole seconds.
        const next = (Math.floor((await stat(path)).ctimeMs / 1000) + 1) * 1000;
        while (Date.now() < next + 20) {
          await new Promise((resolve) => setTimeout(resolve, next + 20 - Date.now()));
        }
        // As `cp -p`, `touch -r` or an archive's fixed times do: only the status change time,
        // which the system sets, moved.
        await rewriteInPlace(path, from, to);
      };
      assert.equal(
        await started(root, (api) => api.index.byPath.get("docs/s1/doc-1")!.title),
        "Doc 1",
      );
      await rewrite("Doc 1", "Doc 8");
      const after = await started(root, (api) => ({
        title: api.index.byPath.get("docs/s1/doc-1")!.title,
        load: api.lastLoad,
      }));
      assert.equal(after.title, "Doc 8");
      assert.deepEqual([after.load.read, after.load.derived], [1, 1]);
      // While serving: a reload of the path the watcher names reads it.
      await started(root, async (api) => {
        await rewrite("Doc 8", "Doc 6");
        await api.reload([path]);
        assert.equal(api.index.byPath.get("docs/s1/doc-1")!.title, "Doc 6");
      });
    } finally {
      await removeSite(root);
    }
  });

  it("a file whose modification time is in the future is checked by its checksum at every restart", async () => {
    const site = docsSite(3);
    const root = await writeSite(site);
    try {
      await age(root, contentPaths(site));
      const path = join(root, "docs/s2/doc-2.md");
      const future = new Date(Date.now() + 86_400_000); // a clock that was a day ahead
      await utimes(path, future, future);
      await started(
        root,
        (api) => assert.equal(api.index.byPath.get("docs/s2/doc-2")!.title, "Doc 2"),
      );
      // The same size, the same (future) time, other bytes.
      await rewriteInPlace(path, "Doc 2", "Doc 7", future);
      const after = await started(root, (api) => ({
        title: api.index.byPath.get("docs/s2/doc-2")!.title,
        load: api.lastLoad,
      }));
      assert.equal(after.title, "Doc 7");
      // Read again and derived again, the one file: by its status change time where the write
      // moved it (Node's and Bun's are finer than a second), else by its checksum (Deno's is
      // whole seconds, and the write may fall in the second of the times' setting).
      assert.equal(after.load.derived, 1);
      assert.equal(after.load.read - after.load.verified, 1);
      // Unchanged, it is checked again (its time is still ahead) and not derived.
      const again = await started(root, (api) => api.lastLoad);
      assert.equal(again.verified, 1);
      assert.equal(again.derived, 0);
    } finally {
      await removeSite(root);
    }
  });

  it("files whose stamps changed on the same bytes (a touch, a fresh checkout, another runtime) are read and checked, not derived", async () => {
    const site = docsSite(30);
    const root = await writeSite(site);
    try {
      await age(root, contentPaths(site));
      await started(root, () => {});
      // Every file's times moved, its bytes the same: what a checkout into a new folder with
      // the state folder kept does, or the next start on another runtime (Deno keeps whole
      // milliseconds). Undated docs take their date from the time.
      const then = new Date("2022-03-04T05:06:07Z");
      for (const path of contentPaths(site)) await utimes(join(root, path), then, then);
      const { load, got } = await started(root, async (api) => ({
        load: api.lastLoad,
        got: await served(api),
      }));
      assert.equal(load.read, 31, "each file read once");
      assert.equal(load.verified, 31, "and its checksum compared");
      assert.equal(load.derived, 0, "none derived again");
      assert.equal(load.parses, 0, "no parser run");
      assert.equal(load.fromCache, 31);
      const feed = got as { data: { uri: string; date: string; last_update: string }[] };
      const undated = feed.data.find((item) => item.uri === "s1/doc-1")!;
      assert.deepEqual([undated.date, undated.last_update], ["2022-03-04", "2022-03-04"]);
      // What it serves is what a start from an empty state folder serves.
      await rm(join(root, ".content-feed"), { recursive: true });
      assert.deepEqual(await started(root, served), got);
    } finally {
      await removeSite(root);
    }
  });

  it("a touched file whose page depends on its date gets the page of its new date, without a parse", async () => {
    const root = await writeSite({
      "services.yaml": [
        "parameters:",
        "  service.content.config:",
        "    url: https://example.com",
        "    generator: hugo",
        "    site: .",
        "    plugins:",
        "      pages: { path: content, route: / }",
        "      api: ~",
        "",
      ].join("\n"),
      "hugo.toml": "[permalinks.page]\n  posts = '/blog/:year/:month/:slug/'\n",
      "content/posts/undated.md": md({ title: "Undated" }, LONG),
    });
    try {
      const path = join(root, "content/posts/undated.md");
      const url = (api: ContentApi) =>
        api.index.items.find((item) => item.title === "Undated")!.url;
      const touch = (time: string) => utimes(path, new Date(time), new Date(time));
      // First dated the day the tests of whether a page depends on its date begin with: a
      // file whose own date matched that probe was once taken as one whose page does not.
      await touch("1970-01-01T00:00:01Z");
      assert.equal(await started(root, url), "/blog/1970/01/undated/");
      await started(root, async (api) => {
        const pages = [["2021-05-06", "/blog/2021/05/undated/"], [
          "2019-11-12",
          "/blog/2019/11/undated/",
        ]];
        for (const [time, page] of pages) {
          await touch(`${time}T12:00:00Z`);
          await api.reload([path]);
          assert.equal(url(api), page);
          const { read, verified, derived } = api.lastLoad;
          assert.deepEqual([read, verified, derived], [1, 1, 0]);
        }
      });
      // A restart after a touch while no server ran: the page of the new date.
      await touch("2025-09-09T12:00:00Z");
      assert.equal(await started(root, url), "/blog/2025/09/undated/");
      await rm(join(root, ".content-feed"), { recursive: true });
      assert.equal(await started(root, url), "/blog/2025/09/undated/", "a fresh start");
    } finally {
      await removeSite(root);
    }
  });

  it("a cache of another version or content root is rebuilt with one warning, and serves the same", async () => {
    const site = docsSite(10);
    const root = await writeSite(site);
    try {
      await age(root, contentPaths(site));
      const expected = await started(root, served);
      const db = new DatabaseSync(join(root, ".content-feed/journal.sqlite"));
      db.prepare("UPDATE cache_meta SET value = 'other' WHERE key = 'version'").run();
      db.close();
      const { load, warnings, got } = await started(root, async (api, warnings) => ({
        load: api.lastLoad,
        warnings,
        got: await served(api),
      }));
      assert.equal(load.derived, 11);
      assert.equal(load.fromCache, 0);
      assert.deepEqual(
        warnings.filter((w) => /derivation cache/.test(w)).length,
        1,
        warnings.join("\n"),
      );
      assert.deepEqual(got, expected);
      // A damaged part of the cache: its files are read again, never served from it.
      const db2 = new DatabaseSync(join(root, ".content-feed/journal.sqlite"));
      const part = partOf("docs", "docs/s0/doc-0.md");
      const { rows } = db2.prepare("SELECT rows FROM cache_parts WHERE part = ?").get(part) as {
        rows: string;
      };
      db2.prepare("UPDATE cache_parts SET rows = '[{not json' WHERE part = ?").run(part);
      db2.close();
      const damaged = await started(root, async (api) => ({
        load: api.lastLoad,
        got: await served(api),
      }));
      assert.equal(damaged.load.derived, JSON.parse(rows).length);
      assert.equal(damaged.load.fromCache, 11 - JSON.parse(rows).length);
      assert.deepEqual(damaged.got, expected);
    } finally {
      await removeSite(root);
    }
  });

  it("a plugin whose configuration changed is derived again; the others keep their rows", async () => {
    const site = docsSite(12);
    const root = await writeSite(site);
    try {
      await age(root, contentPaths(site));
      await started(root, () => {});
      await writeFile(
        join(root, "services.yaml"),
        `parameters:
  service.content.config:
    url: https://example.com
    plugins:
      docs: { exclude: ["s2/**"] }
      blog: ~
      api: ~
      sitemap: ~
`,
      );
      const { load, warnings, got } = await started(root, async (api, warnings) => ({
        load: api.lastLoad,
        warnings,
        got: await served(api),
      }));
      assert.equal(load.derived, 8, "docs/s0 and docs/s1, read again");
      assert.equal(load.fromCache, 1, "the blog post");
      assert.deepEqual(warnings, [], "a configuration edited is no cache problem");
      await rm(join(root, ".content-feed"), { recursive: true });
      assert.deepEqual(await started(root, served), got);
    } finally {
      await removeSite(root);
    }
  });

  it("a state folder that cannot be written, or that another server holds: one warning, in memory, nothing cached", async () => {
    const site = docsSite(5);
    const root = await writeSite(site);
    try {
      await age(root, contentPaths(site));
      await started(root, async (first) => {
        // A second service on the same folder while the first holds it.
        const second = await started(root, (api, warnings) => ({ load: api.lastLoad, warnings }));
        assert.equal(second.load.fromCache, 0);
        assert.equal(second.warnings.length, 1, second.warnings.join("\n"));
        assert.match(
          second.warnings[0],
          /another server on this state folder\? .*no derivation cache/,
        );
        assert.equal(first.index.items.length, 6);
      });
      // A file where the state folder would be: said so, and no journal is said to be kept.
      await rm(join(root, ".content-feed"), { recursive: true });
      await writeFile(join(root, ".content-feed"), "not a folder");
      const file = await started(root, (api, warnings) => ({ load: api.lastLoad, warnings }));
      assert.equal(file.warnings.length, 1, file.warnings.join("\n"));
      assert.match(file.warnings[0], /\.content-feed is a file, not a folder/);
      assert.doesNotMatch(file.warnings[0], /kept for a later start/);
      assert.equal(file.load.derived, 6);
      await rm(join(root, ".content-feed"));
      if (process.getuid?.() !== 0) {
        // A folder that cannot be written (root could write it anyway).
        await chmod(root, 0o555);
        try {
          const ro = await started(root, (api, warnings) => ({ load: api.lastLoad, warnings }));
          assert.equal(ro.warnings.length, 1);
          assert.match(ro.warnings[0], /cannot be (made|written) \(/);
          assert.equal(ro.load.derived, 6);
        } finally {
          await chmod(root, 0o755);
        }
      }
    } finally {
      await removeSite(root);
    }
  });
});

describe("git dates at a restart and a change (SPEC 17)", () => {
  it("a restart asks git only for the commits since; a commit re-dates without reading; an edit asks about that file", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    const site = docsSite(20);
    const root = await writeSite(site);
    try {
      git(root, ["init", "-q"]);
      git(root, ["add", "."]);
      git(root, ["commit", "-qm", "one"], "2020-01-02T10:00:00Z");
      await age(root, contentPaths(site));
      const first = await started(root, (api) => api.lastLoad);
      assert.equal(first.derived, 21);

      // Nothing changed: HEAD and the work tree's changes asked, no history read.
      const again = await started(root, (api) => api.lastLoad);
      assert.equal(again.read, 0);
      assert.equal(again.git, 2, "rev-parse and status");

      // A commit of bytes already there (an offline edit, committed): read once, dated from git.
      await writeFile(join(root, "docs/s0/doc-0.md"), md({ title: "Zero" }, `${LONG} Edited.`));
      await age(root, ["docs/s0/doc-0.md"]);
      git(root, ["commit", "-qam", "two"], "2021-03-04T10:00:00Z");
      const committed = await started(root, (api) => ({
        load: api.lastLoad,
        last: api.index.byPath.get("docs/s0/doc-0")!.last_update,
      }));
      assert.equal(committed.load.read, 1);
      assert.equal(committed.last, "2021-03-04");
      assert.equal(committed.load.git, 3, "rev-parse, the log of the commits since, status");

      // An amend: the recorded commit is gone, the history is read again in full, with a note.
      git(root, ["commit", "-q", "--amend", "--no-edit"], "2022-05-06T10:00:00Z");
      const amended = await started(root, (api, warnings) => ({
        load: api.lastLoad,
        warnings,
        last: api.index.byPath.get("docs/s0/doc-0")!.last_update,
      }));
      assert.equal(amended.last, "2022-05-06");
      assert.equal(amended.load.read, 0, "no bytes changed: dated again without a read");
      assert.equal(amended.load.rebased, 1);
      assert.equal(amended.warnings.filter((w) => /not an ancestor of HEAD/.test(w)).length, 1);

      // While serving: an edit reads that file and asks git about it alone.
      await started(root, async (api) => {
        await api.reload([join(root, "docs/s1/doc-1.md")]); // HEAD read once, from then on its stamp says
        await writeFile(join(root, "docs/s1/doc-1.md"), md({ title: "One!" }, LONG));
        await api.reload([join(root, "docs/s1/doc-1.md")]);
        const edit = api.lastLoad;
        assert.equal(edit.stated, 1);
        assert.equal(edit.read, 1);
        assert.equal(edit.derived, 1);
        assert.equal(edit.git, 1, "git status of that file");
        assert.equal(api.index.byPath.get("docs/s1/doc-1")!.title, "One!");
        // Its commit: the commits since, and what the work tree says; dated without a read.
        git(root, ["commit", "-qam", "three"], "2023-07-08T10:00:00Z");
        await api.reload([]);
        const commit = api.lastLoad;
        assert.equal(commit.read, 0);
        assert.equal(commit.rebased, 1);
        assert.equal(commit.git, 3);
        assert.equal(api.index.byPath.get("docs/s1/doc-1")!.last_update, "2023-07-08");
      });
      // And a restart serves what a start from an empty state folder serves.
      const cached = await started(root, served);
      await rm(join(root, ".content-feed"), { recursive: true });
      assert.deepEqual(await started(root, served), cached);
    } finally {
      await removeSite(root);
    }
  });
});

describe("a change costs what it changed (SPEC 17)", () => {
  it("a checkout of another branch (many files and their dates) is one re-index", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    const site = docsSite(60);
    const root = await writeSite(site);
    try {
      git(root, ["init", "-q", "-b", "main"]);
      git(root, ["add", "."]);
      git(root, ["commit", "-qm", "one"], "2020-01-02T10:00:00Z");
      git(root, ["checkout", "-q", "-b", "other"]);
      for (let i = 0; i < 60; i += 2) {
        const path = `docs/s${i % 3}/doc-${i}.md`;
        await writeFile(join(root, path), md({ title: `Other ${i}` }, LONG));
      }
      git(root, ["commit", "-qam", "other"], "2021-02-03T10:00:00Z");
      git(root, ["checkout", "-q", "main"]);
      await started(root, async (api) => {
        const head = () => Number(api.cursor.split(".")[1]);
        const before = head();
        // Every index served meanwhile, looked at every 2 ms.
        const indexes = new Set<object>([api.index]);
        const sampler = setInterval(() => indexes.add(api.index), 2);
        git(root, ["checkout", "-q", "other"]);
        for (
          let i = 0;
          i < 500 && api.index.byPath.get("docs/s0/doc-0")?.title !== "Other 0";
          i++
        ) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        assert.equal(api.index.byPath.get("docs/s0/doc-0")?.title, "Other 0");
        // Long enough for HEAD's poll (500 ms) to have seen the checkout too.
        await new Promise((resolve) => setTimeout(resolve, 1200));
        assert.equal(api.index.byPath.get("docs/s0/doc-0")?.last_update, "2021-02-03");
        assert.equal(api.index.byPath.get("docs/s1/doc-58")?.last_update, "2021-02-03");
        clearInterval(sampler);
        indexes.add(api.index);
        // 30 items changed, each once: no index in between held some of them, or wrong dates.
        assert.equal(head() - before, 30, "each changed item recorded once");
        assert.equal(indexes.size, 2, "one re-index");
      }, { watch: true });
    } finally {
      await removeSite(root);
    }
  });

  it("an edit seen by the watcher is one load: the state folder's own writes are no change", async () => {
    const site = docsSite(5);
    const root = await writeSite(site);
    try {
      await age(root, contentPaths(site));
      await started(root, async (api) => {
        const loads = new Set<object>([api.lastLoad]);
        const seen = () => loads.add(api.lastLoad);
        await writeFile(join(root, "docs/s1/doc-1.md"), md({ title: "One, edited" }, LONG));
        for (
          let i = 0;
          i < 400 && api.index.byPath.get("docs/s1/doc-1")?.title !== "One, edited";
          i++
        ) {
          seen();
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        assert.equal(api.index.byPath.get("docs/s1/doc-1")?.title, "One, edited");
        const edit = api.lastLoad;
        assert.equal(edit.read, 1);
        // The journal's record and the cache's flush (half a second later) write the
        // state folder inside the content root: neither may start another load.
        for (let i = 0; i < 12; i++) {
          seen();
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        seen();
        assert.equal(api.lastLoad, edit, "no load after the edit's");
        assert.ok(loads.size <= 3, `${loads.size - 1} loads for one edit`);
      }, { watch: true });
    } finally {
      await removeSite(root);
    }
  });

  it("the full feed of a new index copies the items it shares with the last one, byte for byte", async () => {
    const site = docsSite(40);
    const root = await writeSite(site);
    try {
      const config = await loadConfigFile(join(root, "services.yaml"));
      const pipeline = await contentPipeline(config, { keepBody: false });
      let { index } = await pipeline.build();
      let full = renderFullFeed(index, "https://example.com", "c.1");
      const edits: [string, string][] = [
        ["docs/s0/doc-0.md", md({ title: "Changed", tags: ["t1"] }, LONG)],
        ["docs/s1/doc-4.md", md({ title: "Four", tags: ["fresh"] }, LONG)],
        ["blog/2024-05-06-hello.md", md({ title: "Hello again" }, LONG)],
      ];
      for (const [path, text] of edits) {
        await writeFile(join(root, path), text);
        const next = (await pipeline.build(index, [join(root, path)])).index;
        const patched = renderFullFeed(next, "https://example.com", "c.2", {
          full,
          placeOf: (item) => index.feedPlace.get(item),
        });
        const fresh = renderFullFeed(next, "https://example.com", "c.2");
        assert.deepEqual(patched.starts, fresh.starts, path);
        assert.equal(Buffer.compare(Buffer.from(patched.bytes), Buffer.from(fresh.bytes)), 0, path);
        [index, full] = [next, patched];
      }
    } finally {
      await removeSite(root);
    }
  });

  it("an item's answers outlive a new index that holds the item as it was", async () => {
    const site = docsSite(10);
    const root = await writeSite(site);
    try {
      const config = await loadConfigFile(join(root, "services.yaml"));
      const pipeline = await contentPipeline(config, { keepBody: false });
      let index: Index = (await pipeline.build()).index;
      const journal = createJournal({ retentionDays: 90, warn: assert.fail });
      let state = journal.record(index, 0);
      const reads = new Map<string, number>();
      const handle = createHandler({
        index: () => index,
        journal: () => state,
        baseUrl: "https://example.com",
        cors: true,
        cacheControl: "public, max-age=60",
        logError: (message) => assert.fail(message),
        readBody: (item: Item) => {
          reads.set(item.file, (reads.get(item.file) ?? 0) + 1);
          return readBody(join(root, item.file), item.checksum, config.maxFileSize);
        },
      });
      const get = async (path: string) => {
        const response = await handle(new Request(`https://example.com${path}`));
        return { etag: response.headers.get("etag"), body: await response.text() };
      };
      const kept = await get("/docs/s1/doc-1.json");
      const keptMd = await get("/docs/s1/doc-1.md");
      const edited = await get("/docs/s2/doc-2.json");
      // Another file of another folder changes (same tags: no count moves).
      await writeFile(join(root, "docs/s2/doc-2.md"), md({ title: "Two!", tags: ["t2"] }, LONG));
      const built = await pipeline.build(index, [join(root, "docs/s2/doc-2.md")]);
      index = built.index;
      state = journal.record(index, 1, built.changes);
      assert.deepEqual(await get("/docs/s1/doc-1.json"), kept);
      assert.deepEqual(await get("/docs/s1/doc-1.md"), keptMd);
      assert.equal(reads.get("docs/s1/doc-1.md"), 2, "made once per form: kept across the change");
      assert.notDeepEqual(await get("/docs/s2/doc-2.json"), edited);
      assert.equal(reads.get("docs/s2/doc-2.md"), 2, "the changed item's answer made again");
    } finally {
      await removeSite(root);
    }
  });

  it("a cold load of a large site asks for two collections; a restart from the cache and an edit ask for none", async () => {
    // The collections keep a first start's peak memory down (SPEC 17, `docs/performance.md`): one
    // after the load, before the index is built; one after the first index, before a request
    // writes the full feed. The runtime's collector is the tuning's; here it is counted.
    const site = docsSite(COLD_LOAD_FILES);
    const root = await writeSite(site);
    let collections = 0;
    const start = () =>
      createService({ config: join(root, "services.yaml"), logger: memoryLogger(), watch: false }, {
        collectAfterLoad: () => collections++,
      });
    try {
      await age(root, contentPaths(site));
      const first = await start();
      try {
        assert.equal(first.api.lastLoad.derived, COLD_LOAD_FILES + 1);
        assert.equal(collections, 2, "after the cold load, and after its index");
        await (await first.api.fetch(new Request("https://example.com/api/content.json"))).bytes();
        await writeFile(join(root, "docs/s0/doc-0.md"), md({ title: "Zero!" }, LONG));
        await first.api.reload([join(root, "docs/s0/doc-0.md")]);
        assert.equal(first.api.lastLoad.derived, 1);
        assert.equal(collections, 2, "an edit: none");
      } finally {
        first.api.close();
      }
      const again = await start();
      try {
        assert.equal(again.api.lastLoad.fromCache, COLD_LOAD_FILES + 1);
        assert.equal(collections, 2, "a restart from the cache: none");
      } finally {
        again.api.close();
      }
    } finally {
      await removeSite(root);
    }
  });

  it("the pipeline collects after a cold load, before the index is built from it, on every build", async () => {
    const steps: string[] = [];
    // Files whose listing by the index build is seen: none, so the index is empty.
    const files = new Proxy([], {
      get(target, key, receiver) {
        if (key === Symbol.iterator) steps.push("index");
        return Reflect.get(target, key, receiver);
      },
    });
    const cold = fixedSource(files);
    const source = {
      ...cold,
      load: async () => ({
        ...await cold.load(),
        files,
        changed: true,
        work: { ...NO_WORK, derived: COLD_LOAD_FILES },
      }),
    };
    const settings = { title: undefined, url: undefined, api: true, sitemap: false, plugins: [] };
    const pipeline = createPipeline(settings, source, () => 0, {
      collectAfterLoad: () => steps.push("collect"),
    });
    const { index } = await pipeline.build();
    assert.deepEqual(steps.slice(0, 2), ["collect", "index"]);
    // A reload that derived most of the site again (a checkout that changed most files): again.
    steps.length = 0;
    await pipeline.build(index);
    assert.equal(steps[0], "collect");
    // A load that derived nothing: none.
    steps.length = 0;
    await createPipeline(settings, fixedSource([]), () => 0, {
      collectAfterLoad: () => steps.push("collect"),
    }).build();
    assert.deepEqual(steps, []);
  });

  it("the Deno and Node servers collect with V8's collector; Bun's is not asked", () => {
    assert.equal(denoTuning.collectAfterLoad, collectV8Garbage);
    assert.equal(nodeTuning.collectAfterLoad, collectV8Garbage);
    assert.equal(bunTuning.collectAfterLoad, undefined);
  });

  it("a load is cold when it derived most of its files, and at least COLD_LOAD_FILES", () => {
    const load = (files: number, derived: number) => ({
      files: new Array(files),
      work: { derived },
    });
    assert.equal(isColdLoad(load(COLD_LOAD_FILES, COLD_LOAD_FILES)), true);
    assert.equal(isColdLoad(load(COLD_LOAD_FILES - 1, COLD_LOAD_FILES - 1)), false, "a small site");
    assert.equal(isColdLoad(load(2 * COLD_LOAD_FILES, COLD_LOAD_FILES)), true, "half of them");
    assert.equal(isColdLoad(load(2 * COLD_LOAD_FILES + 2, COLD_LOAD_FILES)), false, "under half");
  });

  it("the V8 collector is found without --expose-gc, and the flag is put back", async () => {
    const vm = process.getBuiltinModule("node:vm");
    // Under Bun there is no V8 to ask: it does nothing there (Bun's tuning does not use it).
    const v8 = typeof (globalThis as { Bun?: unknown }).Bun === "undefined";
    let ref: WeakRef<object> | undefined;
    (() => {
      ref = new WeakRef({ big: new Array(1000).fill(0) });
    })();
    // A WeakRef's target is kept to the end of the task that made it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectV8Garbage();
    collectV8Garbage();
    if (v8) assert.equal(ref!.deref(), undefined, "collected");
    assert.equal(vm.runInNewContext("typeof gc"), "undefined", "a new context has no gc()");
  });
});
