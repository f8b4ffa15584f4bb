// SPEC 17, a restart with nothing changed answers before its index is built:
// a start that finds everything the last server's full feed was made from as
// it was (the code, the base URL, the journal's cursor, the site's
// configuration, every content file's stamp, git's HEAD and work tree)
// serves that feed while it loads. Differential: what it serves then is what
// the index it builds serves. Anything changed while no server ran (an edit,
// a touch, a file added or removed, the configuration, a commit, another base
// URL, a file read within its stamp's resolution of a change) waits for the
// index, as before.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { Buffer } from "node:buffer";
import {
  appendFile,
  mkdir,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import process from "node:process";
import { createContentApi } from "../mod.ts";
import { startService } from "../src/service.ts";
import { createEarlyFeedHandler } from "../src/http/early_feed.ts";
import type { Handler } from "../src/http/handler.ts";
import { createStartingHandler } from "../src/http/starting.ts";
import type { FeedImage } from "../src/pipeline/feed_image.ts";
import { currentRuntime, tuningFor } from "../src/adapters/mod.ts";
import { listen } from "../src/adapters/listen.ts";
import { FEED_IMAGE_FILE } from "../src/sync/feed_image_file.ts";
import { RACY_MS } from "../src/source/loader_types.ts";
import { QUIET_MS } from "../src/http/quiet.ts";
import { OWN_RUNTIME, RUNTIMES, startServer } from "./server_helpers.ts";
import {
  configFor,
  eventually,
  git,
  HAS_GIT,
  LONG,
  md,
  memoryLogger,
  removeSite,
  writeSite,
} from "./helpers.ts";

const BASE = "https://example.com";
const FEED = `${BASE}/api/content.json`;
/** A time long before the test: files stamped with it were not changed near their read. */
const LONG_AGO = new Date(Date.UTC(2025, 0, 1));

function files(): Record<string, string> {
  const out: Record<string, string> = {
    "services.yaml": configFor(["docs", "blog", "api"], BASE),
    "blog/2024-05-06-hello.md": md({ title: "Hello", tags: ["news"] }, LONG),
  };
  for (let i = 0; i < 8; i++) {
    out[`docs/s${i % 2}/doc-${i}.md`] = md({ title: `Doc ${i}`, tags: [`t${i % 3}`] }, LONG);
  }
  return out;
}

/** Runs `fn` on a fresh site of {@link files} and always removes its folder. */
async function onSite(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await writeSite(files());
  try {
    await fn(root);
  } finally {
    await removeSite(root);
  }
}

/**
 * Stamps every file and folder of the site with a time long ago (a start
 * reads none of them near a change, nor lists a folder near one).
 */
async function settle(root: string): Promise<void> {
  const walk = async (folder: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (entry.name === ".git" || entry.name === ".content-feed") continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      if (!entry.isSymbolicLink()) await utimes(path, LONG_AGO, LONG_AGO);
    }
  };
  await walk(root);
  await utimes(root, LONG_AGO, LONG_AGO);
}

/** Resolves once the clock is past `time` (epoch ms). */
async function untilPast(time: number): Promise<void> {
  while (Date.now() <= time) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(250, time - Date.now() + 1)));
  }
}

/**
 * A server whose start reads `files` near their change (stamped half a second
 * ahead), stopped once those times are old enough for a later write to show
 * in them; `serving` runs while it serves, given that time. The full feed it
 * served.
 */
async function runNear(
  root: string,
  files: readonly string[],
  serving: (near: number) => Promise<void> = async () => {},
) {
  const near = Date.now() + 500;
  for (const file of files) await utimes(join(root, file), new Date(near), new Date(near));
  const api = await createContentApi({
    config: join(root, "services.yaml"),
    logger: memoryLogger(),
  });
  try {
    const served = await seen(api.fetch);
    await serving(near);
    await untilPast(near + RACY_MS);
    return served;
  } finally {
    api.close();
  }
}

/** The full feed as a client sees it: bytes and validators, identity and gzip. */
async function seen(handle: (request: Request) => Response | Promise<Response>) {
  const identity = await handle(
    new Request(FEED, { headers: { "accept-encoding": "identity" } }),
  );
  const gzip = await handle(new Request(FEED, { headers: { "accept-encoding": "gzip" } }));
  return {
    status: identity.status,
    bytes: new Uint8Array(await identity.arrayBuffer()),
    etag: identity.headers.get("etag"),
    lastModified: identity.headers.get("last-modified"),
    headers: [...identity.headers].filter(([name]) => name !== "date"),
    gzipStatus: gzip.status,
    gzip: new Uint8Array(await gzip.arrayBuffer()),
    gzipEtag: gzip.headers.get("etag"),
  };
}

/** A server run from start to stop (so it keeps its full feed): the feed it served. */
async function run(root: string, options: { baseUrl?: string } = {}) {
  const api = await createContentApi({
    config: join(root, "services.yaml"),
    logger: memoryLogger(),
    ...options,
  });
  try {
    return await seen(api.fetch);
  } finally {
    api.close();
  }
}

/** A start of the site at `root` that may serve its kept feed before its index (SPEC 17). */
function startEarly(root: string, options: Parameters<typeof startService>[0] = {}) {
  return startService({
    config: join(root, "services.yaml"),
    logger: memoryLogger(),
    early: true,
    ...options,
  });
}

