// `deno task load`: load under change (issue 4). Starts the server under a
// runtime (default Deno) on a generated site, drives it with concurrent
// clients (autocannon) for a bounded time while files are added, edited and
// removed, and reports requests, errors and latency percentiles. Exits 1 when
// any request failed. Targets 127.0.0.1 only.
// Usage: deno task load [--runtime deno|bun|node] [--files 2000] [--seconds 10] [--connections 32]
import autocannon from "autocannon";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { parseArgs, runtimeCommand, startServer, stopServer } from "./servers.ts";
import { generateSite } from "./site.ts";

const args = parseArgs();
const runtime = args.get("runtime") ?? "deno";
const fileCount = Number(args.get("files") ?? 2000);
const seconds = Number(args.get("seconds") ?? 10);
const connections = Number(args.get("connections") ?? 32);

const site = await mkdtemp(join(tmpdir(), "content-feed-load-"));
const paths = await generateSite(site, fileCount, 7);
const server = await startServer(runtimeCommand(runtime, "main.ts"), {
  CONTENT_CONFIG: join(site, "services.yaml"),
});
const url = server.url;

// The mutator: every 20 ms add, edit or remove a file, for the whole run.
let mutations = 0;
let running = true;
const docs = paths.filter((p) => p.startsWith("docs/section-0/"));
const mutator = (async () => {
  for (let i = 0; running; i++) {
    const kind = i % 3;
    const path = join(site, `docs/section-0/live-${i % 50}.md`);
    if (kind === 0) {
      await writeFile(path, `---\ntitle: Live ${i}\n---\n${"Fresh words here. ".repeat(20)}\n`);
    } else if (kind === 1) {
      await writeFile(
        join(site, docs[i % docs.length]),
        `---\ntitle: Edited ${i}\n---\n${"Edited text. ".repeat(20)}\n`,
      );
    } else await rm(path, { force: true });
    mutations++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
})();

const feed = await (await fetch(`${url}/api/content.json?limit=50`)).json();
const itemPaths = feed.data.map((item: { link: string }) => new URL(item.link).pathname);
const requests = [
  { path: "/api/content.json" },
  { path: "/api/content.json?type=docs&limit=20&page=2" },
  { path: "/api/content.json?tag=topic-3&year=2024" },
  ...itemPaths.slice(0, 10).map((path: string) => ({ path })),
  { path: "/sitemap.xml" },
];
const result = await autocannon({
  url,
  connections,
  duration: seconds,
  requests,
  headers: { "accept-encoding": "gzip" },
});
running = false;
await mutator;
await stopServer(server);
await rm(site, { recursive: true, force: true });

const failed = result.errors + result.timeouts + result.non2xx;
console.log(
  `load under change: ${runtime}, ${fileCount} files, ${connections} connections, ${seconds} s, ${mutations} file changes`,
);
console.log(
  `requests ${result.requests.total}  (${
    Math.round(result.requests.average)
  }/s)  errors ${result.errors}  timeouts ${result.timeouts}  non-2xx ${result.non2xx}`,
);
console.log(
  `latency ms  p50 ${result.latency.p50}  p90 ${result.latency.p90}  p99 ${result.latency.p99}  max ${result.latency.max}`,
);
if (server.stderr().includes("error")) console.log(`server stderr:\n${server.stderr()}`);
process.exit(failed === 0 ? 0 : 1);
