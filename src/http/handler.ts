import { Router } from "itty-router";
import { answerKey, filterItems, paginate } from "../feed/filter.ts";
import { parseInclude, parseQuery } from "../feed/query.ts";
import { renderItem } from "../feed/item_form.ts";
import { pageLinks } from "../feed/links.ts";
import { renderFeedBytes } from "../feed/render.ts";
import { renderSitemap } from "../feed/sitemap.ts";
import { createSearchTexts, type ReadBody } from "../feed/search.ts";
import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import { type AnswerContext, createAnswerStore, MAX_URL } from "./answer_store.ts";
import { sendPreflight } from "./cors.ts";
import { hostProblem } from "./host.ts";
import { openApiDocument } from "./openapi.ts";
import { sendProblem } from "./problem.ts";
import { routedPath, type RouteName, ROUTES } from "./routes.ts";
import type { HttpSettings } from "./settings.ts";

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
  /** Bytes the response cache may hold (default 64 MB). */
  readonly cacheBytes?: number;
}

/** A request on its way through the router: what every route needs. */
interface RouteContext extends AnswerContext {
  readonly method: string;
  /** The URL to route (with the base path put back when a host stripped it). */
  readonly url: string;
  /** The router's path parameters (not URL-decoded). */
  params: Record<string, string>;
}

/** The service's request handler: a `Response`, or a promise of one. */
export type Handler = (request: Request) => Response | Promise<Response>;

const JSON_TYPE = "application/json; charset=utf-8";
const XML_TYPE = "application/xml; charset=utf-8";
/** How often one request follows a file that keeps changing under it before it answers 503. */
const RETRIES = 3;

/**
 * Builds the service's handler (SPEC 6–9): the routes of `routes.ts` under
 * the base URL's path, `HEAD` beside every `GET`, `405` for other methods
 * on a routed path, `OPTIONS` preflights, problem+json for every error. It
 * returns the `Response` itself when a request's answer is ready (a
 * repeated GET or HEAD, a 304), else a promise: `fetch` wraps it in one.
 *
 * @example
 * ```ts
 * import { createHandler } from "./handler.ts";
 * import { buildIndex } from "../index/build.ts";
 * const index = buildIndex([], { title: undefined, url: undefined, api: true, sitemap: false, plugins: [] }, 0);
 * const handle = createHandler({ index: () => index, baseUrl: undefined, cors: true,
 *   cacheControl: "public, max-age=60", logError: console.error });
 * const response = await handle(new Request("http://localhost/api/content.json"));
 * ```
 */