/**
 * A start, looked at before its index is built: whether it serves the kept
 * feed then, what it answers, and (once built) what its index serves.
 */
async function restart(root: string, options: { baseUrl?: string } = {}) {
  const logger = memoryLogger();
  const starting = await startEarly(root, { logger, ...options });
  // Asked before anything is awaited: the first index is not built yet.
  const early = starting.early ? await seen(starting.handle) : undefined;
  const page = starting.early
    ? await starting.handle(new Request(`${FEED}?type=docs&limit=2`))
    : undefined;
  const health = starting.early
    ? await starting.handle(new Request(`${BASE}/api/health`))
    : undefined;
  const { api } = await starting.ready;
  try {
    return {
      counts: starting.early?.counts,
      checked: starting.early?.checked,
      early,
      page: page?.status,
      health: health?.status,
      built: await seen(api.fetch),
      index: api.index,
      load: api.lastLoad,
      warnings: logger.warnings(),
    };
  } finally {
    api.close();
  }
}

describe("a restart with nothing changed serves the kept full feed before its index is built (SPEC 17)", () => {
  it("a file edited in place after the check listed it, before the watch began: served within 2 s (SPEC 10)", async () => {
    await onSite(async (root) => {
      await settle(root);
      await run(root);
      const starting = await startEarly(root, {
        watch: true,
        // No relisting for an hour: only the load or the watch can find the edit.
        relistInterval: 3_600_000,
      });
      assert.ok(starting.early, "the check found the content as it was");
      // The check listed and stat'ed every file; the load waits for a first answer (or a moment),
      // and the watch begins with it. The edit comes in between, in place: the folder's time stays.
      const path = join(root, "docs/s0/doc-0.md");
      await writeFile(path, md({ title: "Doc 0, edited as the server started" }, LONG));
      const { api } = await starting.ready;
      try {
        await eventually("the edit", async () => {
          const feed = await (await api.fetch(new Request(FEED))).json();
          return feed.data.some((item: { title: string }) =>
            item.title === "Doc 0, edited as the server started"
          );
        });
      } finally {
        api.close();
      }
    });
  });

  it("a cold first start, watched once it has read, keeps its feed for the next start however soon it stops", async () => {
    await onSite(async (root) => {
      await settle(root);
      // Nothing kept: the first load reads every file, and its watch begins after it (live.ts).
      const api = await createContentApi({
        config: join(root, "services.yaml"),
        logger: memoryLogger(),
        watch: true,
        relistInterval: 3_600_000,
      });
      let first;
      try {
        first = await seen(api.fetch);
        const read = api.lastLoad.read;
        assert.ok(read > 0);
        // Past the catch-up's start, with some margin: with nothing changed it built nothing (a
        // stop during a build would keep nothing for the next start), so the last load is still
        // the first one.
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS + 750));
        assert.equal(api.lastLoad.read, read, "the catch-up read nothing and built nothing");
      } finally {
        api.close();
      }
      const again = await restart(root);
      assert.ok(again.early, "the kept feed was served while the content loaded");
      assert.deepEqual(again.early.bytes, first.bytes);
    });
  });

  it("byte for byte what its index then serves, with the same ETags; every other route waits", async () => {
    await onSite(async (root) => {
      await settle(root);
      const first = await run(root);
      const again = await restart(root);
      assert.ok(again.early, "the kept feed was served while the content loaded");
      // Differential: before the index and after it, the same answer.
      assert.deepEqual(again.early, again.built);
      assert.deepEqual(again.early.bytes, first.bytes);
      assert.equal(again.early.etag, first.etag);
      assert.equal(again.early.gzipEtag, first.gzipEtag);
      assert.equal(again.early.lastModified, first.lastModified);
      assert.deepEqual(
        again.counts,
        again.index.counts.map(({ plugin, items, feed }) => ({ plugin, items, feed })),
      );
      assert.equal(again.page, 503, "a filtered page waits for the index");
      assert.equal(again.health, 503, "health says starting until the index is served");
      assert.deepEqual(again.warnings, []);
      // Revalidation with the kept ETag is a 304 before the index too.
      const third = await startEarly(root);
      assert.ok(third.early);
      // Until its index is served the kept feed stays in the state folder: a server stopped
      // meanwhile (the CLI closes nothing then) leaves it to the next start.
      const image = join(root, ".content-feed", FEED_IMAGE_FILE);
      assert.ok(existsSync(image), "kept until the first index is served");
      const notModified = await third.handle(
        new Request(FEED, { headers: { "if-none-match": first.etag! } }),
      );
      assert.equal(notModified.status, 304);
      const head = await third.handle(new Request(FEED, { method: "HEAD" }));
      assert.equal(head.status, 200);
      assert.equal(head.headers.get("etag"), first.etag);
      const served = await third.ready;
      assert.ok(!existsSync(image), "used once its index is served");
      served.api.close();
      assert.ok(existsSync(image), "kept again at the stop");
    });
  });

  it("a server never asked for the full feed keeps it too; an encoding it did not keep is not made early", async () => {
    await onSite(async (root) => {
      await settle(root);
      const api = await createContentApi({
        config: join(root, "services.yaml"),
        logger: memoryLogger(),
      });
      const page = await api.fetch(new Request(`${FEED}?type=docs&limit=2`));
      assert.equal(page.status, 200);
      const pageEtag = page.headers.get("etag");
      api.close();
      const again = await restart(root);
      assert.ok(again.early, "the feed written as the last server stopped is served at once");
      // Its bytes and ETag are the index's; gzip was not kept, so the early answer is identity.
      assert.deepEqual(again.early.bytes, again.built.bytes);
      assert.equal(again.early.etag, again.built.etag);
      assert.equal(again.early.lastModified, again.built.lastModified);
      assert.deepEqual(again.early.gzip, again.early.bytes, "no gzip made beside the load");
      assert.equal(again.early.gzipEtag, again.early.etag);
      // Once the index is built, gzip is made as for any feed.
      assert.deepEqual(gunzipSync(again.built.gzip), Buffer.from(again.built.bytes));
      assert.notEqual(again.built.gzipEtag, again.built.etag);
      assert.deepEqual(again.warnings, []);
      // The same build time: a page a client holds revalidates across the restart.
      const third = await createContentApi({
        config: join(root, "services.yaml"),
        logger: memoryLogger(),
      });
      try {
        const revalidated = await third.fetch(
          new Request(`${FEED}?type=docs&limit=2`, { headers: { "if-none-match": pageEtag! } }),
        );
        assert.equal(revalidated.status, 304);
      } finally {
        third.close();
      }
    });
  });

  it("its first load gives the thread back while it serves the kept feed: requests between are answered", async () => {
    await onSite(async (root) => {
      await settle(root);
      await run(root);
      const starting = await startEarly(root);
      assert.ok(starting.early);
      let built = false;
      const ready = starting.ready.then((service) => {
        built = true;
        return service;
      });
      // The first answer, once its body is taken, begins the load.
      assert.equal((await seen(starting.handle)).status, 200);
      // A request on each later turn of the event loop until the index is served: a load that
      // held the thread to its end (the kept rows made at once, its I/O blocking) leaves none.
      const during: number[] = [];
      await new Promise<void>((resolve) => {
        const probe = async () => {
          if (built) return resolve();
          during.push((await starting.handle(new Request(FEED))).status);
          setTimeout(probe, 0);
        };
        setTimeout(probe, 0);
      });
      (await ready).api.close();
      assert.ok(during.length > 0, "requests were answered while the first index was built");
      assert.ok(during.every((status) => status === 200), `${during}`);
    });
  });

  it("only where asked for (the command line asks; a library caller waits for its service anyway)", async () => {
    await onSite(async (root) => {
      await settle(root);
      await run(root);
      const starting = await startService({
        config: join(root, "services.yaml"),
        logger: memoryLogger(),
      });
      assert.equal(starting.early, undefined);
      (await starting.ready).api.close();
    });
  });

  it("the command line says so: the kept feed at once, every route once the index is built", async () => {
    await onSite(async (root) => {
      const env = { CONTENT_CONFIG: join(root, "services.yaml") };
      await settle(root);
      const first = await startServer(RUNTIMES[OWN_RUNTIME]("main.ts"), env);
      const bytes = await (await fetch(`${first.url}/api/content.json`)).arrayBuffer();
      await first.stop();
      assert.doesNotMatch(first.stdout(), /kept from the last run/);
      const again = await startServer(RUNTIMES[OWN_RUNTIME]("main.ts"), env);
      try {
        const out = again.stdout();
        assert.match(
          out,
          /listening on http:\/\/\S+\/api\/content\.json · docs 8 \(8 in feed\), blog 1 \(1 in feed\) \(kept from the last run/,
        );
        assert.match(out, /serving every route/);
        const now = await (await fetch(`${again.url}/api/content.json`)).arrayBuffer();
        assert.deepEqual(new Uint8Array(now), new Uint8Array(bytes));
      } finally {
        await again.stop();
      }
    });
  });

  it("anything changed while no server ran: the start waits for its index, which serves the change", async () => {
    await onSite(async (root) => {
      const changes: [string, () => Promise<unknown>][] = [
        ["a file edited", () => appendFile(join(root, "docs/s0/doc-0.md"), "\nEdited.\n")],
        ["a file touched", () => utimes(join(root, "docs/s1/doc-1.md"), new Date(), new Date())],
        ["a file added", () => writeFile(join(root, "docs/s0/new.md"), md({ title: "New" }, LONG))],
        ["a file removed", () => rm(join(root, "docs/s1/doc-3.md"))],
        [
          "the configuration",
          () =>
            writeFile(
              join(root, "services.yaml"),
              configFor(["docs", "blog", "api"], BASE).replace(
                "    url:",
                '    title: "T"\n    url:',
              ),
            ),
        ],
      ];
      for (const [what, change] of changes) {
        await settle(root);
        await run(root); // a server that stops with nothing near a change: it keeps an early check
        await change();
        const after = await restart(root);
        assert.equal(after.early, undefined, `served the kept feed after ${what}`);
        assert.equal(after.built.status, 200);
        assert.deepEqual(after.warnings, [], what);
      }
      // Another base URL than the kept feed's (its links would be wrong), with no base URL
      // configured: the start's own.
      await writeFile(join(root, "services.yaml"), configFor(["docs", "blog", "api"]));
      await settle(root);
      await run(root, { baseUrl: BASE });
      assert.ok((await restart(root, { baseUrl: BASE })).early, "the same base URL");
      await run(root, { baseUrl: BASE });
      const other = await restart(root, { baseUrl: "https://other.example" });
      assert.equal(other.early, undefined, "another base URL");
    });
  });

  it("a file changed within its stamp's resolution of its read: the next start looks at it again", async () => {
    await onSite(async (root) => {
      // Stamped a minute ahead: every read, and the stop's reading again, is too close to trust.
      const ahead = new Date(Date.now() + 60_000);
      await utimes(join(root, "docs/s0/doc-0.md"), ahead, ahead);
      await run(root);
      const after = await restart(root);
      assert.equal(after.early, undefined);
      // Read again by that start, long after: now a restart may serve the kept feed.
      await settle(root);
      await run(root);
      assert.ok((await restart(root)).early);
    });
  });

  it("files read near a change are read again as the server stops: the next start serves the kept feed", async () => {
    await onSite(async (root) => {
      await settle(root);
      // Two files changed a moment before the start (a checkout, a pull).
      const served = await runNear(root, ["docs/s0/doc-0.md", "docs/s1/doc-1.md"]);
      const after = await restart(root);
      assert.ok(after.early, "the kept feed, at once");
      assert.deepEqual(after.early.bytes, served.bytes);
      // The new reading times went to the derivation cache: the start's load read nothing.
      assert.equal(after.load.read, 0);
      assert.equal(after.load.fromCache, 9); // the site's nine content files
    });
  });

  it("a file read near a change and changed since, its stamp the same: the stop keeps no early check", async () => {
    await onSite(async (root) => {
      await settle(root);
      const file = join(root, "docs/s0/doc-0.md");
      const served = await runNear(root, ["docs/s0/doc-0.md"], async (near) => {
        // The same size, other bytes, the time put back: its status change time or its checksum
        // tells.
        const text = await readFile(file, "utf8");
        await writeFile(file, text.replace('title: "Doc 0"', 'title: "Dox 0"'));
        await utimes(file, new Date(near), new Date(near));
      });
      assert.ok(new TextDecoder().decode(served.bytes).includes('"Doc 0"'));
      const after = await restart(root);
      assert.equal(after.early, undefined);
      assert.ok(new TextDecoder().decode(after.built.bytes).includes('"Dox 0"'));
    });
  });

  it("in git: a commit, or a change in the work tree, while no server ran", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    await onSite(async (root) => {
      git(root, ["init", "-q"]);
      git(root, ["add", "."]);
      git(root, ["commit", "-qm", "one"], "2024-01-02T10:00:00Z");
      await settle(root);
      await run(root);
      assert.ok((await restart(root)).early, "nothing changed: the kept feed");
      // A commit that changes no file's bytes still moves HEAD (and may move dates).
      git(root, ["commit", "-q", "--allow-empty", "-m", "two"], "2024-02-02T10:00:00Z");
      const committed = await restart(root);
      assert.equal(committed.early, undefined, "after a commit");
      // A file staged as removed, its bytes and stamp kept: git's work tree says it changed.
      await settle(root);
      await run(root);
      git(root, ["rm", "-q", "--cached", "docs/s0/doc-2.md"]);
      const staged = await restart(root);
      assert.equal(staged.early, undefined, "after a change in git's index");
      assert.deepEqual(staged.warnings, []);
    });
  });
});

