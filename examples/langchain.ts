// LangChain.js's `index()` kept in step with a content feed (SPEC 12)
// through content-feed/client: each batch of changes is indexed (new and
// changed items embedded, unchanged ones skipped, an item's old chunks
// cleaned up), each deleted id's chunks are deleted through the record
// manager, and a listing (`since=0`, or a start over after a 410) ends
// with a full clean-up of whatever it did not name. The cursor and the
// clean-up's start are saved after every batch, so a stopped sync goes on.
//
//   deno run -A examples/langchain.ts http://localhost:8000 "how do I deploy"
//
// Also runs under `node` and `bun`. It uses in-memory stores and synthetic
// embeddings (nothing leaves the machine); a pipeline passes its own
// record manager (a SQL one) and vector store, and its own embeddings. In
// your own project, import the client as `content-feed/client`.
import process from "node:process";
import { Document, type DocumentInterface } from "@langchain/core/documents";
import {
  index,
  type ListKeyOptions,
  RecordManager,
  type RecordManagerInterface,
  type UpdateOptions,
} from "@langchain/core/indexing";
import { FakeVectorStore, SyntheticEmbeddings } from "@langchain/core/utils/testing";
import type { VectorStore } from "@langchain/core/vectorstores";
import { FeedClient, type FeedItem } from "../client.ts";

/** Where a sync stands; save it after every batch (`indexFeed` calls `save`). */
export interface SyncState {
  /** The feed's cursor: `"0"` before the first sync. */
  cursor: string;
  /**
   * While a listing runs (a first sync, or one started over): the record
   * manager's time when it began. Keys not touched since are of items the
   * listing did not name: deleted once it ends.
   */
  cleanupBefore?: number;
}

/** What one `indexFeed` did. */
export interface IndexCounts {
  added: number;
  updated: number;
  skipped: number;
  deleted: number;
  batches: number;
}

/** What `indexFeed` works with. */
export interface IndexFeedOptions {
  readonly client: FeedClient;
  readonly recordManager: RecordManagerInterface;
  readonly vectorStore: VectorStore;
  /** The state saved last (`{ cursor: "0" }` at first). */
  readonly state: SyncState;
  /** Saves the state: called after every batch, once its changes are in the stores. */
  readonly save: (state: SyncState) => Promise<void> | void;
  /** An item's documents (default: one, its title and text); each must carry `metadata.id`. */
  readonly toDocuments?: (item: FeedItem) => DocumentInterface[];
  /** The fields the documents need (default `url` and `text`). */
  readonly include?: readonly string[];
  /** Items per batch (default 100). */
  readonly limit?: number;
  /** Only items of this type (their deletions included). */
  readonly type?: string;
}

/** One document per item: its title and plain text, with what a search result shows. */
export function itemDocument(item: FeedItem): DocumentInterface[] {
  return [
    new Document({
      pageContent: `${item.title}\n\n${item.text ?? item.description}`,
      // Not the tags: their counts change with other items, and would re-embed this one.
      metadata: {
        id: item.id,
        title: item.title,
        link: item.link,
        url: item.url ?? null,
        type: item.type,
        checksum: item.checksum,
        last_update: item.last_update,
      },
    }),
  ];
}

/**
 * Brings a vector store up to date with the feed: the changes since
 * `state.cursor`, batch by batch, through LangChain's `index()` with the
 * record manager (incremental clean-up by item id), deletions included.
 */
export async function indexFeed(options: IndexFeedOptions): Promise<IndexCounts> {
  const { client, recordManager, vectorStore, save } = options;
  const toDocuments = options.toDocuments ?? itemDocument;
  const state: SyncState = { ...options.state };
  const counts: IndexCounts = { added: 0, updated: 0, skipped: 0, deleted: 0, batches: 0 };
  // A listing from the start: what the store holds and the listing does not name is stale.
  if (state.cursor === "0") state.cleanupBefore ??= await recordManager.getTime();
  const batches = client.changes({
    since: state.cursor,
    include: options.include ?? ["url", "text"],
    limit: options.limit ?? 100,
    ...(options.type !== undefined ? { type: options.type } : {}),
  });
  for await (const batch of batches) {
    counts.batches++;
    // The server began a new journal: the sync started over from a listing.
    if (batch.reset) state.cleanupBefore = await recordManager.getTime();
    const docs = batch.upserts.flatMap(toDocuments);
    if (docs.length > 0) {
      const result = await index({
        docsSource: docs,
        recordManager,
        vectorStore,
        // One index() batch for the whole page: an item's chunks are cleaned up together.
        options: { cleanup: "incremental", sourceIdKey: "id", batchSize: docs.length },
      });
      counts.added += result.numAdded;
      counts.updated += result.numUpdated;
      counts.skipped += result.numSkipped;
      counts.deleted += result.numDeleted;
    }
    counts.deleted += await deleteItems(recordManager, vectorStore, batch.deletions);
    state.cursor = batch.cursor;
    if (!batch.more && state.cleanupBefore !== undefined) {
      counts.deleted += await deleteUntouched(recordManager, vectorStore, state.cleanupBefore);
      delete state.cleanupBefore;
    }
    await save({ ...state });
  }
  return counts;
}

/**
 * Deletes every chunk of the items `ids` from the store and the record
 * manager. Never with no ids: a record manager asked for the keys of no
 * group (`groupIds: []`) may answer every key (Python's
 * `SQLRecordManager.list_keys(group_ids=[])` does), and the store would be
 * wiped.
 */
