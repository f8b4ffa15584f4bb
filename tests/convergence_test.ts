// SPEC 10 "Convergence", differentially: random file and folder operations
// against a live server under each runtime; within 2 seconds of the last
// one, its feed equals what a fresh start on the same files serves.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { cleanChaos, comparable, runChaos } from "../bench/chaos_ops.ts";
import { createContentApi } from "../mod.ts";
import {
  configFor,
  git,
  HAS_GIT,
  LONG,
  md,
  memoryLogger,
  removeSite,
  writeSite,
} from "./helpers.ts";
import { OWN_RUNTIME, RUNTIMES, startServer } from "./server_helpers.ts";

/** Operations per run: counted, not timed (about 3 s of them on an idle machine). */
const CHAOS_OPERATIONS = 200;
const WITHIN_MS = 2000;

async function freshFeed(config: string): Promise<string> {
  const api = await createContentApi({ config, logger: memoryLogger() });
  try {
    const response = await api.fetch(new Request("http://localhost/api/content.json"));
    return comparable(await response.text());
  } finally {
    api.close();
  }
}

/**
 * A feed without its journal's position: a fresh start beside the live
 * server keeps a journal of its own (one server writes a journal), so its
 * cursor is its own; the journal is compared once the live server stopped.
 */
const content = (feed: string) => feed.replace(/"cursor":"[^"]*"/, '"cursor":"…"');

describe("convergence after random file and folder operations (SPEC 10)", () => {
  // Each runtime's test run starts its own runtime's server (200 operations each).
  for (const runtime of [OWN_RUNTIME]) {
    const command = RUNTIMES[runtime];
    const runSeed = Object.keys(RUNTIMES).indexOf(runtime) + 1;
    it(
      `${runtime}: the live feed equals a fresh start's within 2 s`,
      { timeout: 60_000 },
      async () => {
        const root = await writeSite({
          "services.yaml": configFor(["docs", "faq", "blog", "api"], "https://example.com"),
          "docs/guide.md": md({ title: "Guide" }, LONG),
          "docs/guide/start.md": md({ title: "Start" }, LONG),
          "faq/why.md": md({ title: "Why" }, LONG),
          "blog/2026-01-01-hello.md": md({ title: "Hello" }, LONG),
        });
        const config = join(root, "services.yaml");
        const server = await startServer(command("main.ts"), { CONTENT_CONFIG: config });
        try {
          const report = await runChaos(root, Infinity, {
            seed: runSeed,
            operations: CHAOS_OPERATIONS,
          });
          const stopped = Date.now();
          const fresh = await freshFeed(config);
          let live = "";
          while (Date.now() - stopped < WITHIN_MS) {
            live = comparable(await (await fetch(`${server.url}/api/content.json`)).text());
            if (content(live) === content(fresh)) break;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          const ids = (feed: string) =>
            JSON.parse(feed).data.map((item: { id: string; checksum: string }) =>
              `${item.id} ${item.checksum.slice(0, 8)}`
            );
          assert.deepEqual(
            ids(live),
            ids(fresh),
            `after ${report.operations} operations ${JSON.stringify(report.kinds)}`,
          );
          assert.equal(content(live), content(fresh));
          assert.equal(report.operations, CHAOS_OPERATIONS);
          // The live server's journal holds every change: a start on it once the server
          // stopped finds nothing to record, and serves the same feed, cursor and all.
          await server.stop();
          assert.equal(await freshFeed(config), live);
        } finally {
          await server.stop();
          await removeSite(root);
          await cleanChaos(root);
        }
      },
    );
  }
});

describe("convergence after a commit (SPEC 4, 10)", () => {
  // Issue 24, item 6: a commit changes no content file, yet it changes the
  // dates a fresh start serves. The deadline only bounds the test: the
  // periodic re-listing (60 s) is far beyond it, so only watching git passes.
  const DEADLINE_MS = 10_000;
  for (const runtime of [OWN_RUNTIME]) {
    it(
      `${runtime}: a dirty file committed shows the commit's date in the feed and the sitemap`,
      { timeout: 60_000 },
      async (t) => {
        if (!HAS_GIT) return t.skip("no git here");
        const top = await writeSite({
          "site/services.yaml": configFor(["docs", "api", "sitemap"], "https://example.com"),
          "site/docs/a.md": md({ title: "A" }, LONG),
        });
        git(top, ["init", "-q"]);
        git(top, ["add", "."]);
        git(top, ["commit", "-qm", "one"], "2020-01-02T10:00:00Z");
        const config = join(top, "site/services.yaml");
        const server = await startServer(RUNTIMES[runtime]("main.ts"), { CONTENT_CONFIG: config });
        const dates = async () => {
          const feed = await (await fetch(`${server.url}/api/content.json`)).json();
          const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
          return [feed.data[0]?.last_update, /<lastmod>([^<]*)<\/lastmod>/.exec(sitemap)?.[1]];
        };
        const until = async (expected: string[]) => {
          const start = Date.now();
          let seen = await dates();
          while (Date.now() - start < DEADLINE_MS && seen.join() !== expected.join()) {
            await new Promise((resolve) => setTimeout(resolve, 50));
            seen = await dates();
          }
          return seen;
        };
        try {
          assert.deepEqual(await dates(), ["2020-01-02", "2020-01-02"]);
          await appendFile(join(top, "site/docs/a.md"), " More.");
          const today = new Date().toISOString().slice(0, 10);
          assert.deepEqual(await until([today, today]), [today, today]);
          git(top, ["commit", "-qam", "two"], "2021-06-07T10:00:00Z");
          assert.deepEqual(await until(["2021-06-07", "2021-06-07"]), ["2021-06-07", "2021-06-07"]);
          const live = comparable(await (await fetch(`${server.url}/api/content.json`)).text());
          await server.stop(); // a fresh start shares its journal's database
          assert.equal(live, await freshFeed(config));
        } finally {
          await server.stop();
          await removeSite(top);
        }
      },
    );
  }
});
