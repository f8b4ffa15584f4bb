// A handler over a real site whose reads of content files are counted: for
// tests that bound the reads an answer makes (one per file, or none at all).
import assert from "node:assert/strict";
import { join } from "node:path";
import { createContentFilesLoader } from "../src/pipeline/content_files.ts";
import { createHandler, type Handler } from "../src/http/handler.ts";
import { buildIndexFrom, type Index, indexSettings } from "../src/index/build.ts";
import type { Item } from "../src/index/item.ts";
import { loadConfigFile } from "../src/config/load.ts";
import { readBody, readCheckedBytes } from "../src/source/read_file.ts";
import { createJournal } from "../src/sync/journal.ts";

/** A handler, its index, and the reads it made of each item's file (by path under the root). */
export interface CountedHandler {
  readonly handle: Handler;
  readonly index: Index;
  readonly reads: Map<string, number>;
}

/**
 * The handler over the site in `root` (its `services.yaml`), loaded once,
 * with an in-memory journal that has recorded the index (`since=0` lists
 * every item). Every read of a content file the handler asks for, of a body
 * or of its bytes, is counted under the item's file; an error it logs fails
 * the test.
 */
export async function countedHandler(root: string): Promise<CountedHandler> {
  const config = await loadConfigFile(join(root, "services.yaml"));
  const { files, warnings } = await createContentFilesLoader(config, { keepBody: false }).load();
  const index = buildIndexFrom(files, indexSettings(config), 0, { warnings });
  const journal = createJournal({ retentionDays: 90, warn: assert.fail }).record(index, 0);
  const reads = new Map<string, number>();
  const count = (item: Item) => reads.set(item.file, (reads.get(item.file) ?? 0) + 1);
  const abs = (item: Item) => `${config.root}/${item.file}`;
  const handle = createHandler({
    index: () => index,
    journal: () => journal,
    baseUrl: "https://example.com",
    cors: true,
    cacheControl: "public, max-age=60",
    logError: (message) => assert.fail(message),
    readBody: (item) => {
      count(item);
      return readBody(abs(item), item.checksum, config.maxFileSize);
    },
    readBytes: (item) => {
      count(item);
      return readCheckedBytes(abs(item), item.checksum, config.maxFileSize);
    },
  });
  return { handle, reads, index };
}
