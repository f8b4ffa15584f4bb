// examples/langchain.ts: LangChain.js's index() fed by content-feed/client
// against the real service, through seeded random edits: after every sync
// the vector store holds exactly the documents of the feed's items (one per
// item, or one per section), no more; deletions go through the record
// manager and never ask it for the keys of no group; a new journal (410)
// and a sync from 0 on a full store end with a full clean-up. Synthetic
// embeddings and in-memory stores: nothing leaves the machine.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Document, type DocumentInterface } from "@langchain/core/documents";
import type { ListKeyOptions } from "@langchain/core/indexing";
import { SyntheticEmbeddings } from "@langchain/core/utils/testing";
import { FeedClient, type FeedItem } from "../client.ts";
import {
  indexFeed,
  itemDocument,
  KeyedVectorStore,
  MemoryRecordManager,
  type SyncState,
} from "../examples/langchain.ts";
import { mulberry32 } from "../bench/site.ts";
import { serviceOn, site, type TestSite } from "./helpers.ts";
import { randomEdits } from "./random_edits.ts";

const CONFIG = `parameters:
  service.content.config:
    url: https://example.com
    plugins: { docs: ~, blog: ~, api: ~ }
`;

/** One document per section (the feed's `sections`), to test items of many chunks. */
function sectionDocuments(item: FeedItem): DocumentInterface[] {
  return (item.sections ?? []).map((section) =>
    new Document({
      pageContent: `${section.path.join(" › ")}\n\n${section.text}`,
      metadata: { id: item.id, anchor: section.anchor, checksum: section.checksum },
    })
  );
}

/** A record manager that remembers how it was asked for keys. */
class WatchedRecordManager extends MemoryRecordManager {
  asked: ListKeyOptions[] = [];
  override listKeys(options: ListKeyOptions = {}): Promise<string[]> {
    this.asked.push(options);
    return super.listKeys(options);
  }
}

/** The stores of one pipeline, its saved state, and a client of `s`. */
function pipeline(s: TestSite) {
  const recordManager = new WatchedRecordManager();
  const vectorStore = new KeyedVectorStore(new SyntheticEmbeddings({ vectorSize: 8 }));
  const saved: SyncState[] = [];
  let state: SyncState = { cursor: "0" };
  return {
    recordManager,
    vectorStore,
    saved,
    get state() {
      return state;
    },
    set state(next: SyncState) {
      state = next;
    },
    sync(on: TestSite = s, toDocuments = itemDocument, include = ["url", "text"]) {
      return indexFeed({
        client: new FeedClient("http://localhost:8000", { fetch: on.api.fetch }),
        recordManager,
        vectorStore,
        state,
        save: (next) => {
          saved.push(next);
          state = next;
        },
        toDocuments,
        include,
        limit: 3,
      });
    },
  };
}

/** The documents the store should hold: those of the feed's items, as (id, content) pairs. */
async function expected(
  s: TestSite,
  toDocuments: (item: FeedItem) => DocumentInterface[],
  include: string,
): Promise<string[]> {
  const feed = (await s.json(`/api/content.json?include=${include}`)).body.data as FeedItem[];
  return feed.flatMap(toDocuments).map((doc) => `${doc.metadata.id}\n${doc.pageContent}`).sort();
}

function held(store: KeyedVectorStore): string[] {
  return [...store.documents().values()].map((doc) => `${doc.metadata.id}\n${doc.content}`)
    .sort();
}

describe("examples/langchain.ts: index() fed by content-feed/client", () => {
  for (
    const [name, toDocuments, include] of [
      ["one document per item", itemDocument, ["url", "text"]],
      ["one document per section", sectionDocuments, ["sections"]],
    ] as const
  ) {
    it(`keeps the vector store equal to the feed through random edits (${name})`, async () => {
      const s = await site({ "services.yaml": CONFIG });
      try {
        const edits = randomEdits(s.root, name.length);
        await edits.start(8);
        await s.api.reload();
        const p = pipeline(s);
        const random = mulberry32(3);
        const log: string[] = [];
        let deleted = 0;
        for (let round = 0; round < 15; round++) {
          const counts = await p.sync(s, toDocuments, [...include]);
          deleted += counts.deleted;
          assert.deepEqual(
            held(p.vectorStore),
            await expected(s, toDocuments, include.join(",")),
            log.join("\n"),
          );
          // The record manager holds exactly the store's documents.
          assert.deepEqual(
            (await p.recordManager.listKeys()).sort(),
            [...p.vectorStore.documents().keys()].sort(),
          );
          assert.equal(p.state.cleanupBefore, undefined);
          for (let n = 1 + Math.floor(random() * 4); n > 0; n--) log.push(await edits.next());
          await s.api.reload();
        }
        assert.ok(deleted > 0, "deletions went through the record manager");
        assert.ok(
          p.recordManager.asked.every((asked) =>
            asked.groupIds === undefined || asked.groupIds.length > 0
          ),
          "never the keys of no group",
        );
        // Caught up, then up to date: nothing embedded again.
        await p.sync(s, toDocuments, [...include]);
        const idle = await p.sync(s, toDocuments, [...include]);
        assert.deepEqual([idle.added, idle.updated, idle.deleted], [0, 0, 0]);
      } finally {
        await s.close();
      }
    });
  }

  it("cleans up fully after a new journal (410): what left while it was gone is deleted", async () => {
    const s = await site({ "services.yaml": CONFIG });
    const root = s.root;
    let again: TestSite | undefined;
    try {
      const edits = randomEdits(root, 12);
      await edits.start(10);
      await s.api.reload();
      const p = pipeline(s);
      await p.sync();
      assert.equal(held(p.vectorStore).length, 10);
      // The state folder goes, and files with it: the new journal never reports their deletion.
      await s.api.close();
      await rm(join(root, ".content-feed"), { recursive: true, force: true });
      for (let i = 0; i < 6; i++) await edits.next(6);
      again = await serviceOn(root);
      await p.sync(again);
      assert.deepEqual(held(p.vectorStore), await expected(again, itemDocument, "url,text"));
      assert.equal(p.state.cleanupBefore, undefined);
      assert.ok(
        p.saved.some((state) => state.cleanupBefore !== undefined),
        "the clean-up's start was saved with the cursor while the listing ran",
      );
    } finally {
      await again?.api.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it("a sync from 0 into a store that holds documents deletes those the feed does not have", async () => {
    const s = await site({ "services.yaml": CONFIG });
    try {
      await randomEdits(s.root, 13).start(5);
      await s.api.reload();
      const p = pipeline(s);
      await p.sync();
      // A document of an item the feed does not have (indexed by an earlier pipeline).
      const { index } = await import("@langchain/core/indexing");
      await index({
        docsSource: [new Document({ pageContent: "old", metadata: { id: "docs_doc_gone" } })],
        recordManager: p.recordManager,
        vectorStore: p.vectorStore,
        options: { cleanup: "incremental", sourceIdKey: "id" },
      });
      assert.equal(held(p.vectorStore).length, 6);
      p.state = { cursor: "0" };
      const counts = await p.sync();
      assert.equal(counts.deleted, 1);
      assert.equal(counts.added, 0, "what is unchanged is not embedded again");
      assert.deepEqual(held(p.vectorStore), await expected(s, itemDocument, "url,text"));
    } finally {
      await s.close();
    }
  });
});
