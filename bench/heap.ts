// Where the live heap goes, per feed item: the parsed files, the index built
// from them, and the feed bytes, each measured after a full collection.
// Usage: deno run -A --v8-flags=--expose-gc bench/heap.ts <services.yaml>
// (or node --expose-gc bench/heap.ts …)
import process from "node:process";
import { buildIndex, indexSettings } from "../src/index/build.ts";
import { createHandler } from "../src/http/router.ts";
import { loadConfigFile } from "../src/load_config.ts";
import { createLoader } from "../src/source/loader.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc (deno: --v8-flags=--expose-gc)");
const used = () => {
  gc();
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external; // the feed bytes live outside the V8 heap
};
const config = await loadConfigFile(process.argv[2]);
const start = used();
const loaded = await createLoader(config).load();
const afterLoad = used();
const index = buildIndex(loaded.files, indexSettings(config), Date.now(), loaded.warnings);
const afterIndex = used();
const fetch = createHandler({
  index: () => index,
  baseUrl: config.url ?? "http://localhost",
  cors: true,
  cacheControl: "public, max-age=60",
  logError: console.error,
});
await (await fetch(new Request("http://localhost/api/content.json"))).arrayBuffer();
const afterFeed = used();
const items = index.feed.length;
const kb = (bytes: number) => `${(bytes / items / 1024).toFixed(2)} KB per item`;
let chars = 0;
for (const file of loaded.files) chars += file.body.length;
console.log(
  `${items} feed items, ${(chars / loaded.files.length).toFixed(0)} body characters a file`,
);
console.log(`parsed files ${kb(afterLoad - start)}`);
console.log(`index        ${kb(afterIndex - afterLoad)}`);
console.log(`feed bytes   ${kb(afterFeed - afterIndex)}`);
console.log(
  `live in all  ${kb(afterFeed - start)}; resident now ${
    (process.memoryUsage().rss / 1e6).toFixed(0)
  } MB`,
);
