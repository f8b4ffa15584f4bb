/**
 * content-feed's client: keep a mirror of a content feed exact, one small
 * request per sync, with nothing but `fetch` (Deno, Bun, Node, browsers).
 *
 * `new FeedClient(baseUrl)`; `client.changes({ since })` is an async
 * iterator of batches `{ upserts, deletions, cursor, reset, more }`: it
 * follows the pages, starts over from `since=0` on a `410` (the batch says
 * `reset: true`), and retries network errors and `5xx` with backoff.
 * `client.item(idOrLink)` and `client.manifest()` read one item and the
 * feed's ids. See docs/sync.md.
 *
 * @example
 * ```ts
 * import { FeedClient } from "./client.ts";
 * const client = new FeedClient("http://localhost:8000");
 * const mirror = new Map<string, unknown>();
 * let cursor = "0";
 * for await (const batch of client.changes({ since: cursor, include: ["body"] })) {
 *   if (batch.reset) mirror.clear();
 *   for (const item of batch.upserts) mirror.set(item.id, item);
 *   for (const id of batch.deletions) mirror.delete(id);
 *   cursor = batch.cursor;
 * }
 * ```
 *
 * @module
 */
export { FeedClient } from "./src/client/feed_client.ts";
export { FeedError } from "./src/client/feed_error.ts";
export type {
  ChangeBatch,
  ChangesOptions,
  FeedClientOptions,
  FeedItem,
  FeedSection,
  FeedTag,
  ItemDetail,
  Manifest,
  ManifestEntry,
  ManifestOptions,
  RetryOptions,
} from "./src/client/types.ts";
