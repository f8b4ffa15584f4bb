// The feed's client (SPEC 12, 7): a sync as an async iterator of batches
// that pages, starts over on a 410 and retries what passes; an item by id
// or link; the manifest. Web standards only (fetch, URL, AbortSignal), so
// one file runs in Deno, Bun, Node and browsers.
import { FeedError } from "./feed_error.ts";
import { getJson, RETRY_DEFAULTS, type RetrySettings } from "./retry.ts";
import type {
  ChangeBatch,
  ChangesOptions,
  FeedClientOptions,
  FeedItem,
  ItemDetail,
  Manifest,
  ManifestOptions,
} from "./types.ts";

/** The largest `limit` the feed accepts (SPEC 6.1). */
const MAX_LIMIT = 10_000;
/** A batch's size when `limit` is not given: a page a client can hold, bodies included. */
const DEFAULT_LIMIT = 500;
/**
 * Starts over (`410`) one sync may make: one is a server that began a new
 * journal; more in a row is a server that cannot keep one, and the client
 * says so rather than loop.
 */
const MAX_RESETS = 3;

/** The feed's answer to `since` (SPEC 12), as far as the client reads it. */
interface ChangesPage {
  readonly meta: { readonly cursor: string; readonly more?: boolean };
  readonly data: readonly { readonly id: string }[];
  readonly deleted: readonly { readonly id: string }[];
}

/**
 * A client of a content-feed server: `changes()` keeps a mirror exact
 * (SPEC 12), `item()` reads one item's JSON form (SPEC 7), `manifest()`
 * lists the feed's ids with their checksums. It runs wherever `fetch` does
 * (Deno, Bun, Node, browsers) and needs nothing else.
 *
 * @example
 * ```ts
 * import { FeedClient } from "../../client.ts";
 * const client = new FeedClient("http://localhost:8000");
 * let cursor = "0"; // your saved cursor
 * for await (const batch of client.changes({ since: cursor, include: ["body"] })) {
 *   if (batch.reset) console.log("start over: clear the mirror");
 *   for (const item of batch.upserts) console.log("store", item.id, item.title);
 *   for (const id of batch.deletions) console.log("remove", id);
 *   cursor = batch.cursor; // save it with the changes
 * }
 * ```
 */
export class FeedClient {
  readonly #base: URL;
  readonly #fetch: (request: Request) => Promise<Response>;
  readonly #headers: Headers;
  readonly #retry: RetrySettings;
  /** Ids to links, from the last `fields=id,link` listing, with its ETag (for `item(id)`). */
  #links: { readonly etag: string | null; readonly byId: Map<string, string> } | undefined;

  /**
   * A client of the server at `baseUrl` (the site's base URL, where
   * `/api/content.json` is; a path prefix is kept).
   *
   * @example
   * ```ts
   * import { FeedClient } from "../../client.ts";
   * const client = new FeedClient("https://example.com/", {
   *   headers: { Authorization: "Bearer …" },
   *   retry: { retries: 3 },
   * });
   * ```
   */
  constructor(baseUrl: string | URL, options: FeedClientOptions = {}) {
    const base = new URL(baseUrl);
    if (!base.pathname.endsWith("/")) base.pathname += "/";
    base.search = "";
    base.hash = "";
    this.#base = base;
    this.#fetch = options.fetch ?? ((request) => fetch(request));
    this.#headers = new Headers(options.headers);
    if (!this.#headers.has("accept")) this.#headers.set("accept", "application/json");
    this.#retry = { ...RETRY_DEFAULTS, ...options.retry };
  }

  /**
   * The changes since `options.since` (default `"0"`: every current item,
   * listed as the feed was at the first batch, then what changed while it
   * paged), one batch per page, until the feed has no more. Apply each
   * batch, then save its `cursor`: the next sync starts there. A cursor the
   * server cannot answer (`410`: another journal, or older than its
   * retention) starts the sync over from `"0"`, and the first batch of it
   * has `reset: true` (clear the mirror first). Network errors and `5xx`
   * are retried (bounded, `Retry-After` respected); other errors are a
   * {@link FeedError}. A `limit` outside 1–10000 is a `RangeError` at once.
   *
   * @example
   * ```ts
   * import { FeedClient } from "../../client.ts";
   * const client = new FeedClient("http://localhost:8000");
   * const mirror = new Map<string, string>();
   * for await (const batch of client.changes({ include: "body", type: "docs", limit: 100 })) {
   *   if (batch.reset) mirror.clear();
   *   for (const item of batch.upserts) mirror.set(item.id, item.body ?? "");
   *   for (const id of batch.deletions) mirror.delete(id);
   * }
   * ```
   */
  changes<T extends { readonly id: string } = FeedItem>(
    options: ChangesOptions = {},
  ): AsyncIterableIterator<ChangeBatch<T>> {
    const limit = options.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      throw new RangeError(`limit must be an integer from 1 to ${MAX_LIMIT}, got ${limit}`);
    }
    const since = options.since ?? "0";
    if (typeof since !== "string" || since === "") {
      throw new TypeError(`since must be "0" or a cursor from a batch, got ${since}`);
    }
    const query = new URLSearchParams();
    for (const key of ["type", "category", "lang", "version"] as const) {
      const value = options[key];
      if (value !== undefined) query.set(key, value);
    }
    for (const key of ["include", "fields"] as const) {
      const value = options[key];
      if (value !== undefined) query.set(key, typeof value === "string" ? value : value.join(","));
    }
    query.set("limit", String(limit));
    return this.#changes<T>(since, query, options.signal);
  }

