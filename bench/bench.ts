// `deno task bench`: measures the feed against baselines side by side, in one
// run, on seeded synthetic sites, and prints ratios (never single absolute
// times as the result). The servers run under one runtime (default Deno); the
// load generator (wrk when installed, else autocannon in this Node process)
// targets 127.0.0.1 only.
// Usage: deno task bench [--runtime deno|bun|node] [--sizes 1000,10000,100000] [--seconds 5] [--repeats 3]
//        [--only cold|start|build|serve] [--compare <git ref>] [--markup 0.5]
// --only cold: the cold-start rows only (the static build's row among them).
// --only build: the static build's row only (bench/build.ts, issue 28).
// --only serve: the throughput rows of the feed, a filtered page and a 304
// (sections 2–4, against the fixed-bytes and the bare servers) only.
// --only start: section 9 only (issue 27): on a site that is a git
// repository of one commit per file, first starts (git dates on, and
// `git: false`), restarts with nothing changed
// and after 1% of the files changed and were committed, each against the
// I/O floor; an edit's time from the write to being served, with and
// without its commit; peak memory per item; the content files opened and
// the git processes started (strace, Linux); re-index CPU against the cold
// build's (bench/starts.ts). By default every section runs, section 9 first
// at each size. --compare: also cold starts of the project at that commit
// (checked out into a temporary worktree), on the same site, interleaved:
// the before and after of a change. --markup: the share of bodies with the
// markup of real documentation (0: plain prose only).
// The cold-start rows include the same number of files as a Docusaurus site
// (3 versions × 2 locales) against those files as a plain site (SPEC 16.3).
// The throughput rows compare the feed with two baselines: the fixed-bytes
// server (srvx, the feed's own headers: what the feed spends beyond its
// bytes) and the bare one (`Deno.serve` alone, `content-type` only, a bare
// 304 to any If-None-Match: what it spends beyond the runtime's HTTP server).
import autocannon from "autocannon";
import { spawnSync } from "node:child_process";
import { appendFile, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import {
  cpuTicks,
  headersOf,
  parseArgs,
  peakRss,
  root,
  runProcess,
  runtimeCommand,
  type Started,
  startServer as start,
  stopServer as stop,
} from "./servers.ts";
import { CONFIG, generateSite, generateVariantSites } from "./site.ts";
import { startRows } from "./starts.ts";
import { buildRows } from "./build.ts";

const args = parseArgs();
const runtime = args.get("runtime") ?? "deno";
const sizes = (args.get("sizes") ?? "1000,10000,100000").split(",").map(Number);
const seconds = Number(args.get("seconds") ?? 5);
const repeats = Number(args.get("repeats") ?? 3);
const only = args.get("only");
if (
  only !== undefined && only !== "cold" && only !== "start" && only !== "build" &&
  only !== "serve"
) {
  throw new Error(`--only ${only}: use cold, start, build or serve`);
}
const coldOnly = only === "cold";
const serveOnly = only === "serve";
const markupShare = Number(args.get("markup") ?? 0.5);
const compareRef = args.get("compare");
const command = (script: string, ...rest: string[]) => runtimeCommand(runtime, script, ...rest);

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// wrk (Debian's package) when it is on the PATH: it is written in C and keeps
// up with the servers on 2 cores; autocannon otherwise, which runs on Node
// and can be the bottleneck for small responses.
const wrk = spawnSync("wrk", ["--version"]).error === undefined;
const hasGit = spawnSync("git", ["--version"]).error === undefined;
/** A committer for the bench's repositories, whatever the machine's git config. */
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
};

/** One load run: requests per second and how many requests were answered. */
interface Run {
  readonly rps: number;
  readonly requests: number;
}

