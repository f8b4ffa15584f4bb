import { Router } from "itty-router";
import type { PreviousFeed } from "../feed/feed_bytes.ts";
import { type AnswerPlan, type Plan, staleProblem } from "../feed/plan.ts";
import { createSearchTexts, type ReadBody } from "../feed/search.ts";
import { createItemTexts, type ReadBytes } from "../feed/item_text.ts";
import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import type { RouteInput } from "../routes/input.ts";
import { notFound } from "../routes/item.ts";
import { withoutIgnoredParameters } from "../routes/ignored_params.ts";
import { toolBackend } from "../routes/mcp_backend.ts";
import { PLANNERS } from "../routes/plans.ts";
import { allowedMethods, routedPath, ROUTES } from "../routes/table.ts";
import type { JournalState } from "../sync/state.ts";
import { type AnswerContext, createAnswerStore, type KeptFeed, MAX_URL } from "./answer_store.ts";
import { sendPreflight } from "./cors.ts";
import { hostProblem } from "./host.ts";
import { createMcpAnswerer } from "./mcp.ts";
import { mountOf } from "./mount.ts";
import { problemBody, sendProblem } from "./problem.ts";
import type { HttpSettings } from "./settings.ts";

/** What the HTTP layer needs from the rest of the service. */
export interface HandlerOptions extends HttpSettings {
  /** The current index (read once per request, so a swap never splits one). */
  readonly index: () => Index;
  /** The journal as of the current index (read with it: the two are swapped together). */
  readonly journal: () => JournalState;
  /** Configured base URL without trailing slash; `undefined` means the request's origin. */
  readonly baseUrl: string | undefined;
  /** Where the detail of a 500 goes. */
  readonly logError: (message: string) => void;
  /** Where a warning about content found while answering goes (a body with too many sections). */
  readonly warn?: (message: string) => void;
  /**
   * Reads the body of an item that does not hold it (an index from the
   * server's loader); `undefined` when its file changed since the index was
   * built. Without it, every item must hold its body.
   */
  readonly readBody?: ReadBody;
  /** Reads an item's file again, as bytes (the body of `include=body`, written as JSON from them). */
  readonly readBytes?: ReadBytes;
  /**
   * Told of items whose files changed since the index was built, found
   * while answering (the answer was a `503`): the service re-reads them in
   * the background, as the live loop does.
   */
  readonly stale?: (items: readonly Item[]) => void;
  /** Bytes the response cache may hold (default 64 MB). */
  readonly cacheBytes?: number;
  /** Bytes of tool results one MCP response may hold, batch included (default 8 MB). */
  readonly mcpAnswerBytes?: number;
  /**
   * The address the server listens on, when it is known: bound to a
   * loopback one, MCP requests for other hosts are refused (SPEC 14,
   * `mcp_origin.ts`).
   */
  readonly listenHostname?: string;
}

/** A request on its way through the router: what every route needs. */
interface RouteContext extends AnswerContext {
  readonly request: Request;
  readonly method: string;
  /** The URL to route (with the base path put back when a host stripped it). */
  readonly url: string;
  /** The router's path parameters (not URL-decoded). */
  params: Record<string, string>;
}

/** The service's request handler: a `Response`, or a promise of one. */
export type Handler = (request: Request) => Response | Promise<Response>;

/** The handler {@link createHandler} makes: it also says what full feed it served. */
export interface ServiceHandler extends Handler {
  /** The current index's full feed to keep at a stop, served or not (`AnswerStore.feedToKeep`). */
  feedToKeep(etagOf: (bytes: Uint8Array) => string): KeptFeed | undefined;
  /**
   * Serves `feed` as the current index's full feed: the one a server kept
   * when it stopped, checked to be this index's (`pipeline/feed_image.ts`).
   * Given here, not in the options, so that it is let go with its index.
   */
  seedFeed(feed: KeptFeed): void;
  /**
   * Writes the current index's first full feed from `previous` (one a
   * stopped server kept, of the same code and base URL), copying the bytes
   * of the items it holds as they are.
   */
  seedPrevious(previous: PreviousFeed & { readonly base: string }): void;
}

