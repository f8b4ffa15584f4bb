// crypto.subtle.digest against node:crypto's createHash for the SHA-256 of
// every file of a cold start (the loader uses the second: src/source/file_hash.ts).
// Run: deno run -A bench/hashes.ts (or node, bun). Prints the ratio.
import { createHash } from "node:crypto";

const buffers = Array.from(
  { length: 5000 },
  (_, i) => new TextEncoder().encode("x".repeat(3000 + (i % 2000))),
);
async function best(fn: (bytes: Uint8Array) => unknown): Promise<number> {
  let ms = Infinity;
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    for (const bytes of buffers) await fn(bytes);
    ms = Math.min(ms, performance.now() - start);
  }
  return ms;
}
const subtle = await best((bytes) =>
  crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)
);
const node = await best((bytes) => createHash("sha256").update(bytes).digest("hex"));
console.log(
  `5,000 files of 3-5 KB: crypto.subtle.digest / createHash time = ${(subtle / node).toFixed(1)}×`,
);
