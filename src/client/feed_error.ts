// A request the feed did not answer as asked: its status (none after a
// network error), its URL, and the problem's detail when the server gave one.

/**
 * A request to the feed that failed: a `4xx` other than those the client
 * handles (`404` from `item`, `410` from `changes`), a `5xx` or a network
 * error after its retries, or an answer that is not the protocol's (a
 * server that would make the client loop).
 *
 * @example
 * ```ts
 * import { FeedClient, FeedError } from "../../client.ts";
 * const client = new FeedClient("http://localhost:8000");
 * try {
 *   for await (const batch of client.changes({ type: "nope" })) console.log(batch.cursor);
 * } catch (error) {
 *   if (error instanceof FeedError && error.status === 400) console.error(error.detail);
 * }
 * ```
 */
export class FeedError extends Error {
  /** The HTTP status; `undefined` after a network error or for an answer outside the protocol. */
  readonly status: number | undefined;
  /** The URL asked. */
  readonly url: string;
  /** The server's explanation (a problem's `detail`), when it gave one. */
  readonly detail: string | undefined;

  /**
   * An error for a request to `init.url`.
   *
   * @example
   * ```ts
   * import { FeedError } from "./feed_error.ts";
   * new FeedError("http://localhost:8000/api/content.json: 400", {
   *   status: 400,
   *   url: "http://localhost:8000/api/content.json",
   * });
   * ```
   */
  constructor(
    message: string,
    init: { status?: number; url: string; detail?: string; cause?: unknown },
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "FeedError";
    this.status = init.status;
    this.url = init.url;
    this.detail = init.detail;
  }
}