export async function deleteItems(
  recordManager: RecordManagerInterface,
  vectorStore: VectorStore,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const keys = await recordManager.listKeys({ groupIds: [...ids] });
  if (keys.length === 0) return 0;
  await vectorStore.delete({ ids: keys });
  await recordManager.deleteKeys(keys);
  return keys.length;
}

/** Deletes the chunks whose keys were last touched before `before` (a listing's full clean-up). */
async function deleteUntouched(
  recordManager: RecordManagerInterface,
  vectorStore: VectorStore,
  before: number,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const keys = await recordManager.listKeys({ before, limit: 1000 });
    if (keys.length === 0) return deleted;
    await vectorStore.delete({ ids: keys });
    await recordManager.deleteKeys(keys);
    deleted += keys.length;
  }
}

/**
 * A record manager in memory (use a durable one, a SQL record manager, in
 * a pipeline). Like LangChain's SQL record managers, `listKeys` with an
 * empty `groupIds` filters nothing: `deleteItems` must never ask it.
 */
export class MemoryRecordManager extends RecordManager {
  override lc_namespace = ["content-feed", "examples", "langchain"];
  #records = new Map<string, { updatedAt: number; groupId: string | null }>();
  #clock = 0;

  createSchema(): Promise<void> {
    return Promise.resolve();
  }

  /** Strictly increasing: `index()` tells its own writes from older ones by it. */
  getTime(): Promise<number> {
    this.#clock = Math.max(Date.now(), this.#clock + 1);
    return Promise.resolve(this.#clock);
  }

  async update(keys: string[], options: UpdateOptions = {}): Promise<void> {
    const now = await this.getTime();
    if (options.timeAtLeast !== undefined && now < options.timeAtLeast) {
      throw new Error(`time ${now} is before ${options.timeAtLeast}`);
    }
    if (options.groupIds && options.groupIds.length !== keys.length) {
      throw new Error("as many groupIds as keys");
    }
    keys.forEach((key, i) => {
      this.#records.set(key, { updatedAt: now, groupId: options.groupIds?.[i] ?? null });
    });
  }

  exists(keys: string[]): Promise<boolean[]> {
    return Promise.resolve(keys.map((key) => this.#records.has(key)));
  }

  listKeys(options: ListKeyOptions = {}): Promise<string[]> {
    const { before, after, groupIds, limit } = options;
    const keys: string[] = [];
    for (const [key, record] of this.#records) {
      if (before !== undefined && record.updatedAt >= before) continue;
      if (after !== undefined && record.updatedAt <= after) continue;
      if (groupIds && groupIds.length > 0 && !groupIds.includes(record.groupId)) continue;
      keys.push(key);
      if (limit !== undefined && keys.length >= limit) break;
    }
    return Promise.resolve(keys);
  }

  deleteKeys(keys: string[]): Promise<void> {
    for (const key of keys) this.#records.delete(key);
    return Promise.resolve();
  }
}

/** LangChain's in-memory test store, keeping each document under the id `index()` gives it. */
export class KeyedVectorStore extends FakeVectorStore {
  #byId = new Map<
    string,
    { content: string; embedding: number[]; metadata: Record<string, unknown> }
  >();

  override async addDocuments(
    documents: DocumentInterface[],
    options?: { ids?: string[] },
  ): Promise<void> {
    const vectors = await this.embeddings.embedDocuments(documents.map((d) => d.pageContent));
    await this.addVectors(vectors, documents, options);
  }

  override addVectors(
    vectors: number[][],
    documents: DocumentInterface[],
    options?: { ids?: string[] },
  ): Promise<void> {
    vectors.forEach((embedding, i) => {
      const { pageContent: content, metadata } = documents[i];
      this.#byId.set(options?.ids?.[i] ?? crypto.randomUUID(), { content, embedding, metadata });
    });
    this.memoryVectors = [...this.#byId.values()];
    return Promise.resolve();
  }

  override delete(params: { ids: string[] }): Promise<void> {
    for (const id of params.ids) this.#byId.delete(id);
    this.memoryVectors = [...this.#byId.values()];
    return Promise.resolve();
  }

  /** The documents held, by id. */
  documents(): Map<string, { content: string; metadata: Record<string, unknown> }> {
    return new Map(
      [...this.#byId].map(([id, { content, metadata }]) => [id, { content, metadata }]),
    );
  }
}

if (import.meta.main ?? process.argv[1]?.endsWith("langchain.ts")) {
  const [site, query] = process.argv.slice(2);
  if (!site) {
    console.error("usage: langchain.ts <site URL> [query]");
    process.exit(2);
  }
  const vectorStore = new KeyedVectorStore(new SyntheticEmbeddings({ vectorSize: 16 }));
  const counts = await indexFeed({
    client: new FeedClient(site),
    recordManager: new MemoryRecordManager(),
    vectorStore,
    state: { cursor: "0" },
    save: (state) => console.log(`saved cursor ${state.cursor}`),
  });
  console.log(JSON.stringify(counts));
  if (query) {
    for (const [doc, score] of await vectorStore.similaritySearchWithScore(query, 5)) {
      console.log(`${score.toFixed(3)}\t${doc.metadata.id}\t${doc.metadata.title}`);
    }
  }
}
