// Where the live heap goes, per feed item: the loaded files (as the server
// keeps them, without their text), the index built from them, the feed
// bytes, and the search texts a first search makes, each measured after a
// full collection.
// Usage: deno run -A --v8-flags=--expose-gc bench/heap.ts <services.yaml>
// (or node --expose-gc bench/heap.ts …)
import process from "node:process";
import type { IndexedFile } from "../src/fields/indexed_file.ts";
import { indexFile } from "../src/fields/index_file.ts";
import { buildIndexFrom, indexSettings } from "../src/index/build.ts";
import { createHandler } from "../src/http/handler.ts";
import { emptyJournal } from "../src/sync/state.ts";
import { loadConfigFile } from "../src/config/load.ts";
import { createLoader } from "../src/source/loader.ts";
import { readBody } from "../src/source/read_file.ts";

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
// The server's loader: each file's fields, no text (as src/service.ts makes it).
const loaded = await createLoader<IndexedFile>(config, {
  prepare: (parsed, shown) => indexFile(parsed, shown),
}).load();
const afterLoad = used();
const index = buildIndexFrom(loaded.files, indexSettings(config), Date.now(), {
  warnings: loaded.warnings,
});
const afterIndex = used();
const journal = emptyJournal();
const fetch = createHandler({
  index: () => index,
  journal: () => journal,
  baseUrl: config.url ?? "http://localhost",
  cors: true,
  cacheControl: "public, max-age=60",
  logError: console.error,
  readBody: (item) => readBody(`${config.root}/${item.file}`, item.checksum),
});
await (await fetch(new Request("http://localhost/api/content.json"))).arrayBuffer();
const afterFeed = used();
await (await fetch(new Request("http://localhost/api/content.json?search=zz"))).arrayBuffer();
const afterSearch = used();
const items = index.feed.length;
const kb = (bytes: number) => `${(bytes / items / 1024).toFixed(2)} KB per item`;
console.log(`${items} feed items from ${loaded.files.length} files`);
console.log(`loaded files ${kb(afterLoad - start)}`);
console.log(`index        ${kb(afterIndex - afterLoad)}`);
console.log(`feed bytes   ${kb(afterFeed - afterIndex)}`);
console.log(`live in all  ${kb(afterFeed - start)}`);
console.log(`after a first search, its texts: ${kb(afterSearch - afterFeed)} more`);
console.log(`resident now ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