const decoder = new TextDecoder();

/**
 * Builds the service's handler (SPEC 6–9): a `Request` becomes a route's
 * input, the route's plan (`routes/`) becomes a `Response`, under the base
 * URL's path; `HEAD` beside every `GET`, `405` for other methods on a
 * routed path, `OPTIONS` preflights, problem+json for every error. It
 * returns the `Response` itself when a request's answer is ready (a
 * repeated GET or HEAD, a 304), else a promise. No request reloads the
 * index: an answer whose files changed since the index was built is a
 * `503` with `Retry-After`, and the service is told to re-read them.
 *
 * @example
 * ```ts
 * import { createHandler } from "./handler.ts";
 * import { buildIndex } from "../index/build_parsed.ts";
 * import { emptyJournal } from "../sync/state.ts";
 * const index = buildIndex([], { title: undefined, url: undefined, api: true, sitemap: false, plugins: [] }, 0);
 * const journal = emptyJournal();
 * const handle = createHandler({ index: () => index, journal: () => journal, baseUrl: undefined,
 *   cors: true, cacheControl: "public, max-age=60", logError: console.error });
 * const response = await handle(new Request("http://localhost/api/content.json"));
 * ```
 */
export function createHandler(options: HandlerOptions): ServiceHandler {
  const basePath = options.baseUrl ? new URL(options.baseUrl).pathname.replace(/\/+$/, "") : "";
  const isRouted = routedPath(basePath);
  const itemTexts = createItemTexts(options.readBody, undefined, options.readBytes, options.warn);
  const store = createAnswerStore(options, options.baseUrl, itemTexts.gather);
  const stale = (items: readonly Item[]) => options.stale?.(items);
  const searchTexts = options.readBody ? createSearchTexts(options.readBody, stale) : undefined;
  const answerMcp = createMcpAnswerer(options);

  const problem = (
    request: Request,
    status: number,
    detail: string,
    extra?: Record<string, string>,
  ) => sendProblem(request, status, detail, options, extra);
  /** A plan's answer as a `Response`. */
  const respond = async (request: Request, c: AnswerContext, plan: Plan): Promise<Response> => {
    if (plan.kind === "problem") {
      return problem(request, plan.status, plan.detail, plan.headers);
    }
    const made = await store.made(c, plan);
    if ("stale" in made) {
      stale(made.stale);
      const gone = staleProblem(made.stale);
      return problem(request, gone.status, gone.detail, gone.headers);
    }
    return store.send(request, c, plan, made);
  };
  /** A plan's answer as the MCP tools read it: its status and its body as text. */
  const asText = async (c: AnswerContext, plan: Plan) => {
    let answered: Plan | AnswerPlan = plan;
    if (plan.kind === "answer") {
      const made = await store.made(c, plan);
      if (!("stale" in made)) return { status: 200, body: decoder.decode(made.bytes) };
      stale(made.stale);
      answered = staleProblem(made.stale);
    }
    const { status, detail } = answered as Extract<Plan, { kind: "problem" }>;
    return { status, body: problemBody(status, detail) };
  };
  const inputOf = (r: RouteContext): RouteInput => ({
    index: r.index,
    journal: r.journal,
    base: r.base,
    pathname: new URL(r.request.url).pathname,
    // Campaign tags and cache-busters never reach a route: not its answer's key, nor its links.
    query: withoutIgnoredParameters(new URL(r.url).searchParams),
    params: r.params,
    contains: searchTexts && (() => searchTexts(r.index)),
  });

  const router = Router<RouteContext>({ base: basePath });
  for (const route of ROUTES) {
    const answer = route.name === "mcp"
      ? (r: RouteContext) =>
        answerMcp(
          r.request,
          toolBackend(inputOf(r), (plan) => asText(r, plan)),
          r.index.settings.mcpAllowedOrigins,
        )
      : async (r: RouteContext) =>
        respond(
          r.request,
          r,
          await PLANNERS[route.name as Exclude<typeof route.name, "mcp">](inputOf(r)),
        );
    const serve = (r: RouteContext) =>
      route.enabled(r.index.settings) ? answer(r) : respond(r.request, r, notFound(inputOf(r)));
    if (route.methods?.includes("POST")) router.post(route.pattern, serve);
    else {
      router.get(route.pattern, serve);
      router.head(route.pattern, serve);
    }
  }
  router.options(
    "*",
    (r) => sendPreflight(options, allowedMethods(new URL(r.url).pathname, basePath)),
  );
  // itty-router has no 405 of its own: a routed path with another method lands here.
  router.all("*", (r) => {
    const pathname = new URL(r.url).pathname;
    if (!isRouted(pathname)) return respond(r.request, r, notFound(inputOf(r)));
    const allowed = allowedMethods(pathname, basePath);
    if (allowed.split(", ").includes(r.method)) return respond(r.request, r, notFound(inputOf(r)));
    return problem(
      r.request,
      405,
      `${r.method} is not allowed; use ${allowed.replace(", ", " or ")}`,
      { Allow: allowed },
    );
  });

  const route = async (
    request: Request,
    index: Index,
    journal: JournalState,
  ): Promise<Response> => {
    try {
      if (request.url.length > MAX_URL) {
        return problem(request, 414, `the URL is longer than ${MAX_URL} characters`);
      }
      const bad = hostProblem(request);
      if (bad) return problem(request, 400, bad);
      const url = new URL(request.url);
      // Mounted by a host under a path of its own (toNodeListener under Express): the
      // URL is the public one; what follows the mount path is routed, and links go under it.
      let mount = mountOf(request);
      let pathname = url.pathname;
      if (mount && (pathname === mount || pathname.startsWith(`${mount}/`))) {
        pathname = pathname.slice(mount.length) || "/";
      } else mount = "";
      const routed: RouteContext = {
        method: request.method,
        url: mount ? `${url.origin}${pathname}${url.search}` : request.url,
        request,
        index,
        journal,
        base: options.baseUrl ?? `${url.origin}${mount}`,
        mounted: mount !== "",
        params: {},
      };
      if (basePath && pathname !== basePath && !pathname.startsWith(`${basePath}/`)) {
        // Mounted by a host that strips the prefix (Hono's app.mount): route as if it were there.
        return await answerRouted({
          ...routed,
          url: `${url.origin}${basePath}${pathname}${url.search}`,
        });
      }
      return await answerRouted(routed);
    } catch (error) {
      options.logError(`${request.method} ${request.url}: ${(error as Error)?.stack ?? error}`);
      return problem(
        request,
        500,
        "the server could not answer this request; the log has the details",
      );
    }
  };
  const answerRouted = async (r: RouteContext) =>
    (await router.fetch(r) as Response | undefined) ??
      respond(r.request, r, notFound(inputOf(r)));

  const handle: Handler = (request) => {
    const index = options.index();
    const journal = options.journal();
    store.follow(index);
    const method = request.method;
    // A mounted request's URL alone does not name its answer: it is routed.
    if ((method === "GET" || method === "HEAD") && mountOf(request) === "") {
      const ready = store.ready(request, index);
      if (ready) return ready;
    }
    return route(request, index, journal);
  };
  return Object.assign(handle, {
    feedToKeep: (etagOf: (bytes: Uint8Array) => string) =>
      store.feedToKeep(options.index(), options.journal(), etagOf),
    seedFeed: (feed: KeptFeed) => store.seedFeed(options.index(), feed),
    seedPrevious: (previous: PreviousFeed & { readonly base: string }) =>
      store.seedPrevious(options.index(), previous),
  });
}