describe("a restart in git checks through git the files git vouches for (SPEC 17)", () => {
  /** A site in git, committed, with an untracked file, a changed one and a link, all settled. */
  async function inGit(root: string): Promise<void> {
    await writeFile(join(root, ".gitignore"), "shared/\n.content-feed/\n");
    git(root, ["init", "-q"]);
    git(root, ["add", "."]);
    git(root, ["commit", "-qm", "one"], "2024-01-02T10:00:00Z");
    // Untracked, ignored by git, and reached through a link: git vouches for none of them.
    await writeFile(join(root, "docs/s0/untracked.md"), md({ title: "Untracked" }, LONG));
    await mkdir(join(root, "shared"));
    await writeFile(join(root, "shared/target.md"), md({ title: "Through a link" }, LONG));
    git(root, ["add", ".gitignore"]);
    await symlink("../../shared/target.md", join(root, "docs/s1/linked.md"));
    git(root, ["add", "docs/s1/linked.md"]);
    git(root, ["commit", "-qm", "two"], "2024-01-03T10:00:00Z");
    // Changed in the work tree since its commit.
    await appendFile(join(root, "docs/s0/doc-0.md"), "\nNot committed.\n");
    await settle(root);
  }

  it("nothing changed, or only stamps: git says so, with a stat of what it does not vouch for", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    await onSite(async (root) => {
      await inGit(root);
      // The first start made the state folder in the content root, whose time says so: a
      // folder changed near its listing says nothing of the next start, which stats every file.
      await run(root);
      assert.equal((await restart(root)).checked, "stamps");
      await settle(root);
      const first = await run(root);
      const again = await restart(root);
      assert.equal(again.checked, "git");
      assert.deepEqual(again.early, again.built);
      assert.deepEqual(again.early!.bytes, first.bytes);
      assert.deepEqual(again.warnings, []);
      // A file git tracks touched, its bytes the same: git still finds it clean, and the index
      // built after serves what was served before it.
      await run(root);
      await utimes(join(root, "docs/s1/doc-1.md"), new Date(), new Date());
      const touched = await restart(root);
      assert.equal(touched.checked, "git");
      assert.deepEqual(touched.early, touched.built);
    });
  });

  it("anything changed while no server ran waits for the index, which serves the change", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    await onSite(async (root) => {
      await inGit(root);
      // What changes while no server runs, and what is done before the server that keeps the feed.
      const changes: [string, () => Promise<unknown> | unknown, (() => unknown)?][] = [
        ["a tracked file edited", () => appendFile(join(root, "docs/s1/doc-3.md"), "\nEdited.\n")],
        [
          "a changed file changed again",
          () => appendFile(join(root, "docs/s0/doc-0.md"), "\nAgain.\n"),
        ],
        [
          "an untracked file edited",
          () => appendFile(join(root, "docs/s0/untracked.md"), "\nEdited.\n"),
        ],
        [
          "a file reached through a link edited",
          () => appendFile(join(root, "shared/target.md"), "\nEdited.\n"),
        ],
        [
          "a file added",
          () => writeFile(join(root, "docs/s1/new.md"), md({ title: "New" }, LONG)),
        ],
        [
          "a commit",
          () => git(root, ["commit", "-q", "--allow-empty", "-m", "three"], "2024-02-02T10:00:00Z"),
        ],
        [
          "HEAD moved through a chain of symbolic refs, git's index untouched",
          () => {
            git(root, ["branch", "-q", "trunk"]);
            git(root, ["symbolic-ref", "refs/heads/alias", "refs/heads/trunk"]);
            git(root, ["symbolic-ref", "HEAD", "refs/heads/alias"]);
            return null;
          },
          () => {
            // The same tree committed again with another date, the branch moved to it (as a
            // fetch and `update-ref` would): the files' last dates change, nothing else.
            const tree = git(root, ["rev-parse", "HEAD^{tree}"]).trim();
            const parent = git(root, ["rev-parse", "HEAD"]).trim();
            const commit = git(
              root,
              ["commit-tree", tree, "-p", parent, "-m", "again"],
              "2024-03-03T10:00:00Z",
            ).trim();
            git(root, ["update-ref", "refs/heads/trunk", commit]);
          },
        ],
        // Last: the flag stays, and git vouches for nothing while it does.
        [
          "a file marked assumed unchanged, then edited",
          async () => {
            git(root, ["update-index", "--assume-unchanged", "docs/s1/doc-7.md"]);
            await appendFile(join(root, "docs/s1/doc-7.md"), "\nHidden from git.\n");
          },
        ],
      ];
      for (const [what, before, change] of changes) {
        if (change) await before();
        await settle(root);
        await run(root);
        await (change ?? before)();
        const after = await restart(root);
        assert.equal(after.early, undefined, `served the kept feed after ${what}`);
        assert.equal(after.built.status, 200, what);
        // What it serves is what a start with no kept feed serves.
        await rm(join(root, ".content-feed"), { recursive: true });
        const fresh = await run(root);
        // (Its own journal's cursor aside: a fresh state folder begins another journal.)
        const items = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)).data;
        assert.deepEqual(items(after.built.bytes), items(fresh.bytes), what);
      }
    });
  });

  it("a folder changed near its listing: its entries tell, once its time is old enough", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    await onSite(async (root) => {
      await inGit(root);
      /** A server that lists right after the content root changed, and stops 2.1 s later. */
      const runLate = async (meanwhile?: () => Promise<void>) => {
        await writeFile(join(root, `notes-${Date.now()}.txt`), "not content\n");
        const api = await createContentApi({
          config: join(root, "services.yaml"),
          logger: memoryLogger(),
        });
        try {
          await seen(api.fetch);
          await meanwhile?.();
          await new Promise((resolve) => setTimeout(resolve, 2100));
        } finally {
          api.close();
        }
      };
      await run(root); // the state folder made
      await runLate();
      assert.equal((await restart(root)).checked, "git", "the root's entries as listed");
      // An entry added after the listing with the root's time put back (a file system whose
      // times are too coarse to show it): the entries differ, and git vouches for nothing.
      await runLate(async () => {
        const { mtime } = await stat(root);
        await writeFile(join(root, "docs-later.md"), "not listed by any plugin\n");
        await utimes(root, mtime, mtime);
      });
      assert.equal((await restart(root)).checked, "stamps", "an entry added after the listing");
    });
  });

  it("an attributes file added or changed since the stop, above the root or in it: git's word is not taken", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    // The content root a folder of the work tree: attributes above it apply to its files too.
    const top = await writeSite({});
    const root = join(top, "site");
    try {
      for (const [path, text] of Object.entries(files())) {
        await mkdir(join(root, path, ".."), { recursive: true });
        await writeFile(join(root, path), text);
      }
      await writeFile(join(top, ".gitignore"), ".content-feed/\n");
      // Untracked, so no change to it shows in `git status`; it converts nothing.
      await writeFile(join(root, ".gitattributes"), "*.md diff=markdown\n");
      git(top, ["init", "-q"]);
      git(top, ["add", ".gitignore", "site/services.yaml", "site/docs", "site/blog"]);
      git(top, ["commit", "-qm", "one"], "2024-01-02T10:00:00Z");
      const stopped = async () => {
        await settle(root);
        await run(root);
      };
      /** An attributes file written after the stop: the start leaves git's word for stamps. */
      const addedAfterStop = async (path: string, text: string, what: string) => {
        await stopped();
        await writeFile(path, text);
        assert.equal((await restart(root)).checked, "stamps", what);
        await rm(path);
      };
      await run(root); // makes the state folder in the root: settled before the next stop
      await stopped();
      assert.equal((await restart(root)).checked, "git", "as the stop left it");
      // Above the root: a file added there changes no listed folder's time.
      await addedAfterStop(
        join(top, ".gitattributes"),
        "*.md text eol=crlf\n",
        "added above the root",
      );
      // In the root, changed in place: its folder's time stays as it was.
      await stopped();
      await writeFile(join(root, ".gitattributes"), "*.md text eol=crlf\n");
      assert.equal((await restart(root)).checked, "stamps", "changed in place in the root");
      await writeFile(join(root, ".gitattributes"), "*.md diff=markdown\n");
      // The repository's own attributes file.
      await addedAfterStop(
        join(top, ".git/info/attributes"),
        "*.md text\n",
        "added in the repository",
      );
      // The user's own (`core.attributesFile`; the start's `git status` is told that one).
      git(top, ["config", "core.attributesFile", join(top, "user-attributes")]);
      await stopped();
      assert.equal((await restart(root)).checked, "git", "the user's file not there");
      await addedAfterStop(join(top, "user-attributes"), "*.md text\n", "the user's file added");
      // A relative one is read from the work tree's top, as git reads it, not from the root.
      git(top, ["config", "core.attributesFile", "relative-attributes"]);
      await stopped();
      assert.equal((await restart(root)).checked, "git", "the relative file not there");
      await addedAfterStop(
        join(top, "relative-attributes"),
        "*.md text\n",
        "the relative file added at the top",
      );
      git(top, ["config", "--unset", "core.attributesFile"]);
      // Attributes read from a tree, or without the system's file: git vouches for nothing.
      git(top, ["config", "attr.tree", "HEAD"]);
      await stopped();
      assert.equal((await restart(root)).checked, "stamps", "attr.tree");
      git(top, ["config", "--unset", "attr.tree"]);
      await stopped();
      process.env.GIT_ATTR_NOSYSTEM = "1";
      try {
        assert.equal((await restart(root)).checked, "stamps", "GIT_ATTR_NOSYSTEM at the start");
      } finally {
        delete process.env.GIT_ATTR_NOSYSTEM;
      }
      await stopped();
      assert.equal((await restart(root)).checked, "git", "as the stop left it again");
      // The root reached through a link into the work tree, named as the folder it points to:
      // the work tree's top is git's own path, not one read off the root's spelling.
      const linked = join(top, "elsewhere", "site");
      await mkdir(join(top, "elsewhere"));
      await symlink(root, linked);
      await run(linked);
      await settle(root);
      await run(linked);
      assert.equal((await restart(linked)).checked, "git", "through the link, as the stop left it");
      await run(linked);
      await writeFile(join(top, ".gitattributes"), "*.md text eol=crlf\n");
      assert.equal((await restart(linked)).checked, "stamps", "added at the top, through the link");
    } finally {
      await removeSite(top);
    }
  });

  it("git vouches for nothing where its 'unchanged' may not be the same bytes", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    await onSite(async (root) => {
      await inGit(root);
      // A file git is told to assume unchanged: the next start stats every file.
      git(root, ["update-index", "--assume-unchanged", "docs/s1/doc-1.md"]);
      await settle(root);
      await run(root);
      assert.equal((await restart(root)).checked, "stamps");
      git(root, ["update-index", "--no-assume-unchanged", "docs/s1/doc-1.md"]);
      // Line endings converted by an attribute.
      await writeFile(join(root, ".gitattributes"), "*.md text eol=lf\n");
      await settle(root);
      await run(root);
      assert.equal((await restart(root)).checked, "stamps");
      await rm(join(root, ".gitattributes"));
      // A setting given without a value is true: lines converted.
      const config = join(root, ".git/config");
      const settings = await readFile(config, "utf8");
      await writeFile(config, `${settings}[core]\n\tautocrlf\n`);
      await settle(root);
      await run(root);
      assert.equal((await restart(root)).checked, "stamps");
      await writeFile(config, settings);
      // A broken link in a plugin's folder (a listing warning): its target may come with no
      // listed folder's time changed, so the start stats every file, and sees it come.
      await symlink("../../shared/later.md", join(root, "docs/s0/broken.md"));
      await settle(root);
      await run(root);
      assert.equal((await restart(root)).checked, "stamps");
      await run(root);
      await writeFile(join(root, "shared/later.md"), md({ title: "Later" }, LONG));
      const linked = await restart(root);
      assert.equal(linked.early, undefined, "the link's target came");
      assert.ok(linked.index.items.some((item) => item.title === "Later"));
      await rm(join(root, "docs/s0/broken.md"));
      // Without any of those: git again.
      await settle(root);
      await run(root);
      assert.equal((await restart(root)).checked, "git");
    });
  });
});

