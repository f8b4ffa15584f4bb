// What the journal's change keys cost (`sync/change_key.ts`): every item of
// the bench's own site (bench/site.ts) keyed by a fresh `createChangeKeys`,
// as a first start's record keys them. Prints the best of five runs, in ms.
// Run: deno run -A bench/change_keys.ts [files] (or node, bun). Default 10,000 files.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createContentApi } from "../src/service.ts";
import { createChangeKeys } from "../src/sync/change_key.ts";
import { generateSite } from "./site.ts";

const count = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 10_000);
const root = await mkdtemp(join(tmpdir(), "content-feed-change-keys-"));
try {
  await generateSite(root, count);
  const quiet = { info() {}, warn() {}, error() {} };
  const api = await createContentApi({ config: join(root, "services.yaml"), logger: quiet });
  const items = api.index.feed;
  let ms = Infinity;
  for (let round = 0; round < 5; round++) {
    const changeKey = createChangeKeys();
    const start = performance.now();
    for (const item of items) changeKey(item);
    ms = Math.min(ms, performance.now() - start);
  }
  console.log(`${items.length} items keyed in ${ms.toFixed(1)} ms`);
  api.close();
} finally {
  await rm(root, { recursive: true, force: true });
}