  async *#changes<T>(
    since: string,
    query: URLSearchParams,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ChangeBatch<T>> {
    let cursor = since;
    let reset = false;
    let resets = 0;
    /** The cursors asked in this sync: a server that gives one again would make it loop. */
    const asked = new Set<string>();
    let url = this.#feedUrl(query, cursor);
    for (;;) {
      asked.add(cursor);
      const { response, body } = await this.#get(url, signal);
      if (response.status === 410) {
        const detail = (body as { detail?: string } | undefined)?.detail;
        if (cursor === "0" || ++resets > MAX_RESETS) {
          const what = cursor === "0" ? "since=0 itself" : `${resets} cursors in one sync`;
          throw new FeedError(
            `${url}: 410 Gone for ${what}: the server cannot keep its journal${
              detail ? ` (${detail})` : ""
            }`,
            { status: 410, url: url.href, detail },
          );
        }
        cursor = "0";
        reset = true;
        asked.clear();
        url = this.#feedUrl(query, cursor);
        continue;
      }
      if (!response.ok) throw failed(url, response, body);
      const page = changesPage(body, url);
      const more = page.meta.more === true;
      const next = more ? this.#nextUrl(response, query, page.meta.cursor) : undefined;
      const nextCursor = next?.searchParams.get("since") ?? page.meta.cursor;
      if (more && asked.has(nextCursor)) {
        throw new FeedError(
          `${url}: the server answered more: true with the cursor ${
            JSON.stringify(nextCursor)
          } a second time; following it would loop`,
          { status: response.status, url: url.href },
        );
      }
      yield {
        upserts: page.data as unknown as readonly T[],
        deletions: page.deleted.map((entry) => entry.id),
        cursor: page.meta.cursor,
        reset,
        more,
      };
      reset = false;
      if (!next) return;
      cursor = nextCursor;
      url = next;
    }
  }

  /**
   * One item's JSON form (SPEC 7: the feed's fields, `body`, `parent`,
   * `children`, and what `include` adds), by its `id` or its `link`; or
   * `undefined` when the feed does not serve it. A link is asked of this
   * client's server, by its path (a server behind a proxy writes its public
   * host in links). An id is looked up among the feed's links (one small
   * request, revalidated by its ETag when an id is not found).
   *
   * @example
   * ```ts
   * import { FeedClient } from "../../client.ts";
   * const client = new FeedClient("http://localhost:8000");
   * const guide = await client.item("docs_doc_guide", { include: ["sections"] });
   * console.log(guide?.title, guide?.children);
   * ```
   */
  async item<T = ItemDetail>(
    idOrLink: string,
    options: { readonly include?: readonly string[] | string; readonly signal?: AbortSignal } = {},
  ): Promise<T | undefined> {
    const link = idOrLink.includes("/") ? idOrLink : await this.#linkOf(idOrLink, options.signal);
    if (link === undefined) return undefined;
    const url = this.#onOwnServer(link);
    const include = options.include;
    if (include !== undefined) {
      url.searchParams.set("include", typeof include === "string" ? include : include.join(","));
    }
    const { response, body } = await this.#get(url, options.signal);
    if (response.status === 404) return undefined;
    if (!response.ok) throw failed(url, response, body);
    return body as T;
  }