describe("a journal found damaged once the kept feed was served (SPEC 12, 17)", () => {
  /** Overwrites the pages of the journal's entries, leaving its meta (its cursor) whole. */
  async function damageEntries(root: string): Promise<void> {
    const file = join(root, ".content-feed", "journal.sqlite");
    const db = new DatabaseSync(file);
    const { rootpage } = db.prepare(
      "SELECT rootpage FROM sqlite_schema WHERE name = 'entries'",
    ).get() as { rootpage: number };
    const { page_size: pageSize } = db.prepare("PRAGMA page_size").get() as { page_size: number };
    db.close();
    const bytes = await readFile(file);
    bytes.fill(0x5a, (rootpage - 1) * pageSize + 8, rootpage * pageSize);
    await writeFile(file, bytes);
  }
  const cursorOf = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)).meta.cursor;

  it("begins again, with its one warning; the derivation cache goes on in the new file", async () => {
    await onSite(async (root) => {
      await settle(root);
      const first = await run(root);
      // The early check passes (the cursor is the meta's), and the damage shows once the
      // entries are read: a new journal, and no warning that the content differs.
      await damageEntries(root);
      const logger = memoryLogger();
      const starting = await startService({
        config: join(root, "services.yaml"),
        logger,
        early: true,
      });
      assert.ok(starting.early, "the cursor in the meta is the kept one");
      assert.deepEqual((await seen(starting.handle)).bytes, first.bytes);
      const { api } = await starting.ready;
      const built = await seen(api.fetch);
      assert.notEqual(cursorOf(built.bytes), cursorOf(first.bytes), "a new journal's cursor");
      api.close();
      assert.equal(logger.warnings().length, 1, logger.warnings().join("\n"));
      assert.match(logger.warnings()[0], /not a journal this version can read.*moved to/);
      // Again with a file changed: the load has a row to write to the cache it opened before
      // the journal was found damaged, and writes it to the new file, for this version.
      await damageEntries(root);
      await appendFile(join(root, "docs/s0/doc-0.md"), "\nEdited.\n");
      const changed = memoryLogger();
      const edited = await startService({
        config: join(root, "services.yaml"),
        logger: changed,
        early: true,
      });
      assert.equal(edited.early, undefined, "a file changed: no kept feed");
      (await edited.ready).api.close(); // the cache's last parts are written at the stop
      assert.equal(changed.warnings().length, 1, changed.warnings().join("\n"));
      assert.match(changed.warnings()[0], /not a journal this version can read.*moved to/);
      // The next start takes the edited file (at least) from the new file's cache, with no
      // warning of a cache of another version; the start after takes every file from it.
      for (const round of ["next", "after"]) {
        const log = memoryLogger();
        const api = await createContentApi({ config: join(root, "services.yaml"), logger: log });
        const { fromCache, files } = api.lastLoad;
        api.close();
        assert.deepEqual(log.warnings(), [], round);
        if (round === "next") assert.ok(fromCache >= 1, `${round}: ${fromCache}`);
        else assert.equal(fromCache, files, round);
      }
    });
  });
});