/** A load run against a URL, with the load generator of this run. */
async function load(
  url: string,
  headers: Record<string, string>,
  connections: number,
  duration = seconds,
  post?: string,
): Promise<Run> {
  if (post !== undefined) {
    // A POST body (the MCP server's): autocannon sends it (wrk would need a script).
    const result = await autocannon({
      url,
      connections,
      duration,
      headers,
      method: "POST",
      body: post,
    });
    if (result.errors + result.timeouts + result.non2xx > 0) {
      throw new Error(`failed requests against ${url}`);
    }
    return { rps: result.requests.average, requests: result.requests.total };
  }
  if (wrk) {
    // wrk's own timeout is 2 s: 16 connections each asking for a 7 MB feed of a server that
    // writes them in turn (the bare one) wait longer than that, and are not failures.
    const args = ["-t1", `-c${connections}`, `-d${duration}s`, "--timeout", "20s"];
    for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
    const out = spawnSync("wrk", [...args, url], { encoding: "utf8" }).stdout;
    if (/Socket errors|Non-2xx or 3xx/.test(out)) {
      throw new Error(`failed requests against ${url}:\n${out}`);
    }
    return {
      rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]),
      requests: Number(/(\d+) requests in/.exec(out)![1]),
    };
  }
  const result = await autocannon({ url, connections, duration, headers });
  if (result.errors + result.timeouts + result.non2xx > 0 && !headers["if-none-match"]) {
    throw new Error(`failed requests against ${url}`);
  }
  return { rps: result.requests.average, requests: result.requests.total };
}

/** A load run, and the server's CPU ticks per request during it. */
async function measured(
  server: Started,
  url: string,
  headers: Record<string, string>,
  connections: number,
  post?: string,
): Promise<Run & { cpu: number }> {
  const before = await cpuTicks(server.child.pid!);
  const run = await load(url, headers, connections, seconds, post);
  return { ...run, cpu: ((await cpuTicks(server.child.pid!)) - before) / run.requests };
}

/**
 * The feed's throughput over the baseline's: `repeats` rounds, each running
 * the two back to back, and the median of the rounds' ratios, so a slow
 * patch of the machine lands on both sides of one ratio. Rounds alternate
 * which of the two runs first, so neither always runs on a warmer machine.
 * Also the median ratio of the servers' CPU time per request (feed ÷
 * baseline), which depends less on how the load generator and the server
 * share the two cores than throughput does.
 */
async function compare(
  ours: Started,
  oursUrl: string,
  fixed: Started,
  headers: Record<string, string> = {},
  connections = 16,
): Promise<{ throughput: number; cpu: number }> {
  const throughput: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const run = (server: Started, url: string) => measured(server, url, headers, connections);
    let feed, baseline;
    if (i % 2 === 0) {
      feed = await run(ours, oursUrl);
      baseline = await run(fixed, fixed.url);
    } else {
      baseline = await run(fixed, fixed.url);
      feed = await run(ours, oursUrl);
    }
    throughput.push(feed.rps / baseline.rps);
    cpu.push(feed.cpu / baseline.cpu);
  }
  return { throughput: median(throughput), cpu: median(cpu) };
}

// The project at another commit, for --compare: a detached worktree that
// shares this checkout's node_modules.
let compareTree: string | undefined;
if (compareRef) {
  compareTree = await mkdtemp(join(tmpdir(), "content-feed-compare-"));
  const added = spawnSync("git", ["worktree", "add", "-q", "--detach", compareTree, compareRef], {
    cwd: root,
    encoding: "utf8",
  });
  if (added.status !== 0) throw new Error(`git worktree add ${compareRef}: ${added.stderr}`);
  await symlink(join(root, "node_modules"), join(compareTree, "node_modules"));
  process.on("exit", () => {
    spawnSync("git", ["worktree", "remove", "--force", compareTree!], { cwd: root });
  });
}
/** Whether the commit compared with has the MCP output (a config naming it fails where it has not). */
const compareKnowsMcp = compareTree !== undefined &&
  /\bmcp\b/.test(
    await readFile(join(compareTree, "src/config/validate.ts"), "utf8").catch(() => ""),
  );

const rows: string[][] = [];
const row = (size: number, measure: string, ratio: string, target: string, cpu = "") =>
  rows.push([String(size), measure, ratio, target, cpu]);
const fmt = (n: number, digits = 2) => n.toFixed(digits);

