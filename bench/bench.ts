// `deno task bench`: measures the feed against baselines side by side, in one
// run, on seeded synthetic sites, and prints ratios (never single absolute
// times as the result). The servers run under one runtime (default Deno); the
// load generator (autocannon) runs in this Node process, on 127.0.0.1 only.
// Usage: deno task bench [--runtime deno|bun|node] [--sizes 1000,10000,100000] [--seconds 5]
import autocannon from "autocannon";
import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  parseArgs,
  runProcess,
  runtimeCommand,
  startServer as start,
  stopServer as stop,
} from "./servers.ts";
import { generateSite } from "./site.ts";

const args = parseArgs();
const runtime = args.get("runtime") ?? "deno";
const sizes = (args.get("sizes") ?? "1000,10000,100000").split(",").map(Number);
const seconds = Number(args.get("seconds") ?? 5);
const repeats = Number(args.get("repeats") ?? 3);
const command = (script: string, ...rest: string[]) => runtimeCommand(runtime, script, ...rest);

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function rps(
  url: string,
  headers: Record<string, string> = {},
  connections = 16,
): Promise<number> {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  if (result.errors + result.timeouts + result.non2xx > 0 && !headers["if-none-match"]) {
    throw new Error(`failed requests against ${url}`);
  }
  return result.requests.average;
}

/** Peak resident memory of a process in bytes (Linux /proc). */
async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

const rows: string[][] = [];
const row = (...cells: (string | number)[]) => rows.push(cells.map(String));
const fmt = (n: number, digits = 2) => n.toFixed(digits);

for (const size of sizes) {
  const site = await mkdtemp(join(tmpdir(), `content-feed-bench-${size}-`));
  const scratch = await mkdtemp(join(tmpdir(), "content-feed-bench-bytes-"));
  try {
    const paths = await generateSite(site, size, 42);
    const config = join(site, "services.yaml");
    const env = { CONTENT_CONFIG: config };

    // 1. Cold start: process start to the first full feed response, against the I/O floor.
    const floor: number[] = [];
    const cold: number[] = [];
    for (let i = 0; i < repeats; i++) {
      floor.push((await runProcess(command("bench/floor.ts", site))).ms);
      const t0 = performance.now();
      const server = await start(command("main.ts"), env);
      await (await fetch(`${server.url}/api/content.json`)).arrayBuffer();
      cold.push(performance.now() - t0);
      await stop(server);
    }
    row(
      size,
      "cold start ÷ I/O floor (read + SHA-256 every file)",
      fmt(median(cold) / median(floor)),
      "≤ 2.5",
    );

    // 2–4. Warm throughput against fixed bytes of the same size, in the same runtime.
    const server = await start(command("main.ts"), env);
    const feedUrl = `${server.url}/api/content.json`;
    const feedResponse = await fetch(feedUrl);
    const feedBytes = new Uint8Array(await feedResponse.arrayBuffer());
    const etag = feedResponse.headers.get("etag")!;
    const items = JSON.parse(new TextDecoder().decode(feedBytes)).meta.count as number;
    const tag = "topic-3";
    const pageUrl = `${server.url}/api/content.json?type=docs&tag=${tag}&limit=20&page=2`;
    const pageBytes = new Uint8Array(await (await fetch(pageUrl)).arrayBuffer());
    await writeFile(join(scratch, "feed.json"), feedBytes);
    await writeFile(join(scratch, "page.json"), pageBytes);
    const fixedFeed = await start(command("bench/fixed_server.ts", join(scratch, "feed.json")));
    const fixedPage = await start(command("bench/fixed_server.ts", join(scratch, "page.json")));

    // Tens of megabytes a response: a few connections, or the load generator is the bottleneck.
    const big = feedBytes.length > 8e6 ? 2 : 16;
    const feedRps = await rps(feedUrl, {}, big);
    const fixedFeedRps = await rps(fixedFeed.url, {}, big);
    row(
      size,
      `full feed (${(feedBytes.length / 1e6).toFixed(1)} MB) ÷ fixed bytes`,
      fmt(feedRps / fixedFeedRps),
      "≥ 0.85",
    );
    const pageRps = await rps(pageUrl);
    const fixedPageRps = await rps(fixedPage.url);
    row(
      size,
      "filtered page (type+tag+limit+page) ÷ fixed bytes",
      fmt(pageRps / fixedPageRps),
      "≥ 0.6",
    );
    const notModifiedRps = await rps(feedUrl, { "if-none-match": etag });
    const fixed304Rps = await rps(fixedFeed.url, { "if-none-match": '"fixed"' });
    row(size, "304 revalidation ÷ fixed 304", fmt(notModifiedRps / fixed304Rps), "≥ 0.8");

    // 5. Peak memory beyond a server that only holds the feed bytes, per item.
    const extra = (await peakRss(server.child.pid!)) - (await peakRss(fixedFeed.child.pid!));
    row(
      size,
      "peak memory beyond the fixed-bytes server, KB per item",
      fmt(extra / items / 1024, 1),
      "≤ 10",
    );
    await Promise.all([stop(server), stop(fixedFeed), stop(fixedPage)]);

    // 6. Re-index after one file changes, against the cold build (in one process).
    const touched = join(site, paths.find((p) => p.startsWith("docs/"))!);
    await appendFile(touched, "\n");
    const { stdout } = await runProcess(command("bench/reindex.ts", config, touched));
    const { cold: build, reindex } = JSON.parse(stdout);
    row(
      size,
      "re-index after one file changed ÷ cold build",
      `${fmt((100 * reindex) / build, 1)}%`,
      "≤ 5%",
    );
  } finally {
    await rm(site, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  }
}

const header = [
  "files",
  "measure (feed ÷ baseline, same runtime, one run)",
  "ratio",
  "target (10k)",
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
console.log(
  `\ncontent-feed benchmark · servers under ${runtime} · ${seconds} s per load run · median of ${repeats} cold starts`,
);
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const r of rows) console.log(line(r));
