// Cold index build against the re-index after one file changes, in one
// process. The reload is told the changed path, as the file watcher tells it. Usage: <runtime> bench/reindex.ts <services.yaml> <file to touch>
import { appendFile } from "node:fs/promises";
import process from "node:process";
import { createContentApi } from "../mod.ts";

const quiet = { info() {}, warn() {}, error: console.error };
let start = performance.now();
const api = await createContentApi({ config: process.argv[2], logger: quiet });
const cold = performance.now() - start;
const times: number[] = [];
for (let i = 0; i < 5; i++) {
  await appendFile(process.argv[3], `\nOne more line ${i}.\n`);
  start = performance.now();
  await api.reload([process.argv[3]]); // as the watcher does: the changed path
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ cold, reindex: times[2], items: api.index.items.length }));