  /**
   * The feed's manifest (`fields=id,checksum,last_update`): every item's
   * id, checksum and last update, and the cursor of the index that
   * answered. Enough to find what a store holds that the feed no longer
   * has, without a journal.
   *
   * @example
   * ```ts
   * import { FeedClient } from "../../client.ts";
   * const client = new FeedClient("http://localhost:8000");
   * const { items, cursor } = await client.manifest({ type: "docs" });
   * const ids = new Set(items.map((entry) => entry.id));
   * console.log(ids.size, cursor);
   * ```
   */
  async manifest(options: ManifestOptions = {}): Promise<Manifest> {
    const query = new URLSearchParams({ fields: "id,checksum,last_update" });
    for (const key of ["type", "category", "lang", "version"] as const) {
      const value = options[key];
      if (value !== undefined) query.set(key, value);
    }
    const url = this.#endpoint(query);
    const { response, body } = await this.#get(url, options.signal);
    if (!response.ok) throw failed(url, response, body);
    const feed = body as {
      meta?: { cursor?: string; generated?: string };
      data?: Manifest["items"];
    };
    if (!feed?.meta || !Array.isArray(feed.data)) {
      throw new FeedError(`${url}: not a feed`, { status: response.status, url: url.href });
    }
    return {
      cursor: feed.meta.cursor ?? "",
      generated: feed.meta.generated ?? "",
      items: feed.data,
    };
  }

  /** One GET of `url` with the client's headers and retries. */
  #get(url: URL, signal?: AbortSignal): ReturnType<typeof getJson> {
    return getJson(this.#fetch, url, this.#headers, this.#retry, signal);
  }

  /** `/api/content.json` under the base, with `query`. */
  #endpoint(query: URLSearchParams): URL {
    const url = new URL("api/content.json", this.#base);
    url.search = query.toString();
    return url;
  }

  #feedUrl(query: URLSearchParams, since: string): URL {
    const withSince = new URLSearchParams(query);
    withSince.set("since", since);
    return this.#endpoint(withSince);
  }

  /**
   * The next page: the query of `Link: rel="next"` (the server's own
   * spelling) asked of this client's server, else the query with `since`
   * set to the page's cursor.
   */
  #nextUrl(response: Response, query: URLSearchParams, cursor: string): URL {
    const link = nextLink(response.headers.get("link"));
    if (link !== undefined) {
      const next = new URL(link, this.#base);
      if (next.searchParams.has("since")) return this.#endpoint(next.searchParams);
    }
    return this.#feedUrl(query, cursor);
  }

  /** A link's path and query, on this client's server. */
  #onOwnServer(link: string): URL {
    const url = new URL(link, this.#base);
    return new URL(url.pathname + url.search, this.#base.origin);
  }

  /** The link of an id of the feed, from the feed's ids and links (asked again when not found). */
  async #linkOf(id: string, signal: AbortSignal | undefined): Promise<string | undefined> {
    const known = this.#links?.byId.get(id);
    if (known !== undefined) return known;
    const url = this.#endpoint(new URLSearchParams({ fields: "id,link" }));
    const headers = new Headers(this.#headers);
    if (this.#links?.etag) headers.set("if-none-match", this.#links.etag);
    const { response, body } = await getJson(this.#fetch, url, headers, this.#retry, signal);
    if (response.status === 304) return undefined;
    if (!response.ok) throw failed(url, response, body);
    const data = (body as { data?: { id: string; link: string }[] } | undefined)?.data ?? [];
    this.#links = {
      etag: response.headers.get("etag"),
      byId: new Map(data.map((entry) => [entry.id, entry.link])),
    };
    return this.#links.byId.get(id);
  }
}

/** The URL of `rel="next"` in a `Link` header (RFC 8288), if any. */
function nextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel="?(?:[^";]*\s)?next(?:\s[^";]*)?"?\s*(?:;|$)/i.test(match[2])) {
      return match[1];
    }
  }
  return undefined;
}

/** The body of a `since` answer, checked to be one. */
function changesPage(body: unknown, url: URL): ChangesPage {
  const page = body as Partial<ChangesPage> | undefined;
  if (
    typeof page?.meta?.cursor !== "string" || !Array.isArray(page.data) ||
    !Array.isArray(page.deleted)
  ) {
    throw new FeedError(`${url}: not an answer to since (no meta.cursor, data or deleted)`, {
      url: url.href,
    });
  }
  return page as ChangesPage;
}

function failed(url: URL, response: Response, body: unknown): FeedError {
  const detail = (body as { detail?: unknown } | undefined)?.detail;
  const text = typeof detail === "string" ? detail : undefined;
  return new FeedError(`${url}: ${response.status}${text ? `: ${text}` : ""}`, {
    status: response.status,
    url: url.href,
    detail: text,
  });
}
