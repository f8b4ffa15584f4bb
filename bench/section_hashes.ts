// The checksums of a body's sections (SPEC 13): many texts, mostly small.
// Compares crypto.subtle.digest all at once (as sectionsOf did before issue
// 24), in bounded batches and one at a time, with the JavaScript SHA-256 of
// src/util/sha256.ts, and node:crypto's createHash as a reference (src/text
// stays web-standard, so it cannot use it). Each figure is the best of three
// rounds, in ms; "all at once" is left out beyond 80,000 texts (it slows
// quadratically on Deno).
// Run: deno run -A bench/section_hashes.ts (or node, bun).
import { createHash } from "node:crypto";
import process from "node:process";
import { sha256Hex } from "../src/util/hash.ts";
import { sha256HexSync } from "../src/util/sha256.ts";

const runtime = "Deno" in globalThis ? "deno" : "Bun" in globalThis ? "bun" : "node";

/** `count` texts of about `size` characters, each different. */
function textsOf(count: number, size: number): string[] {
  const filler = "Words of a section, é and 日本. ".repeat(Math.ceil(size / 30) + 1);
  return Array.from({ length: count }, (_, i) => `${i} ${filler.slice(0, Math.max(0, size - 8))}`);
}

async function inBatches(texts: readonly string[], batch: number): Promise<void> {
  for (let at = 0; at < texts.length; at += batch) {
    await Promise.all(texts.slice(at, at + batch).map((text) => sha256Hex(text)));
  }
}

const methods: Record<string, (texts: readonly string[]) => unknown> = {
  "subtle, all at once": (texts) => Promise.all(texts.map((text) => sha256Hex(text))),
  "subtle, 64 at a time": (texts) => inBatches(texts, 64),
  "subtle, 256 at a time": (texts) => inBatches(texts, 256),
  "subtle, one at a time": async (texts) => {
    for (const text of texts) await sha256Hex(text);
  },
  "JavaScript (sha256.ts)": (texts) => {
    for (const text of texts) sha256HexSync(text);
  },
  "node:crypto (reference)": (texts) => {
    for (const text of texts) createHash("sha256").update(text).digest("hex");
  },
};

const cases: [number, number][] = [[10_000, 20], [80_000, 20], [300_000, 20], [10_000, 1_000], [
  1_000,
  10_000,
], [10, 1_000_000]];
console.log(`${runtime} ${process.version}`);
console.log(["texts × chars", ...Object.keys(methods)].join("\t"));
for (const [count, size] of cases) {
  const texts = textsOf(count, size);
  const row = [`${count} × ${size}`];
  for (const [name, method] of Object.entries(methods)) {
    if (name === "subtle, all at once" && count > 80_000) {
      row.push("-");
      continue;
    }
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      const start = performance.now();
      await method(texts);
      best = Math.min(best, performance.now() - start);
    }
    row.push(best.toFixed(0));
  }
  console.log(row.join("\t"));
}