export function createHandler(options: HandlerOptions): Handler {
  const basePath = options.baseUrl ? new URL(options.baseUrl).pathname.replace(/\/+$/, "") : "";
  const store = createAnswerStore(options, options.baseUrl);
  const isRouted = routedPath(basePath);
  const refresh = (items: readonly Item[]) =>
    options.refresh?.(items).catch((error) =>
      options.logError(`re-indexing ${items.map((item) => item.file).join(", ")} failed: ${error}`)
    );
  const textsOf = options.readBody
    ? createSearchTexts(options.readBody, (items) => void refresh(items))
    : undefined;
  const problem = (
    r: RouteContext,
    status: number,
    detail: string,
    extra?: Record<string, string>,
  ) => sendProblem(r.request, status, detail, options, extra);
  const notFound = (r: RouteContext) =>
    problem(r, 404, `nothing at ${new URL(r.request.url).pathname}`);

  const routes: Record<RouteName, (r: RouteContext) => Promise<Response>> = {
    async feed(r) {
      const params = new URL(r.url).searchParams;
      const parsed = parseQuery(params, r.index);
      if (parsed.problem) return problem(r, 400, parsed.problem.detail);
      const filters = parsed.filters;
      // The first search of an index reads the bodies it does not hold; later ones reuse them.
      const contains = filters.search && textsOf ? await textsOf(r.index) : undefined;
      const page = paginate(filterItems(r.index, filters, contains), filters);
      // The Link header keeps the request's own spelling of its query; the body is the answer's.
      const link = pageLinks(`${r.base}/api/content.json`, params, page);
      const key = answerKey(filters, page);
      return store.send(
        r,
        key ? `feed?${key}` : "feed",
        () => ({
          type: JSON_TYPE,
          body: filters.include
            ? renderFeedBytes(r.index, page, r.base, undefined, filters.include)
            : renderFeedBytes(r.index, page, r.base, store.fullFeed(r)),
        }),
        link ? { Link: link } : undefined,
      );
    },
    sitemap: (r) =>
      store.send(r, "sitemap", () => ({ type: XML_TYPE, body: renderSitemap(r.index, r.base) })),
    openapi: (r) =>
      store.send(r, "openapi", () => ({
        type: JSON_TYPE,
        body: JSON.stringify(openApiDocument(r.index, r.base)),
      })),
    item: (r) => item(r, 0),
  };

  /** `tries`: earlier tries of this request, each ended by the index catching up with a changed file. */
  const item = async (r: RouteContext, tries: number): Promise<Response> => {
    let key: string;
    try {
      key = `${decodeURIComponent(r.params.type)}/${decodeURIComponent(r.params.uri)}`;
    } catch {
      return notFound(r);
    }
    const found = r.index.byPath.get(key);
    if (!found) return notFound(r);
    const asked = new URL(r.url).searchParams.get("include");
    const include = asked ? parseInclude(asked) : [];
    if (typeof include === "string") return problem(r, 400, include);
    const variant = include.length ? `?include=${include.join(",")}` : "";
    let body = found.body;
    if (body === undefined && options.readBody && !store.has(r, `item:${key}${variant}`)) {
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
    return store.send(
      r,
      `item:${key}${variant}`,
      () => ({ type: JSON_TYPE, body: renderItem(found, r.base, body, include) }),
    );
  };

  const router = Router<RouteContext>({ base: basePath });
  for (const route of ROUTES) {
    const answer = routes[route.name];
    const serve = (r: RouteContext) => route.enabled(r.index.settings) ? answer(r) : notFound(r);
    router.get(route.pattern, serve);
    router.head(route.pattern, serve);
  }
  router.options("*", () => sendPreflight(options));
  // itty-router has no 405 of its own: a routed path with another method lands here.
  router.all("*", (r) => {
    if (r.method === "GET" || r.method === "HEAD" || !isRouted(new URL(r.url).pathname)) {
      return notFound(r);
    }
    return problem(r, 405, `${r.method} is not allowed; use GET or HEAD`, { Allow: "GET, HEAD" });
  });

  const route = async (request: Request, index: Index): Promise<Response> => {
    const context: RouteContext = {
      method: request.method,
      url: request.url,
      request,
      index,
      base: options.baseUrl ?? "",
      params: {},
    };
    try {
      if (request.url.length > MAX_URL) {
        return problem(context, 414, `the URL is longer than ${MAX_URL} characters`);
      }
      const bad = hostProblem(request);
      if (bad) return problem(context, 400, bad);
      const url = new URL(request.url);
      const routed: RouteContext = { ...context, base: options.baseUrl ?? url.origin };
      if (basePath && url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) {
        // Mounted by a host that strips the prefix (Hono's app.mount): route as if it were there.
        return await answerRouted({
          ...routed,
          url: `${url.origin}${basePath}${url.pathname}${url.search}`,
        });
      }
      return await answerRouted(routed);
    } catch (error) {
      options.logError(`${request.method} ${request.url}: ${(error as Error)?.stack ?? error}`);
      return problem(
        context,
        500,
        "the server could not answer this request; the log has the details",
      );
    }
  };
  const answerRouted = async (r: RouteContext) =>
    (await router.fetch(r) as Response | undefined) ?? notFound(r);

  return (request) => {
    const index = options.index();
    store.follow(index);
    const method = request.method;
    if (method === "GET" || method === "HEAD") {
      const ready = store.ready(request, index);
      if (ready) return ready;
    }
    return route(request, index);
  };
}
