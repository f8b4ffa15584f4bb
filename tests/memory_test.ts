// SPEC 9 "Bounded memory": no sequence of requests grows the server past its
// index plus the response cache's budget plus the requests in flight. The
// server of this test run's runtime serves a site of a few thousand files
// with no base URL configured (so the Host header names it), and is driven
// with 300 distinct spellings of large pages and 100 Host headers.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSite } from "../bench/site.ts";
import { removeSite } from "./helpers.ts";
import { OWN_RUNTIME, RUNTIMES, startServer } from "./server_helpers.ts";

const FILES = 3000;
const BUDGET_MB = 64;
/**
 * What the server may hold beyond its index and the budget, at its peak: the
 * requests in flight (four at a time here, each a page of about 1.5 MB and
 * its gzip), and the garbage the runtime's collector lets pile up between
 * collections, which under this churn (400 large responses in a few
 * seconds, each evicting another) is several times the budget. The figures
 * per runtime, and the server's before the byte budget, are in
 * docs/performance.md.
 */
const SLACK_MB = 6 * BUDGET_MB;

/** Resident memory now and at its peak, in MB (Linux /proc). */
async function memory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** GET with any Host header (fetch may not set one), reading the whole body. */
function get(url: string, path: string, headers: Record<string, string>): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, path, headers }, (response) => {
      response.on("data", () => {});
      response.on("end", () => resolve(response.statusCode!));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("bounded memory (SPEC 9)", () => {
  it(`${OWN_RUNTIME}: 300 distinct large pages and 100 Host headers stay within the budget`, {
    timeout: 120_000,
  }, async () => {
    const root = await mkdtemp(join(tmpdir(), "content-feed-memory-"));
    await generateSite(root, FILES, 3);
    // No url: each Host header names a base URL of its own (SPEC 2.1).
    await writeFile(
      join(root, "services.yaml"),
      "parameters:\n  service.content.config:\n    plugins: { academy: ~, blog: ~, docs: ~, faq: ~, pages: ~, api: ~ }\n",
    );
    const server = await startServer(RUNTIMES[OWN_RUNTIME]("main.ts"), {
      CONTENT_CONFIG: join(root, "services.yaml"),
      BASE_URL: "",
    });
    const pid = server.process.pid!;
    try {
      const host = new URL(server.url).host;
      const plain = { host };
      const gzip = { host, "accept-encoding": "gzip" };
      // The index's own costs first: the full feed in both encodings, a page, a first search.
      for (
        const path of [
          "/api/content.json",
          "/api/content.json?limit=5",
          "/api/content.json?search=lorem",
        ]
      ) {
        assert.equal(await get(server.url, path, plain), 200);
        assert.equal(await get(server.url, path, gzip), 200);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = await memory(pid);

      const total: number = await new Promise((resolve, reject) => {
        http.get(`${server.url}/api/content.json?limit=1`, { headers: plain }, (response) => {
          let text = "";
          response.on("data", (chunk) => text += chunk);
          response.on("end", () => resolve(JSON.parse(text).meta.total));
        }).on("error", reject);
      });
      const paths: string[] = [];
      // 150 answers that differ (each all but a few items: about 1.5 MB), then 150
      // spellings of the one full feed, which must not cost 150 copies of it.
      for (let i = 1; i <= 150; i++) paths.push(`/api/content.json?limit=${total - i}`);
      for (let i = 1; i <= 100; i++) paths.push(`/api/content.json?limit=${"0".repeat(i)}10000`);
      for (let i = 1; i <= 50; i++) {
        paths.push(`/api/content.json?search=${"%20".repeat(i)}&limit=${9000 + i}`);
      }
      assert.equal(new Set(paths).size, 300);
      const jobs: (() => Promise<number>)[] = paths.map((path, i) => () =>
        get(server.url, path, i % 2 ? gzip : plain)
      );
      for (let i = 0; i < 100; i++) {
        jobs.push(() => get(server.url, "/api/content.json", { host: `h${i}.example` }));
      }
      let next = 0;
      const statuses = new Set<number>();
      await Promise.all(Array.from({ length: 4 }, async () => {
        while (next < jobs.length) statuses.add(await jobs[next++]());
      }));
      assert.deepEqual([...statuses], [200]);
      const after = await memory(pid);
      const grown = after.peak - before.rss;
      console.log(
        `${OWN_RUNTIME}: resident ${before.rss.toFixed(0)} MB after warming up, peak ${
          after.peak.toFixed(0)
        } MB during ${jobs.length} requests (+${
          grown.toFixed(0)
        } MB; budget ${BUDGET_MB} + slack ${SLACK_MB})`,
      );
      assert.ok(
        grown <= BUDGET_MB + SLACK_MB,
        `the server grew by ${grown.toFixed(0)} MB, past ${BUDGET_MB} + ${SLACK_MB} MB`,
      );
    } finally {
      await server.stop();
      await removeSite(root);
    }
  });

  it(
    `${OWN_RUNTIME}: 100 clients that never read, asking at once for one large answer not made yet`,
    {
      timeout: 180_000,
    },
    async () => {
      const root = await mkdtemp(join(tmpdir(), "content-feed-memory-"));
      await generateSite(root, 2000, 3);
      await writeFile(
        join(root, "services.yaml"),
        "parameters:\n  service.content.config:\n    url: http://feed.test\n    plugins: { academy: ~, blog: ~, docs: ~, faq: ~, pages: ~, api: ~ }\n",
      );
      const server = await startServer(RUNTIMES[OWN_RUNTIME]("main.ts"), {
        CONTENT_CONFIG: join(root, "services.yaml"),
      });
      const pid = server.process.pid!;
      const sockets: net.Socket[] = [];
      try {
        // Warm: the full feed, so that what grows below is the one answer and its clients.
        assert.equal(await get(server.url, "/api/content.json?limit=1", {}), 200);
        await new Promise((resolve) => setTimeout(resolve, 500));
        const before = await memory(pid);
        // About 36 MB: every body, text and sections, which nobody asked for before.
        const path = "/api/content.json?include=body,text,sections&limit=10000";
        const { port } = new URL(server.url);
        let answered = 0;
        await new Promise<void>((resolve, reject) => {
          for (let i = 0; i < 100; i++) {
            const socket = net.connect(Number(port), "127.0.0.1", () =>
              socket.write(
                `GET ${path} HTTP/1.1\r\nHost: feed.test\r\n${
                  i % 2 ? "Accept-Encoding: gzip\r\n" : ""
                }\r\n`,
              ));
            // The first bytes of the answer, then nothing more is read.
            socket.once("data", () => {
              socket.pause();
              if (++answered === 100) resolve();
            });
            socket.on("error", reject);
            sockets.push(socket);
          }
        });
        const during = await memory(pid);
        // A small request is still answered while they hold their answers.
        assert.equal(await get(server.url, "/api/content.json?limit=1", {}), 200);
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => setTimeout(resolve, 2000));
        const after = await memory(pid);
        console.log(
          `${OWN_RUNTIME}: resident ${before.rss.toFixed(0)} MB before, peak ${
            during.peak.toFixed(0)
          } MB with 100 clients holding a large answer, ${after.rss.toFixed(0)} MB after they left`,
        );
        const grown = during.peak - before.rss;
        assert.ok(grown <= 300, `the server grew by ${grown.toFixed(0)} MB, past 300 MB`);
        const kept = after.rss - before.rss;
        assert.ok(kept <= 300, `the server kept ${kept.toFixed(0)} MB after the clients left`);
      } finally {
        for (const socket of sockets) socket.destroy();
        await server.stop();
        await removeSite(root);
      }
    },
  );
});
