// The floor of a static build's writing: every file of a built folder read
// into memory first (not timed), then written into a fresh folder, folders
// made as needed, 16 at a time (as `content-feed build` writes), with
// node:fs as the build does. Prints {"ms", "files", "bytes"}.
// Usage: <runtime> bench/write_bytes.ts <built folder> <new folder>
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import process from "node:process";

const [from, to] = process.argv.slice(2);
const files: { path: string; bytes: Uint8Array }[] = [];
async function walk(prefix: string): Promise<void> {
  for (const entry of await readdir(join(from, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await walk(path);
    else files.push({ path, bytes: await readFile(join(from, path)) });
  }
}
await walk("");

const t0 = performance.now();
/** Folders made or being made: a file waits for its folder. */
const made = new Map<string, Promise<unknown>>();
let next = 0;
let bytes = 0;
await Promise.all(Array.from({ length: 16 }, async () => {
  while (next < files.length) {
    const file = files[next++];
    const folder = dirname(join(to, file.path));
    if (!made.has(folder)) made.set(folder, mkdir(folder, { recursive: true }));
    await made.get(folder);
    await writeFile(join(to, file.path), file.bytes);
    bytes += file.bytes.length;
  }
}));
console.log(JSON.stringify({ ms: performance.now() - t0, files: files.length, bytes }));
