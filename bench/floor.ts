// The I/O floor: this runtime reading and SHA-256-hashing every file of a
// site, 32 at a time, with the loader's own read and hash functions (so a
// faster read or hash in the loader lowers the floor too).
//
// With `derive`, the derivation floor: the same, and for each Markdown file
// what no first start escapes on one thread: decoding it, its front matter,
// and its body's text (the heading, the first prose paragraph, the word
// count: `summarizeText`, then the description `describeProse` cuts), with
// the loader's own functions. No index, journal, feed, gzip, git or server:
// what a first start costs beyond it is the project's own (section 9 of
// bench.ts sets it beside the floor; docs/performance.md, twentieth session).
// Usage: <runtime> bench/floor.ts <site folder> [derive]
import { readdir } from "node:fs/promises";
import process from "node:process";
import { fileChecksum } from "../src/source/file_hash.ts";
import { readBytes } from "../src/source/read_regular.ts";

const files: string[] = [];
async function walk(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    // `.git` and the server's state folder `.content-feed` are no content (nor any dot entry).
    if (entry.name.startsWith(".")) continue;
    if (entry.isDirectory()) await walk(path);
    else if (entry.name !== "services.yaml") files.push(path);
  }
}

/** What the derivation floor does to a file's bytes beyond the floor's (imported only for it). */
async function deriver(): Promise<(path: string, bytes: Uint8Array, checksum: string) => number> {
  const [{ describeProse }, { parseFile }, { summarizeText }] = await Promise.all([
    import("../src/fields/preview.ts"),
    import("../src/source/parse.ts"),
    import("../src/text/summary.ts"),
  ]);
  return (path, bytes, checksum) => {
    if (!/\.mdx?$/.test(path)) return 0;
    const parsed = parseFile(bytes, { plugin: "docs", path, checksum, mtime: 0 }, path);
    if (!("body" in parsed)) return 0;
    const summary = summarizeText(parsed.body);
    return summary.words + describeProse(summary.prose).length;
  };
}

const derive = process.argv[3] === "derive" ? await deriver() : undefined;
await walk(process.argv[2]);
let next = 0;
let words = 0;
await Promise.all(Array.from({ length: 32 }, async () => {
  while (next < files.length) {
    const path = files[next++];
    const bytes = await readBytes(path);
    const checksum = fileChecksum(bytes);
    if (derive) words += derive(path, bytes, checksum);
  }
}));
console.log(`${derive ? "derivation floor" : "floor"} done ${files.length} ${words}`);
