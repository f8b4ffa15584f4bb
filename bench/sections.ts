// `include=sections` of one item whose body is N headings (`## h1` … `## hN`),
// through createContentApi's item route, the way issue 24 found it
// quadratic on Deno. For each N: the request's time, the longest the event
// loop went without running a 1 ms timer meanwhile, how many times a small
// request (another item's JSON) was answered while it ran, and the peak RSS.
// Run: deno run -A bench/sections.ts [--sizes 10000,40000,80000,300000]
//      [--shape headings|list|table|links] [--limit 300]
// (or node, bun). A size that takes longer than --limit seconds ends the run.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createContentApi } from "../mod.ts";

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const sizes = arg("sizes", "10000,40000,80000,300000").split(",").map(Number);
const shape = arg("shape", "headings");
const limitSeconds = Number(arg("limit", "300"));
const runtime = "Deno" in globalThis
  ? `deno ${(globalThis as unknown as { Deno: { version: { deno: string } } }).Deno.version.deno}`
  : "Bun" in globalThis
  ? `bun ${(globalThis as unknown as { Bun: { version: string } }).Bun.version}`
  : `node ${process.versions.node}`;

/** A body of `n` lines of one shape. */
function bodyOf(n: number): string {
  const lines: string[] = [];
  for (let i = 1; i <= n; i++) {
    if (shape === "headings") lines.push(`## h${i}`);
    else if (shape === "list") lines.push(`- item *${i}*`);
    else if (shape === "table") lines.push(i === 1 ? "| a | b |\n|---|---|" : `| ${i} | x |`);
    else lines.push(`[l${i}]: /u/${i}`);
  }
  return lines.join("\n") + "\n";
}

const quiet = { info() {}, warn() {}, error() {} };
console.log(`${runtime}, shape ${shape}`);
console.log("N\tbody KB\tsections ms\tlongest stall ms\tsmall answers meanwhile\tpeak RSS MB");
for (const n of sizes) {
  const root = await mkdtemp(join(tmpdir(), "sections-bench-"));
  try {
    await mkdir(join(root, "docs"));
    const body = bodyOf(n);
    await writeFile(join(root, "docs/big.md"), `---\ntitle: Big\n---\nIntro.\n\n${body}`);
    await writeFile(
      join(root, "docs/small.md"),
      `---\ntitle: Small\n---\n${"A small body of words. ".repeat(10)}\n`,
    );
    await writeFile(
      join(root, "services.yaml"),
      "parameters:\n  service.content.config:\n    url: https://example.com\n    plugins:\n      docs: ~\n      api: ~\n",
    );
    const api = await createContentApi({ config: join(root, "services.yaml"), logger: quiet });
    const origin = "http://localhost";
    // Each small request has a query of its own, so no cached answer serves it.
    let small = 0;
    let done = false;
    let longest = 0;
    let last = performance.now();
    let peak = process.memoryUsage().rss;
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 1);
    const smalls = (async () => {
      for (let i = 0; !done; i++) {
        const response = await api.fetch(
          new Request(`${origin}/docs/small.json?include=text&v=${i}`),
        );
        await response.arrayBuffer();
        if (!done) small++;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const start = performance.now();
    last = start;
    const watchdog = setTimeout(() => {
      console.log(`${n}\t${(body.length / 1024).toFixed(0)}\t> ${limitSeconds * 1000} (stopped)`);
      process.exit(0);
    }, limitSeconds * 1000);
    const response = await api.fetch(new Request(`${origin}/docs/big.json?include=sections`));
    const json = await response.json() as { sections?: unknown[] };
    const end = performance.now();
    const ms = end - start;
    longest = Math.max(longest, end - last); // a stall up to the end, when no tick came after it
    clearTimeout(watchdog);
    done = true;
    clearInterval(timer);
    await smalls;
    if (!Array.isArray(json.sections)) throw new Error(`no sections: ${JSON.stringify(json)}`);
    console.log(
      [
        n,
        (body.length / 1024).toFixed(0),
        ms.toFixed(0),
        longest.toFixed(0),
        small,
        (peak / 1024 / 1024).toFixed(0),
      ].join("\t"),
    );
    await api.close();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
