import { Router } from "itty-router";
import { answerKey, filterItems, paginate } from "../feed/filter.ts";
import { createSearchTexts, type ReadBody } from "../feed/search_text.ts";
import { parseQuery } from "../feed/query.ts";
import {
  type FeedBytes,
  pageLinks,
  renderFeedBytes,
  renderFullFeed,
  renderItem,
  renderSitemap,
} from "../feed/render.ts";
import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import { quoteValue } from "../quote.ts";
import { openApiDocument } from "./openapi.ts";
import { createResponseCache, DEFAULT_CACHE_BYTES } from "./response_cache.ts";
import {
  answerNow,
  type HttpSettings,
  represent,
  type Representation,
  sendPreflight,
  sendProblem,
  sendRepresentation,
} from "./respond.ts";

/** What the HTTP layer needs from the rest of the service. */
export interface HandlerOptions extends HttpSettings {
  /** The current index (read once per request, so a swap never splits one). */
  readonly index: () => Index;
  /** Configured base URL without trailing slash; `undefined` means the request's origin. */
  readonly baseUrl: string | undefined;
  /** Where the detail of a 500 goes. */
  readonly logError: (message: string) => void;
  /**
   * Reads the body of an item that does not hold it (an index from the
   * server's loader); `undefined` when its file changed since the index was
   * built. Without it, every item must hold its body.
   */
  readonly readBody?: ReadBody;
  /** Brings the index up to date with items' files, once `readBody` found them changed. */
  readonly refresh?: (items: readonly Item[]) => Promise<unknown>;
  /** Bytes the response cache may hold (default {@link DEFAULT_CACHE_BYTES}, 64 MB). */
  readonly cacheBytes?: number;
}

const JSON_TYPE = "application/json; charset=utf-8";
const XML_TYPE = "application/xml; charset=utf-8";
/** Longer request URLs are answered 414. */
export const MAX_URL = 8192;
/** Request URLs remembered for the answer without routing (each at most {@link MAX_URL} long). */
const URL_ALIASES = 256;
/** How often one request follows a file that keeps changing under it before it answers 503. */
const RETRIES = 3;
/**
 * A `Host` header that can name an origin: a name or IPv4 address, or an
 * IPv6 address in brackets, and an optional port. Anything else (`a b`,
 * `a/b?`) is a 400: under Deno the request URL is the Host and the path
 * joined, so a Host holding `/` or `?` would steer routing.
 */
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

interface Made {
  type: string;
  body: string | Uint8Array;
}

interface Routed {
  method: string;
  url: string;
  request: Request;
  index: Index;
  base: string;
  params: Record<string, string>;
}

/** A cached answer: its representation once made (and its promise while it is made). */
interface Slot {
  readonly pending: Promise<Representation>;
  made?: Representation;
}

/** A request URL's answer, for the fast path: where its representation is and its own headers. */
interface Alias {
  readonly key: string;
  readonly extra: Record<string, string> | undefined;
}

/** The service's `fetch`, and the same with a synchronous answer where the response cache has one. */
export interface Handler {
  (request: Request): Promise<Response>;
  /**
   * Answers as the handler does, but returns the `Response` itself, not a
   * promise, when a representation made for the same URL answers it (a
   * repeated GET or HEAD, a 304): servers that accept either (`Deno.serve`,
   * `Bun.serve`, srvx) skip a promise per request.
   */
  respond(request: Request): Response | Promise<Response>;
}

/**
 * Builds the service's `fetch(Request)` (SPEC 6–9): the feed, item JSON
 * forms, sitemap and OpenAPI routes under the base URL's path, `HEAD` beside
 * every `GET`, `405` for other methods, `OPTIONS` preflights, and
 * problem+json for every error. Answers are cached per index version, one
 * representation per answer (not per spelling of its URL), in a cache
 * bounded by bytes (SPEC 9); the full feed of the index's base URL is part
 * of the index's own cost, made once per index, outside that budget.
 *
 * @example
 * ```ts
 * import { createHandler } from "./router.ts";
 * const fetch = createHandler({ index: () => index, baseUrl: undefined, cors: true,
 *   cacheControl: "public, max-age=60", logError: console.error });
 * const response = await fetch(new Request("http://localhost/api/content.json"));
 * ```
 */
