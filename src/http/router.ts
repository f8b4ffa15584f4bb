import { Router } from "itty-router";
import { filterItems, paginate } from "../feed/filter.ts";
import { createSearchTexts, type ReadBody } from "../feed/search_text.ts";
import { parseQuery } from "../feed/query.ts";
import { pageLinks, renderFeedBytes, renderItem, renderSitemap } from "../feed/render.ts";
import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import { openApiDocument } from "./openapi.ts";
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
}

const JSON_TYPE = "application/json; charset=utf-8";
const XML_TYPE = "application/xml; charset=utf-8";
/** Longer request URLs are answered 414. */
export const MAX_URL = 8192;
const CACHE_ENTRIES = 256;
/** How often one request follows a file that keeps changing under it before it answers 503. */
const RETRIES = 3;

interface Made {
  type: string;
  body: string | Uint8Array;
  headers?: Record<string, string>;
}

interface Routed {
  method: string;
  url: string;
  request: Request;
  index: Index;
  base: string;
  params: Record<string, string>;
}

/** The service's `fetch`, and the same with a synchronous answer where the response cache has one. */
export interface Handler {
  (request: Request): Promise<Response>;
  /**
   * Answers as the handler does, but returns the `Response` itself, not a
   * promise, when a representation made for the same URL answers it (a
   * repeated GET or HEAD, a 304): servers that accept either (`Deno.serve`,
   * `Bun.serve`, srvx) skip a promise per request (about a fifth more 304s a
   * second under Deno).
   */
  respond(request: Request): Response | Promise<Response>;
}

/**
 * Builds the service's `fetch(Request)` (SPEC 6–9): the feed, item JSON
 * forms, sitemap and OpenAPI routes under the base URL's path, `HEAD` beside
 * every `GET`, `405` for other methods, `OPTIONS` preflights, and
 * problem+json for every error. Responses are cached per index version, so
 * a repeated request costs about what its bytes cost.
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
  const caches = new WeakMap<Index, Map<string, Promise<Representation>>>();
  // Request URL → representation, per index, once it is made: a repeated GET
  // skips routing, parsing and every await.
  const byUrl = new WeakMap<Index, Map<string, Representation>>();

  const textsOf = options.readBody
    ? createSearchTexts(options.readBody, (items) => void refresh(items))
    : undefined;
  const refresh = (items: readonly Item[]) =>
    options.refresh?.(items).catch((error) =>
      options.logError(`re-indexing ${items.map((item) => item.file).join(", ")} failed: ${error}`)
    );
  const isCached = (r: Routed, key: string) =>
    caches.get(r.index)?.has(`${r.base}\n${key}`) ?? false;

  const cached = (r: Routed, key: string, make: () => Made): Promise<Representation> => {
    let cache = caches.get(r.index);
    if (!cache) caches.set(r.index, cache = new Map());
    const full = `${r.base}\n${key}`;
    let rep = cache.get(full);
    if (rep) {
      cache.delete(full); // most recently used goes last
    } else {
      if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      const { type, body, headers } = make();
      rep = represent(type, body, options, r.index.builtAt, headers);
    }
    cache.set(full, rep);
    const url = r.request.url;
    rep.then((made) => {
      let urls = byUrl.get(r.index);
      if (!urls) byUrl.set(r.index, urls = new Map());
      if (urls.size >= CACHE_ENTRIES) urls.delete(urls.keys().next().value!);
      urls.set(url, made);
    }, () => {});
    return rep;
  };
  const send = async (r: Routed, pending: Promise<Representation>) => {
    return sendRepresentation(r.request, await pending, options);
  };
  const problem = (r: Routed, status: number, detail: string, extra?: Record<string, string>) =>
    sendProblem(r.request, status, detail, options, extra);
  const notFound = (r: Routed) => problem(r, 404, `nothing at ${new URL(r.request.url).pathname}`);

  const feed = async (r: Routed) => {
    if (!r.index.settings.api) return notFound(r);
    const params = new URL(r.url).searchParams;
    const parsed = parseQuery(params, r.index);
    if (parsed.problem) return problem(r, 400, parsed.problem.detail);
    const key = `feed?${params}`;
    // The first search of an index reads the bodies it does not hold (SPEC 6.1 searches them);
    // later ones get the same texts back.
    const contains = parsed.filters.search && textsOf ? await textsOf(r.index) : undefined;
    return send(
      r,
      cached(r, key, () => {
        const page = paginate(filterItems(r.index, parsed.filters, contains), parsed.filters);
        const link = pageLinks(`${r.base}/api/content.json`, params, page);
        return {
          type: JSON_TYPE,
          body: renderFeedBytes(r.index, page, r.base),
          headers: link ? { Link: link } : undefined,
        };
      }),
    );
  };
  const sitemap = (r: Routed) => {
    if (!r.index.settings.sitemap) return notFound(r);
    return send(
      r,
      cached(r, "sitemap", () => ({ type: XML_TYPE, body: renderSitemap(r.index, r.base) })),
    );
  };
  const openapi = (r: Routed) =>
    send(
      r,
      cached(r, "openapi", () => ({
        type: JSON_TYPE,
        body: JSON.stringify(openApiDocument(r.index, r.base)),
      })),
    );
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
      cached(r, `item:${key}`, () => ({ type: JSON_TYPE, body: renderItem(found, r.base, body) })),
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
    const hit = byUrl.get(options.index())?.get(request.url);
    if (!hit) return undefined;
    try {
      return answerNow(request, hit, options);
    } catch {
      return undefined; // answered through the router and its error handling
    }
  };

  const handle = async (request: Request): Promise<Response> => {
    const index = options.index();
    const base = options.baseUrl ?? new URL(request.url).origin;
    let url = request.url;
    if (basePath) {
      // Mounted by a host that strips the prefix (Hono's app.mount): route as if it were there.
      const u = new URL(url);
      if (u.pathname !== basePath && !u.pathname.startsWith(`${basePath}/`)) {
        url = `${u.origin}${basePath}${u.pathname}${u.search}`;
      }
    }
    const routed: Routed = {
      method: request.method,
      url,
      request,
      index,
      base,
      params: {},
    };
    try {
      if (request.url.length > MAX_URL) {
        return problem(routed, 414, `the URL is longer than ${MAX_URL} characters`);
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
