// What deriving a body's text costs: the word scans (`countWords`,
// `plainWords`) and `summarizeText` with the description its first prose
// paragraph gives (heading, description, words: what a first start runs on
// every file) over the bodies of the bench's own site
// (bench/site.ts, half of them with documentation markup), apart for the
// bodies read in one scan and those read with the parser. Prints the best
// of five runs of each, in ms for the whole site.
// Run: deno run -A bench/summaries.ts [files] (or node, bun). Default 10,000 files.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { generateSite } from "./site.ts";
import { parseFile } from "../src/source/parse.ts";
import { describeProse } from "../src/fields/preview.ts";
import { summarizeText } from "../src/text/summary.ts";
import { countWords, plainWords } from "../src/text/words.ts";

const count = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 10_000);
const root = await mkdtemp(join(tmpdir(), "content-feed-summaries-"));
const bodies: string[] = [];
try {
  for (const path of await generateSite(root, count)) {
    const parsed = parseFile(
      await readFile(join(root, path)),
      { plugin: "docs", path, checksum: "", mtime: 0 },
      path,
    );
    if ("body" in parsed) bodies.push(parsed.body);
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
const plain = bodies.filter((body) => plainWords(body) !== -1);
const markup = bodies.filter((body) => plainWords(body) === -1);

/** The best of five runs of `fn` over `list`, in ms. */
function best(list: readonly string[], fn: (body: string) => unknown): number {
  let ms = Infinity;
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    for (const body of list) fn(body);
    ms = Math.min(ms, performance.now() - start);
  }
  return ms;
}
/** What deriving a file takes of its body's text (`fields/derive.ts`). */
const summarize = (body: string) => describeProse(summarizeText(body).prose);
const chars = bodies.reduce((sum, body) => sum + body.length, 0);
console.log(
  `${bodies.length} bodies (${plain.length} read in one scan, ${markup.length} with the parser), ${
    (chars / 1e6).toFixed(1)
  } M characters`,
);
const rows: [string, number][] = [
  ["countWords, every body", best(bodies, countWords)],
  ["plainWords, every body", best(bodies, plainWords)],
  ["summary and description, bodies read in one scan", best(plain, summarize)],
  ["summary and description, bodies with markup", best(markup, summarize)],
];
for (const [name, ms] of rows) console.log(`${name.padEnd(50)} ${ms.toFixed(0).padStart(5)} ms`);
