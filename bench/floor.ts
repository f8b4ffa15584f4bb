// The I/O floor: this runtime reading and SHA-256-hashing every file of a
// site, 32 at a time, with the loader's own read and hash functions (so a
// faster read or hash in the loader lowers the floor too).
// Usage: <runtime> bench/floor.ts <site folder>
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
await walk(process.argv[2]);
let next = 0;
await Promise.all(Array.from({ length: 32 }, async () => {
  while (next < files.length) {
    fileChecksum(await readBytes(files[next++]));
  }
}));
console.log(`floor done ${files.length}`);