describe("the kept feed's large answer is handed over a slice at a time (SPEC 17)", () => {
  // A kept feed of some 11,000 bytes in slices of 1,024: what the load waits for before it holds the thread.
  const bytes = new TextEncoder().encode(
    `[${Array.from({ length: 2000 }, (_, i) => (i * 7919) % 100_003).join(",")}]`,
  );
  const gzip = new Uint8Array(gzipSync(bytes));
  const image = {
    type: "application/json; charset=utf-8",
    bytes,
    etag: '"identity-etag"',
    encoded: [{ coding: "gzip", bytes: gzip, etag: '"gzip-etag"' }],
    builtAt: Date.UTC(2026, 0, 2),
  } as unknown as FeedImage;
  // The handler's own behaviour where the runtime sends a stream with its length.
  const settings = {
    cors: true,
    cacheControl: "public, max-age=60",
    tuning: { ...tuningFor(currentRuntime()), streamsKeepLength: true },
  };
  const starting = createStartingHandler(settings, "");
  const url = "http://127.0.0.1/api/content.json";

  it("says when the body was taken whole: not before it is read, at once for HEAD, 304 and small bodies", async () => {
    const told: { sent: boolean }[] = [];
    const handle = createEarlyFeedHandler(image, settings, "", starting, (sent) => {
      const entry = { sent: false };
      told.push(entry);
      void sent.then(() => entry.sent = true);
    }, 1024);
    const identity = await handle(new Request(url, { headers: { "accept-encoding": "identity" } }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(told.length, 1);
    assert.equal(told[0].sent, false, "not read yet: not taken whole");
    assert.equal(identity.headers.get("content-length"), String(bytes.length));
    assert.deepEqual(new Uint8Array(await identity.arrayBuffer()), bytes);
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(told[0].sent, true, "read whole: taken");
    // The same bytes again (the slices are views: nothing was given away), and gzip's.
    const again = await handle(new Request(url, { headers: { "accept-encoding": "identity" } }));
    assert.deepEqual(new Uint8Array(await again.arrayBuffer()), bytes);
    const zipped = await handle(new Request(url, { headers: { "accept-encoding": "gzip" } }));
    assert.equal(zipped.headers.get("etag"), '"gzip-etag"');
    assert.deepEqual(new Uint8Array(await zipped.arrayBuffer()), gzip);
    // A client gone before the end: taken as far as it goes.
    const dropped = await handle(new Request(url, { headers: { "accept-encoding": "identity" } }));
    await dropped.body!.cancel();
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(told.at(-1)!.sent, true, "a cancelled body");
    // No body to wait for.
    for (
      const request of [
        new Request(url, { method: "HEAD" }),
        new Request(url, { headers: { "if-none-match": '"identity-etag"' } }),
      ]
    ) {
      const before: number = told.length;
      const answer = await handle(request);
      await new Promise((resolve) => setTimeout(resolve, 0));
      assert.equal(told.length, before + 1);
      assert.equal(told.at(-1)!.sent, true, `${request.method} ${answer.status}`);
    }
    const small = createEarlyFeedHandler(image, settings, "", starting, (sent) => {
      const entry = { sent: false };
      told.push(entry);
      void sent.then(() => entry.sent = true);
    });
    const whole = await small(new Request(url, { headers: { "accept-encoding": "identity" } }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(told.at(-1)!.sent, true, "the bytes fit one slice of the default 64 KiB");
    assert.deepEqual(new Uint8Array(await whole.arrayBuffer()), bytes);
    // A body of 200,000 bytes in the default slices: at most 64 KiB is handed over at a time,
    // so what the runtime holds when the last is taken is that much (1 MiB slices held a
    // 7.3 MB answer back behind the load).
    const large = { ...image, bytes: new Uint8Array(200_000).fill(0x20), encoded: [] };
    const inDefaultSlices = createEarlyFeedHandler(large, settings, "", starting, (sent) => {
      const entry = { sent: false };
      told.push(entry);
      void sent.then(() => entry.sent = true);
    });
    const sliced = await inDefaultSlices(
      new Request(url, { headers: { "accept-encoding": "identity" } }),
    );
    const reader = sliced.body!.getReader();
    const sizes: number[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      sizes.push(read.value.length);
    }
    assert.deepEqual(sizes, [65_536, 65_536, 65_536, 200_000 - 3 * 65_536]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(told.at(-1)!.sent, true, "taken once the last slice was read");
  });

  it("answers at once with slices of the kept bytes: no copy of the feed is made or held while it loads", async () => {
    let copies = 0;
    class CountedResponse extends Response {
      constructor(body?: BodyInit | null, init?: ResponseInit) {
        super(body, init);
        if (body instanceof Uint8Array) copies++;
      }
    }
    const cloned = {
      ...settings,
      tuning: { ...settings.tuning, cloneResponses: true, Response: CountedResponse },
    };
    const handle = createEarlyFeedHandler(image, cloned, "", starting, () => {}, 1024);
    for (const coding of ["identity", "gzip", "identity", "gzip"]) {
      const answer = handle(new Request(url, { headers: { "accept-encoding": coding } }));
      assert.ok(answer instanceof Response, `${coding}: answered without waiting`);
      assert.deepEqual(
        new Uint8Array(await answer.arrayBuffer()),
        coding === "gzip" ? gzip : bytes,
      );
    }
    const notModified = handle(new Request(url, { headers: { "if-none-match": '"gzip-etag"' } }));
    assert.ok(notModified instanceof Response);
    assert.equal(notModified.status, 304);
    // No Response of the bytes, built to clone or made to be dropped: each answer is slices of them.
    assert.equal(copies, 0);
  });

  it("on the wire: the same status line, headers and bytes as one write, in this runtime's server", async () => {
    // This runtime's own tuning: where it would send a stream chunked, the body goes whole.
    const own = { ...settings, tuning: tuningFor(currentRuntime()) };
    /** When the last answer's body was taken whole, as the handler tells it. */
    let sent: Promise<void> = Promise.resolve();
    const sliced = createEarlyFeedHandler(image, own, "", starting, (taken) => sent = taken, 1024);
    const whole = createEarlyFeedHandler(image, own, "", starting);
    const seenOver = async (handle: Handler, coding: string) => {
      const server = await listen(currentRuntime(), {
        fetch: handle,
        port: 0,
        hostname: "127.0.0.1",
      });
      await server.ready();
      try {
        const response = await fetch(new URL("api/content.json", server.url), {
          headers: { "accept-encoding": coding },
        });
        const headers = [...response.headers].filter(([name]) => name !== "date");
        // A client that asks for identity is given the bytes as they are (fetch decodes gzip).
        const bytes = new Uint8Array(await response.arrayBuffer());
        // Read whole, with the server still up: the runtime took the last slice (a runtime that
        // stopped at its Content-Length would leave every start to wait for its bound). The
        // timer only keeps a failure from hanging the run.
        let guard: ReturnType<typeof setTimeout> | undefined;
        const taken = await Promise.race([
          sent.then(() => true),
          new Promise<false>((resolve) => guard = setTimeout(() => resolve(false), 20_000)),
        ]);
        clearTimeout(guard);
        assert.ok(taken, `${coding}: the last slice was taken`);
        return { status: response.status, headers, bytes };
      } finally {
        await server.close();
      }
    };
    for (const coding of ["identity", "gzip"]) {
      const inSlices = await seenOver(sliced, coding);
      assert.deepEqual(inSlices, await seenOver(whole, coding), coding);
      assert.ok(
        inSlices.headers.some(([name, value]) => name === "content-length" && Number(value) > 1024),
      );
      assert.ok(!inSlices.headers.some(([name]) => name === "transfer-encoding"));
    }
  });
});
