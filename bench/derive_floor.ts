// The derivation floor: the I/O floor's reads and hashes (bench/floor.ts),
// and for each Markdown file what no first start escapes on one thread:
// decoding it, its front matter, and its body's text (the heading, the
// first prose paragraph, the word count: `summarizeText`, then the
// description `describeProse` cuts), with the loader's own functions. No
// index, journal, feed, gzip, git or server: what a first start costs
// beyond this is the project's own. Section 9 of bench.ts sets it beside
// the I/O floor, so a run says how far below a first start's time a target
// can sit on this machine (docs/performance.md, twentieth session).
// Usage: <runtime> bench/derive_floor.ts <site folder>
import { readdir } from "node:fs/promises";
import process from "node:process";
import { describeProse } from "../src/fields/preview.ts";
import { fileChecksum } from "../src/source/file_hash.ts";
import { parseFile } from "../src/source/parse.ts";
import { readBytes } from "../src/source/read_regular.ts";
import { summarizeText } from "../src/text/summary.ts";

const files: string[] = [];
async function walk(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    // As the floor walks: no dot entry (`.git`, the state folder), no configuration.
    if (entry.name.startsWith(".")) continue;
    if (entry.isDirectory()) await walk(path);
    else if (entry.name !== "services.yaml") files.push(path);
  }
}
await walk(process.argv[2]);
let next = 0;
let words = 0;
await Promise.all(Array.from({ length: 32 }, async () => {
  while (next < files.length) {
    const path = files[next++];
    const bytes = await readBytes(path);
    const checksum = fileChecksum(bytes);
    if (!/\.mdx?$/.test(path)) continue;
    const parsed = parseFile(bytes, { plugin: "docs", path, checksum, mtime: 0 }, path);
    if (!("body" in parsed)) continue;
    const summary = summarizeText(parsed.body);
    words += summary.words + describeProse(summary.prose).length;
  }
}));
console.log(`derivation floor done ${files.length} ${words}`);