for (const size of sizes) {
  // 9. Starts and changes on a git site of one commit per file (issue 27): bench/starts.ts.
  if (!coldOnly && only !== "build" && !serveOnly) {
    if (hasGit) {
      await startRows({
        size,
        repeats,
        seconds,
        markupShare,
        command,
        row: (measure, value, target, cpu) => row(size, measure, value, target, cpu),
        load: (url, headers, connections, duration) => load(url, headers, connections, duration),
      });
    } else console.error("no git on the PATH: section 9 (starts on a git site) is left out");
  }
  if (only === "start") continue;
  const buildRow = (site: string) =>
    buildRows({
      size,
      repeats,
      site,
      command,
      row: (measure, value, target) => row(size, measure, value, target),
    });
  if (only === "build") {
    const site = await mkdtemp(join(tmpdir(), `content-feed-bench-${size}-`));
    try {
      await generateSite(site, size, 42, markupShare);
      await buildRow(site);
    } finally {
      await rm(site, { recursive: true, force: true });
    }
    continue;
  }
  const site = await mkdtemp(join(tmpdir(), `content-feed-bench-${size}-`));
  const scratch = await mkdtemp(join(tmpdir(), "content-feed-bench-bytes-"));
  try {
    const paths = await generateSite(site, size, 42, markupShare);
    const config = join(site, "services.yaml");
    const env = { CONTENT_CONFIG: config };

    const floor: number[] = [];
    if (!serveOnly) {
      // 1. Cold start: process start to the first full feed response, against the I/O floor.
      // Each is a first start: the journal's state folder is removed before it.
      /** One side's starts: this tree's, or the commit compared with. */
      const startsOf = () => ({
        cold: [] as number[],
        cpu: [] as number[],
        peak: [] as number[],
        restarted: [] as number[],
      });
      const now = startsOf();
      const before = startsOf();
      const state = join(site, ".content-feed");
      // The commit compared with may not know the outputs added since (mcp): its
      // config leaves them out then, the content and its state folder are the same.
      const compareConfig = join(site, "services-compare.yaml");
      await writeFile(compareConfig, compareKnowsMcp ? CONFIG : CONFIG.replace(", mcp: ~", ""));
      // A start's time, and with `cpu` the CPU time the server used (all its threads) to its
      // first response, which depends less than time on what else the machine does.
      const coldStart = async (
        config: string,
        { cwd, peak, cpu }: { cwd?: string; peak?: number[]; cpu?: number[] } = {},
      ) => {
        const t0 = performance.now();
        const server = await start(command("main.ts"), { CONTENT_CONFIG: config }, cwd);
        await (await fetch(`${server.url}/api/content.json`)).arrayBuffer();
        const ms = performance.now() - t0;
        cpu?.push(await cpuTicks(server.child.pid!));
        peak?.push(await peakRss(server.child.pid!));
        await stop(server);
        return ms;
      };
      // What a restart after offline edits meets: 100 files changed since the journal's last record.
      let edits = 0;
      const editOffline = async () => {
        edits++;
        for (const path of paths.slice(0, 100)) {
          await appendFile(join(site, path), `\nEdited offline, round ${edits}.\n`);
        }
      };
      // With --compare, rounds alternate which side starts first; each side's
      // restart meets the journal its own first start wrote.
      const sides = [
        { starts: now, config, cwd: undefined as string | undefined },
        ...(compareTree ? [{ starts: before, config: compareConfig, cwd: compareTree }] : []),
      ];
      for (let i = 0; i < repeats; i++) {
        floor.push((await runProcess(command("bench/floor.ts", site))).ms);
        for (const { starts, config, cwd } of i % 2 === 0 ? sides : [...sides].reverse()) {
          await rm(state, { recursive: true, force: true });
          starts.cold.push(await coldStart(config, { cwd, peak: starts.peak, cpu: starts.cpu }));
          if (compareTree) {
            // The journal of the start above is there; the edits make 100 changes for it to record.
            await editOffline();
            starts.restarted.push(await coldStart(config, { cwd }));
          }
        }
      }
      await rm(state, { recursive: true, force: true });
      row(
        size,
        "cold start ÷ I/O floor (read + SHA-256 every file)",
        fmt(median(now.cold) / median(floor)),
        "≤ 2.5",
      );
      if (compareTree) {
        row(
          size,
          `cold start ÷ the same at ${compareRef}`,
          fmt(median(now.cold) / median(before.cold)),
          "",
          fmt(median(now.cpu) / median(before.cpu)),
        );
        row(
          size,
          `restart after 100 offline changes ÷ the same at ${compareRef}`,
          fmt(median(now.restarted) / median(before.restarted)),
          "≤ 1.1",
        );
        row(
          size,
          `peak memory after start, KB per item more than at ${compareRef}`,
          fmt((median(now.peak) - median(before.peak)) / size / 1024, 2),
          "≤ 1",
        );
      }
      // 1b. Git dates (SPEC 4): the same site committed to a repository, cold
      // starts with git dates against `git: false`, interleaved.
      if (hasGit) {
        const git = (...args: string[]) =>
          spawnSync("git", ["-C", site, ...args], { env: GIT_ENV, stdio: "ignore" });
        git("init", "-q");
        git("add", ".");
        git("commit", "-qm", "site");
        const noGit = join(site, "services-no-git.yaml");
        await writeFile(noGit, CONFIG.replace("  service.content.config:\n", "$&    git: false\n"));
        const withDates: number[] = [];
        const without: number[] = [];
        for (let i = 0; i < repeats; i++) {
          withDates.push(await coldStart(config));
          without.push(await coldStart(noGit));
        }
        row(
          size,
          `cold start with git dates ÷ without (${size} committed files)`,
          fmt(median(withDates) / median(without)),
          "≤ 1.3",
        );
        await rm(join(site, ".git"), { recursive: true, force: true });
        await rm(noGit);
      }
      // 1c. Fidelity to the site generator (SPEC 16.3): the same number of files
      // as a Docusaurus site of 3 versions × 2 locales of the same pages, against
      // the same files (same bytes) laid out as a plain site, interleaved, each a
      // first start. The ratio is what the generator's rules and the variants cost.
      const variantSites = await mkdtemp(join(tmpdir(), `content-feed-bench-variants-${size}-`));
      try {
        const plainSite = join(variantSites, "plain");
        const docusaurusSite = join(variantSites, "docusaurus");
        await generateVariantSites(plainSite, docusaurusSite, size, 42, markupShare);
        const asDocusaurus = { ms: [] as number[], cpu: [] as number[] };
        const asPlain = { ms: [] as number[], cpu: [] as number[] };
        const firstStart = async (folder: string, into: typeof asPlain) => {
          await rm(join(folder, ".content-feed"), { recursive: true, force: true });
          into.ms.push(await coldStart(join(folder, "services.yaml"), { cpu: into.cpu }));
        };
        for (let i = 0; i < repeats; i++) {
          if (i % 2 === 0) {
            await firstStart(docusaurusSite, asDocusaurus);
            await firstStart(plainSite, asPlain);
          } else {
            await firstStart(plainSite, asPlain);
            await firstStart(docusaurusSite, asDocusaurus);
          }
        }
        const pages = Math.floor(size / 6);
        row(
          size,
          `cold start, generator: docusaurus, 3 versions × 2 locales of ${pages} pages ÷ ` +
            `the same ${pages * 6} files as a plain site`,
          fmt(median(asDocusaurus.ms) / median(asPlain.ms)),
          "≤ 1.15",
          fmt(median(asDocusaurus.cpu) / median(asPlain.cpu)),
        );
      } finally {
        await rm(variantSites, { recursive: true, force: true });
      }

      // 1d. The static build (issue 28): bench/build.ts.
      await buildRow(site);
    }
    if (coldOnly) continue;

    // 2–4. Warm throughput against fixed bytes (and the same headers), same runtime.
    const server = await start(command("main.ts"), env);
    const feedUrl = `${server.url}/api/content.json`;
    const tag = "topic-3";
    const pageUrl = `${server.url}/api/content.json?type=docs&tag=${tag}&limit=20&page=2`;
    // The requests a server answers first, the same for the feed and its
    // baseline, so both peaks include answering them: the identity bytes
    // (what wrk asks for), the gzip a fetch client asks for, and a 304.
    const firstRequests = async (url: string) => {
      const response = await fetch(url, { headers: { "accept-encoding": "identity" } });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const etag = response.headers.get("etag")!;
      await (await fetch(url)).arrayBuffer();
      const notModified = await fetch(url, {
        headers: { "accept-encoding": "identity", "if-none-match": etag },
      });
      await notModified.arrayBuffer();
      return { response, bytes, etag, notModified };
    };
    // The fixed-bytes server of a response, and (unless `withBare` is false) the bare one
    // (bench/bare_server.ts: `Deno.serve` alone, whatever the runtime of the bench).
    const fixedFor = async (url: string, withBare = true) => {
      const { response, bytes, etag, notModified } = await firstRequests(url);
      const name = `${rows.length}-${Math.random().toString(36).slice(2)}`;
      await writeFile(join(scratch, `${name}.body`), bytes);
      await writeFile(
        join(scratch, `${name}.json`),
        JSON.stringify({ ok: headersOf(response), notModified: headersOf(notModified) }),
      );
      const fixed = await start(
        command(
          "bench/fixed_server.ts",
          join(scratch, `${name}.body`),
          join(scratch, `${name}.json`),
        ),
      );
      await firstRequests(fixed.url);
      if (!withBare) return { bytes, etag, fixed };
      const bare = await start(
        runtimeCommand(
          "deno",
          "bench/bare_server.ts",
          join(scratch, `${name}.body`),
          response.headers.get("content-type") ?? "application/json",
        ),
      );
      const asks: Record<string, string>[] = [{ "accept-encoding": "identity" }, {
        "if-none-match": etag,
      }];
      for (const headers of asks) {
        await (await fetch(bare.url, { headers })).arrayBuffer();
      }
      return { bytes, etag, fixed, bare };
    };
    const feed = await fixedFor(feedUrl);
    const page = await fixedFor(pageUrl);
    const items = JSON.parse(new TextDecoder().decode(feed.bytes)).meta.count as number;
    // Memory before any load: what holding the index costs, apart from the
    // garbage a load leaves for the collector (measured again after the load).
    const heldExtra = (await peakRss(server.child.pid!)) - (await peakRss(feed.fixed.child.pid!));
    // The server holds no bodies: a first search reads every feed body again
    // and keeps its folded text. What that costs in time (against the floor,
    // which reads every file once) and in memory, before any load.
    const t0 = performance.now();
    await (await fetch(`${server.url}/api/content.json?search=lorem`)).arrayBuffer();
    const firstSearch = performance.now() - t0;
    const searchedExtra = (await peakRss(server.child.pid!)) -
      (await peakRss(feed.fixed.child.pid!));

    // Another page of the filter (the third where there is one: the first at 1,000 files, whose
    // second and third are empty), its first client asking for gzip before wrk's identity: its
    // identity answers are the ones a second client of another encoding gets.
    const filtered = JSON.parse(new TextDecoder().decode(page.bytes)).meta.total as number;
    const gzipFirstUrl = pageUrl.replace("page=2", filtered > 40 ? "page=3" : "page=1");
    const gzipped = await fetch(gzipFirstUrl, { headers: { "accept-encoding": "gzip" } });
    await gzipped.arrayBuffer();
    if (gzipped.headers.get("content-encoding") !== "gzip") {
      console.error(
        `${gzipFirstUrl} was not answered with gzip: its row compares identity-first answers`,
      );
    }
    const gzipFirst = await fixedFor(gzipFirstUrl);
    /** The servers of these rows, stopped together. */
    const servers = [
      server,
      feed.fixed,
      feed.bare!,
      page.fixed,
      page.bare!,
      gzipFirst.fixed,
      gzipFirst.bare!,
    ];

    // Tens of megabytes a response: a few connections, or the load generator is the bottleneck.
    const big = feed.bytes.length > 8e6 ? 2 : 16;
    // Warm both sides once (JIT, connection setup) before anything is counted.
    for (const url of [feedUrl, feed.fixed.url, feed.bare!.url]) await load(url, {}, big, 1);
    for (const url of [pageUrl, page.fixed.url, page.bare!.url]) await load(url, {}, 16, 1);
    for (const url of [gzipFirstUrl, gzipFirst.bare!.url]) await load(url, {}, 16, 1);
    const throughputRow = (
      measure: string,
      target: string,
      result: { throughput: number; cpu: number },
    ) => row(size, measure, fmt(result.throughput), target, fmt(result.cpu));
    throughputRow(
      `full feed (${(feed.bytes.length / 1e6).toFixed(1)} MB) ÷ fixed bytes`,
      "≥ 0.85",
      await compare(server, feedUrl, feed.fixed, {}, big),
    );
    throughputRow(
      "… full feed ÷ bare Deno.serve (same bytes, content-type only)",
      "",
      await compare(server, feedUrl, feed.bare!, {}, big),
    );
    throughputRow(
      "filtered page (type+tag+limit+page) ÷ fixed bytes",
      "≥ 0.6",
      await compare(server, pageUrl, page.fixed),
    );
    throughputRow(
      "… filtered page ÷ bare Deno.serve (same bytes, content-type only)",
      "≥ 0.8",
      await compare(server, pageUrl, page.bare!),
    );
    throughputRow(
      "… the next page, its gzip asked for first, ÷ bare Deno.serve",
      "≥ 0.8",
      await compare(server, gzipFirstUrl, gzipFirst.bare!),
    );
    throughputRow(
      "304 revalidation ÷ fixed 304",
      "≥ 0.8",
      await compare(server, feedUrl, feed.fixed, { "if-none-match": feed.etag }),
    );
    throughputRow(
      "… 304 revalidation ÷ bare Deno.serve 304 (no headers)",
      "≥ 0.6",
      await compare(server, feedUrl, feed.bare!, { "if-none-match": feed.etag }),
    );
    if (serveOnly) {
      await Promise.all(servers.map((server) => stop(server)));
      continue;
    }

    // 5. Peak memory beyond a server that only holds the feed bytes, per item. (The git
    // site's, after its starts and after a short load of its own, are section 9's rows.)
    const extra = (await peakRss(server.child.pid!)) - (await peakRss(feed.fixed.child.pid!));
    row(
      size,
      "peak memory beyond the fixed-bytes server, KB per item: after start",
      fmt(heldExtra / items / 1024, 1),
      "≤ 10",
    );
    row(
      size,
      "… and after a first search (it keeps every feed body, folded)",
      fmt(searchedExtra / items / 1024, 1),
      "",
    );
    row(
      size,
      "… and after all the load runs above (GC headroom included)",
      fmt(extra / items / 1024, 1),
      "≤ 10",
    );
    row(
      size,
      "first search (reads every body again) ÷ I/O floor",
      fmt(firstSearch / median(floor)),
      "",
    );
    // 7. Sync (SPEC 6.2, 12): the manifest, every body, and a delta of 10 changes, each
    // against fixed bytes of its own size; the first build of the bodies against the floor.
    const mb = (bytes: Uint8Array) => `${(bytes.length / 1e6).toFixed(1)} MB`;
    const manifestUrl = `${feedUrl}?fields=id,checksum,last_update`;
    const manifest = await fixedFor(manifestUrl);
    throughputRow(
      `manifest (fields=id,checksum,last_update, ${mb(manifest.bytes)}) ÷ fixed bytes`,
      "≥ 0.8",
      await compare(server, manifestUrl, manifest.fixed),
    );
    throughputRow(
      "… manifest ÷ bare Deno.serve (same bytes, content-type only)",
      "",
      await compare(server, manifestUrl, manifest.bare!),
    );
    const bodyUrl = `${feedUrl}?include=body`;
    const t1 = performance.now();
    await (await fetch(bodyUrl, { headers: { "accept-encoding": "identity" } })).arrayBuffer();
    row(
      size,
      "include=body, whole feed: first build (reads every body) ÷ I/O floor",
      fmt((performance.now() - t1) / median(floor)),
      "≤ 2",
    );
    const bodies = await fixedFor(bodyUrl, false);
    await load(bodyUrl, {}, 2, 1);
    await load(bodies.fixed.url, {}, 2, 1);
    throughputRow(
      `include=body, whole feed (${mb(bodies.bytes)}), once built ÷ fixed bytes`,
      "≥ 0.8",
      await compare(server, bodyUrl, bodies.fixed, {}, bodies.bytes.length > 8e6 ? 2 : 16),
    );
    await stop(bodies.fixed);
    // 10 files edited: the watching server re-indexes, and the journal numbers the changes.
    const cursorNow = async () =>
      (await (await fetch(`${feedUrl}?fields=id&limit=1`)).json()).meta.cursor as string;
    const cursor = await cursorNow();
    for (const path of paths.filter((p) => p.startsWith("docs/")).slice(0, 10)) {
      await appendFile(join(site, path), "\nChanged for the delta.\n");
    }
    for (let last = cursor, still = 0; still < 15; still++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const now = await cursorNow();
      if (now !== last || now === cursor) {
        last = now;
        still = 0;
      }
    }
    const deltaUrl = `${feedUrl}?since=${cursor}`;
    const delta = await fixedFor(deltaUrl);
    const changed = JSON.parse(new TextDecoder().decode(delta.bytes)).data.length;
    if (changed !== 10) throw new Error(`the delta holds ${changed} items, not 10`);
    throughputRow(
      `delta of 10 changes (since=cursor, ${
        (delta.bytes.length / 1e3).toFixed(1)
      } KB) ÷ fixed bytes`,
      "≥ 0.8",
      await compare(server, deltaUrl, delta.fixed),
    );
    throughputRow(
      "… delta ÷ bare Deno.serve (same bytes, content-type only)",
      "",
      await compare(server, deltaUrl, delta.bare!),
    );
    await Promise.all(
      [manifest.fixed, manifest.bare!, delta.fixed, delta.bare!].map((server) => stop(server)),
    );

    // 8. MCP (SPEC 14): get_content under load ÷ the item route of the same item
    // (its JSON form; the tool answers it and the Markdown form, each kept once
    // made), rounds alternating, on one server.
    const MCP_HEADERS = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const toolCall = (name: string, args: Record<string, unknown>) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name, arguments: args },
      });
    const itemLink = JSON.parse(new TextDecoder().decode(feed.bytes)).data[0].link as string;
    const itemUrl = `${server.url}${new URL(itemLink).pathname}`;
    const getContent = toolCall("get_content", { link: itemLink });
    const mcpUrl = `${server.url}/api/mcp`;
    await load(itemUrl, {}, 16, 1);
    await load(mcpUrl, MCP_HEADERS, 16, 1, getContent);
    const mcpRounds = { throughput: [] as number[], cpu: [] as number[] };
    for (let i = 0; i < repeats; i++) {
      const tool = () => measured(server, mcpUrl, MCP_HEADERS, 16, getContent);
      const route = () => measured(server, itemUrl, {}, 16);
      const [a, b] = i % 2 === 0 ? [await tool(), await route()] : [await route(), await tool()];
      const [ofTool, ofRoute] = i % 2 === 0 ? [a, b] : [b, a];
      mcpRounds.throughput.push(ofTool.rps / ofRoute.rps);
      mcpRounds.cpu.push(ofTool.cpu / ofRoute.cpu);
    }
    row(
      size,
      "MCP get_content (metadata + Markdown) ÷ the item route (GET /{type}/{uri}.json)",
      fmt(median(mcpRounds.throughput)),
      "",
      fmt(median(mcpRounds.cpu)),
    );
    // A first search_content on a server that has not searched yet: it reads
    // every body, as the feed's first search did (and loads the MCP SDK).
    const fresh = await start(command("main.ts"), env);
    await (await fetch(`${fresh.url}/api/content.json`)).arrayBuffer();
    const t3 = performance.now();
    const searched = await fetch(`${fresh.url}/api/mcp`, {
      method: "POST",
      headers: MCP_HEADERS,
      body: toolCall("search_content", { query: "lorem" }),
    });
    if (!(await searched.text()).includes('"result"')) throw new Error("search_content failed");
    row(
      size,
      "first search_content (reads every body, loads the SDK) ÷ the feed's first search",
      fmt((performance.now() - t3) / firstSearch),
      "",
    );
    await stop(fresh);

    await Promise.all(servers.map((server) => stop(server)));

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
  "CPU per request (cold starts: to the first response), feed ÷ baseline",
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
console.log(
  `\ncontent-feed benchmark · servers under ${runtime} · load by ${wrk ? "wrk" : "autocannon"}, ` +
    `${markupShare * 100}% of bodies with markup, ` +
    `${seconds} s a run · medians of ${repeats} cold starts and of ${repeats} interleaved rounds`,
);
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const r of rows) console.log(line(r));