export function createHandler(options: HandlerOptions): Handler {
  const basePath = options.baseUrl ? new URL(options.baseUrl).pathname.replace(/\/+$/, "") : "";
  const cache = createResponseCache<Slot | FeedBytes>(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  // Request URL → its answer's key: a repeated GET skips routing, parsing and every await.
  const urls = new Map<string, Alias>();
  /** The index whose answers the caches hold. */
  let current: Index | undefined;
  /**
   * What is made once per index, outside the budget: the full feed's bytes
   * and its representation for one base URL (the configured one, else the
   * first one asked for). No request can make more of it.
   */
  let own: { base: string; key: string; full?: FeedBytes; feed?: Slot } | undefined;
  const ownFor = (base: string) => ({ base, key: `${base}\nfeed` });
  const follow = (index: Index) => {
    if (index === current) return;
    current = index;
    cache.clear();
    urls.clear();
    own = options.baseUrl === undefined ? undefined : ownFor(options.baseUrl);
  };
  const isOwn = (r: Routed) => {
    if (r.index !== current) return false;
    own ??= ownFor(r.base);
    return own.base === r.base;
  };

  const textsOf = options.readBody
    ? createSearchTexts(options.readBody, (items) => void refresh(items))
    : undefined;
  const refresh = (items: readonly Item[]) =>
    options.refresh?.(items).catch((error) =>
      options.logError(`re-indexing ${items.map((item) => item.file).join(", ")} failed: ${error}`)
    );
  const lookup = (key: string): Slot | undefined =>
    own !== undefined && key === `${own.base}\nfeed`
      ? own.feed
      : cache.get(key) as Slot | undefined;
  const isCached = (r: Routed, key: string) =>
    r.index === current && lookup(`${r.base}\n${key}`) !== undefined;

  /** The full feed's bytes for the request's base, made once per index and base. */
  const fullFeed = (r: Routed): FeedBytes => {
    if (isOwn(r)) return own!.full ??= renderFullFeed(r.index, r.base);
    if (r.index !== current) return renderFullFeed(r.index, r.base);
    const key = `${r.base}\nfeed-bytes`;
    let full = cache.get(key) as FeedBytes | undefined;
    if (!full) {
      full = renderFullFeed(r.index, r.base);
      cache.set(key, full, full.bytes.length + full.starts.byteLength);
    }
    return full;
  };

  /** Sends the answer kept under `key`, making it first when there is none. */
  const send = async (
    r: Routed,
    key: string,
    make: () => Made,
    extra?: Record<string, string>,
  ): Promise<Response> => {
    const full = `${r.base}\n${key}`;
    const usable = r.index === current;
    const pinned = usable && key === "feed" && isOwn(r);
    let slot = usable ? lookup(full) : undefined;
    if (!slot) {
      const { type, body } = make();
      const made: Slot = { pending: represent(type, body, options, r.index.builtAt) };
      slot = made;
      if (pinned) own!.feed = made;
      else if (usable) cache.set(full, made, 0);
      made.pending.then((rep) => {
        made.made = rep;
        if (!pinned) cache.resize(full, made, rep.held());
      }, () => {
        if (!pinned) cache.resize(full, made, 0);
      });
    }
    const rep = await slot.pending;
    const response = await sendRepresentation(r.request, rep, options, extra);
    if (!pinned && usable) cache.resize(full, slot, rep.held()); // an encoding may have been made
    if (usable && r.request.url.length <= MAX_URL) {
      if (urls.size >= URL_ALIASES) urls.delete(urls.keys().next().value!);
      urls.set(r.request.url, { key: full, extra });
    }
    return response;
  };
  const problem = (r: Routed, status: number, detail: string, extra?: Record<string, string>) =>
    sendProblem(r.request, status, detail, options, extra);
  const notFound = (r: Routed) => problem(r, 404, `nothing at ${new URL(r.request.url).pathname}`);

  const feed = async (r: Routed) => {
    if (!r.index.settings.api) return notFound(r);
    const params = new URL(r.url).searchParams;
    const parsed = parseQuery(params, r.index);
    if (parsed.problem) return problem(r, 400, parsed.problem.detail);
    const filters = parsed.filters;
    // The first search of an index reads the bodies it does not hold (SPEC 6.1 searches them);
    // later ones get the same texts back.
    const contains = filters.search && textsOf ? await textsOf(r.index) : undefined;
    const page = paginate(filterItems(r.index, filters, contains), filters);
    // The Link header keeps the request's own spelling of its query; the body is the answer's.
    const link = pageLinks(`${r.base}/api/content.json`, params, page);
    const key = answerKey(filters, page);
    return send(
      r,
      key ? `feed?${key}` : "feed",
      () => ({ type: JSON_TYPE, body: renderFeedBytes(r.index, page, r.base, fullFeed(r)) }),
      link ? { Link: link } : undefined,
    );
  };
  const sitemap = (r: Routed) => {
    if (!r.index.settings.sitemap) return notFound(r);
    return send(r, "sitemap", () => ({ type: XML_TYPE, body: renderSitemap(r.index, r.base) }));
  };
  const openapi = (r: Routed) =>
    send(r, "openapi", () => ({
      type: JSON_TYPE,
      body: JSON.stringify(openApiDocument(r.index, r.base)),
    }));
  /** `tries`: earlier tries of this request, each ended by the index catching up with a changed file. */
  const item = async (r: Routed, tries = 0): Promise<Response> => {
    let key: string;
    try {
      key = `${decodeURIComponent(r.params.type)}/${decodeURIComponent(r.params.uri)}`;
    } catch {
      return notFound(r);
    }
    const found = r.index.byPath.get(key);
    if (!found) return notFound(r);
    let body = found.body;
    if (body === undefined && options.readBody && !isCached(r, `item:${key}`)) {
      body = await options.readBody(found);
      if (body === undefined) {
        // The file changed (or went away) since this index was built: catch
        // up with it and answer from the new index, never one version's
        // body under another version's fields.
        await refresh([found]);
        const next = options.index();
        if (tries < RETRIES && next !== r.index) return item({ ...r, index: next }, tries + 1);
        return problem(r, 503, `${found.file} changed while it was read; try again`, {
          "Retry-After": "1",
        });
      }
    }
    return send(
      r,
      `item:${key}`,
      () => ({ type: JSON_TYPE, body: renderItem(found, r.base, body) }),
    );
  };

  const router = Router<Routed>({ base: basePath });
  for (const method of ["get", "head"] as const) {
    router[method]("/api/content.json", feed);
    router[method]("/api/openapi.json", openapi);
    router[method]("/sitemap.xml", sitemap);
    router[method]("/:type/:uri+.json", item);
  }
  router.options("*", () => sendPreflight(options));
  // itty-router has no 405 of its own: a known path with another method lands here.
  const known = new RegExp(
    `^${escape(basePath)}/(?:api/content\\.json|api/openapi\\.json|sitemap\\.xml|[^/]+/.+\\.json)$`,
  );
  router.all("*", (r) => {
    if (r.method === "GET" || r.method === "HEAD" || !known.test(new URL(r.url).pathname)) {
      return notFound(r);
    }
    return problem(r, 405, `${r.method} is not allowed; use GET or HEAD`, { Allow: "GET, HEAD" });
  });

  /** A repeated GET or HEAD, answered from the representation made for its URL: no routing, no await. */
  const fromCache = (request: Request): Response | undefined => {
    const method = request.method;
    if (method !== "GET" && method !== "HEAD") return undefined;
    if (options.index() !== current) return undefined;
    const alias = urls.get(request.url);
    const made = alias && lookup(alias.key)?.made;
    if (!made) return undefined;
    try {
      return answerNow(request, made, options, alias.extra);
    } catch {
      return undefined; // answered through the router and its error handling
    }
  };

  const handle = async (request: Request): Promise<Response> => {
    const index = options.index();
    follow(index);
    const routed: Routed = {
      method: request.method,
      url: request.url,
      request,
      index,
      base: options.baseUrl ?? "",
      params: {},
    };
    try {
      if (request.url.length > MAX_URL) {
        return problem(routed, 414, `the URL is longer than ${MAX_URL} characters`);
      }
      const host = request.headers.get("Host");
      const port = host === null ? undefined : HOST.exec(host);
      let url: URL | undefined;
      try {
        url = new URL(request.url);
      } catch { /* answered below */ }
      if (url === undefined || port === null || (port?.[1] !== undefined && +port[1] > 65535)) {
        const shown = host === null ? "" : ` ${quoteValue(host)}`;
        return problem(routed, 400, `the Host header${shown} does not name a host (name[:port])`);
      }
      routed.base = options.baseUrl ?? url.origin;
      if (basePath && url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) {
        // Mounted by a host that strips the prefix (Hono's app.mount): route as if it were there.
        routed.url = `${url.origin}${basePath}${url.pathname}${url.search}`;
      }
      return (await router.fetch(routed) as Response | undefined) ?? notFound(routed);
    } catch (error) {
      options.logError(`${request.method} ${request.url}: ${(error as Error)?.stack ?? error}`);
      return problem(
        routed,
        500,
        "the server could not answer this request; the log has the details",
      );
    }
  };
  const respond = (request: Request) => fromCache(request) ?? handle(request);
  return Object.assign((request: Request) => Promise.resolve(respond(request)), { respond });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
