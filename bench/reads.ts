// The ways to read a content file, side by side, on 5,000 files: what
// src/source/read_regular.ts chose from (docs/performance.md).
// Usage: deno run -A bench/reads.ts   (or bun / node)
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFile,
  readFileSync,
  readSync,
  stat,
  statSync,
} from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readRegularFile, readRegularFileSync } from "../src/source/read_regular.ts";
import { forEachConcurrently } from "../src/util/concurrency.ts";

const dir = await mkdtemp(join(tmpdir(), "content-feed-reads-"));
const files: string[] = [];
for (let i = 0; i < 5000; i++) {
  const path = join(dir, `f${i}.md`);
  await writeFile(path, "x".repeat(3000 + (i % 2000)));
  files.push(path);
}
const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
const asynchronous: Record<string, (path: string) => Promise<unknown>> = {
  "readFile": (p) => new Promise((ok, no) => readFile(p, (e, b) => e ? no(e) : ok(b))),
  "readFile, O_NONBLOCK": (p) =>
    new Promise((ok, no) => readFile(p, { flag: FLAGS }, (e, b) => e ? no(e) : ok(b))),
  "statSync + readFile, O_NONBLOCK (chosen)": (p) => readRegularFile(p, Infinity),
  "stat, then readFile": (p) =>
    new Promise((ok, no) =>
      stat(p, (e) => e ? no(e) : readFile(p, (e2, b) => e2 ? no(e2) : ok(b)))
    ),
};
const blocking: Record<string, (path: string) => unknown> = {
  "readFileSync": (p) => readFileSync(p),
  "statSync + readFileSync": (p) => statSync(p).isFile() && readFileSync(p, { flag: FLAGS }),
  "open + fstat + read + close (chosen)": (p) => readRegularFileSync(p, Infinity),
  "the same, by hand": (p) => {
    const fd = openSync(p, FLAGS);
    const bytes = new Uint8Array(fstatSync(fd).size);
    readSync(fd, bytes, 0, bytes.length, 0);
    closeSync(fd);
  },
};
for (let round = 1; round <= 3; round++) {
  for (const [name, read] of Object.entries(asynchronous)) {
    let i = 0;
    const start = performance.now();
    await forEachConcurrently(() => files[i++], async (path) => void await read(path));
    console.log(
      `round ${round}  32 at a time  ${name}: ${Math.round(performance.now() - start)} ms`,
    );
  }
  for (const [name, read] of Object.entries(blocking)) {
    const start = performance.now();
    for (const path of files) read(path);
    console.log(
      `round ${round}  blocking      ${name}: ${Math.round(performance.now() - start)} ms`,
    );
  }
}
await rm(dir, { recursive: true, force: true });
