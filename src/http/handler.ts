import { Router } from "itty-router";
import { answerKey, filterItems, paginate, sortItems } from "../feed/filter.ts";
import {
  type Filters,
  filtersKey,
  type IncludeField,
  type ItemField,
  parseInclude,
  parseQuery,
  SEED_FIELDS,
} from "../feed/query.ts";
import { renderItem } from "../feed/item_form.ts";
import { createItemTexts, type ReadBytes, type Wanted } from "../feed/item_text.ts";
import { pageLinks } from "../feed/links.ts";
import {
  changesTail,
  type ExtrasReader,
  feedHead,
  type ItemExtras,
  renderChangesBytes,
  renderFeedBytes,
  renderWithBodies,
  seedBytesOf,
} from "../feed/render.ts";
import { formatCursor } from "../sync/cursor.ts";
import { changesSince, cursorProblem } from "../sync/changes_since.ts";
import type { JournalState } from "../sync/state.ts";
import { renderSitemap } from "../feed/sitemap.ts";
import { JSON_FEED_PAGE, renderJsonFeed } from "../outputs/json_feed.ts";
import { renderLlmsFull, renderLlmsTxt } from "../outputs/llms.ts";
import { itemMarkdown } from "../outputs/markdown.ts";
import type { ToolBackend } from "../outputs/mcp_tools.ts";
import { createSearchTexts, type ReadBody } from "../feed/search.ts";
import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import { type AnswerContext, createAnswerStore, MAX_URL } from "./answer_store.ts";
import { sendPreflight } from "./cors.ts";
import { hostProblem } from "./host.ts";
import { openApiDocument } from "./openapi.ts";
import { sendProblem } from "./problem.ts";
import { answerMcp } from "./mcp.ts";
import { allowedMethods, routedPath, type RouteName, ROUTES } from "./routes.ts";
import type { HttpSettings } from "./settings.ts";
import { createSingleFlight } from "../util/single_flight.ts";

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
  /** Where a warning about content met at request time goes (an item cut to 10,000 sections). */
  readonly warn?: (message: string) => void;
  /**
   * Reads the body of an item that does not hold it (an index from the
   * server's loader); `undefined` when its file changed since the index was
   * built. Without it, every item must hold its body.
   */
  readonly readBody?: ReadBody;
  /** Reads an item's file again, as bytes (the body of `include=body`, written as JSON from them). */
  readonly readBytes?: ReadBytes;
  /** Brings the index up to date with items' files, once `readBody` found them changed. */
  readonly refresh?: (items: readonly Item[]) => Promise<unknown>;
  /** Bytes the response cache may hold (default 64 MB). */
  readonly cacheBytes?: number;
  /** Bytes of tool results one MCP response may hold, batch included (default 8 MB). */
  readonly mcpAnswerBytes?: number;
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
const TEXT_TYPE = "text/plain; charset=utf-8";
const MARKDOWN_TYPE = "text/markdown; charset=utf-8";
const JSON_FEED_TYPE = "application/feed+json; charset=utf-8";
/** Items whose bodies `/llms-full.txt` holds at once while it is written. */
const LLMS_FULL_RUN = 256;
/** Parameters of the feed that `/feed.json` does not take: it pages and orders itself. */
const NOT_FOR_JSON_FEED = ["limit", "sort", "include", "fields", "since"];
/** What the Markdown outputs read of an item's file, and what `/feed.json` reads. */
const BODY: Wanted = { body: true, text: false, sections: false };
const TEXT: Wanted = { body: false, text: true, sections: false };
/** How often one request follows a file that keeps changing under it before it answers 503. */
const RETRIES = 3;
/**
 * Answers read from files that are built at once (others wait their turn):
 * each such build holds its answer's bytes while it grows, and two keep
 * both cores busy (the second core reads files while this thread writes).
 */
const BUILDS_AT_ONCE = 2;

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
 * import { emptyJournal } from "../sync/state.ts";
 * const index = buildIndex([], { title: undefined, url: undefined, api: true, sitemap: false, plugins: [] }, 0);
 * const journal = emptyJournal();
 * const handle = createHandler({ index: () => index, journal: () => journal, baseUrl: undefined,
 *   cors: true, cacheControl: "public, max-age=60", logError: console.error });
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
  const itemTexts = createItemTexts(options.readBody, undefined, options.readBytes, options.warn);
  // One build per answer (SPEC 9 "Bounded memory"): concurrent requests for
  // the same answer, not made yet, wait for one build and share its bytes.
  const builds = createSingleFlight<Index>(BUILDS_AT_ONCE);
  const buildOnce = <T>(r: RouteContext, key: string, make: () => Promise<T>) =>
    builds.run(r.index, `${r.base}\n${key}`, make);
  /** Feed items by id, per index (the `since` answer names ids). */
  const byIds = new WeakMap<Index, ReadonlyMap<string, Item>>();
  const byId = (index: Index) => {
    let map = byIds.get(index);
    if (!map) {
      map = new Map(index.feed.map((item) => [item.id, item]));
      byIds.set(index, map);
    }
    return map;
  };
  /**
   * The bodies, texts and sections of some items, as `renderWithBodies`
   * reads them; the items whose files changed since the index was built
   * go to `changed` (they are re-indexed before an answer).
   */
  const readerFor = (wanted: Wanted, changed: Item[]): ExtrasReader => async (items) => {
    const got = await itemTexts.gather(items, wanted);
    changed.push(...got.changed);
    return got.changed.length > 0 ? undefined : got.extras;
  };
  const problem = (
    r: RouteContext,
    status: number,
    detail: string,
    extra?: Record<string, string>,
  ) => sendProblem(r.request, status, detail, options, extra);
  const notFound = (r: RouteContext) =>
    problem(r, 404, `nothing at ${new URL(r.request.url).pathname}`);

  const routes: Record<RouteName, (r: RouteContext) => Promise<Response>> = {
    feed: (r) => feed(r, 0),
    sitemap: (r) =>
      store.send(r, "sitemap", () => ({ type: XML_TYPE, body: renderSitemap(r.index, r.base) })),
    openapi: (r) =>
      store.send(r, "openapi", () => ({
        type: JSON_TYPE,
        body: JSON.stringify(openApiDocument(r.index, r.base)),
      })),
    item: (r) => item(r, 0),
    markdown: (r) => markdown(r, 0),
    llms: (r) =>
      store.send(r, "llms", () => ({
        type: TEXT_TYPE,
        body: renderLlmsTxt(r.index, r.base, new URL(r.base).host),
      })),
    llmsFull: (r) => llmsFull(r, 0),
    jsonFeed: (r) => jsonFeed(r, 0),
    mcp: (r) => answerMcp(r.request, toolBackend(r), options),
  };

  /**
   * After the files of some items were found changed: catch up, and answer
   * from the new index (`again`), or a 503 when they keep changing.
   */
  const caughtUp = async (
    r: RouteContext,
    changed: readonly Item[],
    tries: number,
    again: (next: RouteContext) => Promise<Response>,
  ) => {
    await refresh(changed);
    const next = options.index();
    if (tries < RETRIES && next !== r.index) {
      return again({ ...r, index: next, journal: options.journal() });
    }
    return problem(r, 503, `${changed[0].file} changed while it was read; try again`, {
      "Retry-After": "1",
    });
  };

  /**
   * What `wanted` asks of some items' files, or, when a file changed (or
   * went away) since this index was built, the answer `again` gives once
   * the index has caught up: never one version's body under another
   * version's fields. Callers tell the two apart by the map (a response
   * may be of srvx's own class on Node, not the global `Response`).
   */
  const gathered = async (
    r: RouteContext,
    key: string,
    items: readonly Item[],
    wanted: Wanted,
    tries: number,
    again: (next: RouteContext) => Promise<Response>,
  ): Promise<Map<Item, ItemExtras> | Response> => {
    const got = await buildOnce(r, key, () => itemTexts.gather(items, wanted));
    return got.changed.length > 0 ? caughtUp(r, got.changed, tries, again) : got.extras;
  };

  /** A feed answer with bodies, texts or sections, built once however many ask for it at once. */
  const withBodies = (
    r: RouteContext,
    key: string,
    head: string,
    items: readonly Item[],
    tail: string,
    fields: readonly ItemField[],
    wanted: Wanted,
  ) =>
    buildOnce(r, key, async () => {
      const changed: Item[] = [];
      const body = await renderWithBodies(
        head,
        items,
        tail,
        r.base,
        fields,
        readerFor(wanted, changed),
        seedBytesOf(r.index, () => store.fullFeed(r)),
      );
      return { body, changed };
    });

  /** The feed (SPEC 6, 6.2) or, with `since`, the changes after a cursor (SPEC 12). */
  const feed = async (r: RouteContext, tries: number): Promise<Response> => {
    const params = new URL(r.url).searchParams;
    const parsed = parseQuery(params, r.index);
    if (parsed.problem) return problem(r, 400, parsed.problem.detail);
    const filters = parsed.filters;
    const fields = shapeOf(filters);
    const wanted = wantedBy(fields);
    if (filters.since) return await changes(r, filters, fields, wanted, params, tries);
    // The first search of an index reads the bodies it does not hold; later ones reuse them.
    const contains = filters.search && textsOf ? await textsOf(r.index) : undefined;
    const page = paginate(
      sortItems(filterItems(r.index, filters, contains), filters.sort),
      filters,
    );
    // The Link header keeps the request's own spelling of its query; the body is the answer's.
    const link = pageLinks(`${r.base}/api/content.json`, params, page);
    const key = answerKey(filters, page);
    const storeKey = key ? `feed?${key}` : "feed";
    const cursor = formatCursor(r.journal.id, r.journal.head);
    let body: Uint8Array | undefined;
    if (wanted && !store.has(r, storeKey)) {
      const head = feedHead(page.items.length, page.total, r.base, r.index.generated, cursor);
      const built = await withBodies(r, storeKey, head, page.items, "]}", fields!, wanted);
      if (!built.body) return caughtUp(r, built.changed, tries, (next) => feed(next, tries + 1));
      body = built.body;
    }
    return store.send(
      r,
      storeKey,
      () => ({
        type: JSON_TYPE,
        body: body ?? renderFeedBytes(
          r.index,
          page,
          r.base,
          fields ? undefined : store.fullFeed(r),
          { cursor, fields },
        ),
      }),
      link ? { Link: link } : undefined,
    );
  };

  /** The answer to `since` (SPEC 12): what entered or changed, what left, and where to go on. */
  const changes = async (
    r: RouteContext,
    filters: Filters,
    fields: readonly ItemField[] | undefined,
    wanted: Wanted | undefined,
    params: URLSearchParams,
    tries: number,
  ): Promise<Response> => {
    const since = filters.since!;
    const gone = cursorProblem(r.journal, since);
    if (gone) return problem(r, 410, `${gone}; sync again from since=0`);
    const answer = changesSince(r.journal, since.seq, filters, filters.limit);
    const items: Item[] = [];
    const deleted: { id: string; at: number }[] = [];
    const feedItems = byId(r.index);
    for (const change of answer.changes) {
      if (change.deleted !== null) deleted.push({ id: change.id, at: change.deleted });
      else {
        const item = feedItems.get(change.id);
        if (item) items.push(item);
        else options.logError(`journal names ${change.id}, which the index's feed lacks`);
      }
    }
    const cursor = formatCursor(r.journal.id, answer.cursor);
    const storeKey = `feed?${filtersKey(filters)}`;
    let body: Uint8Array | undefined;
    if (wanted && !store.has(r, storeKey)) {
      const head = feedHead(
        items.length,
        answer.total,
        r.base,
        r.index.generated,
        cursor,
        answer.more,
      );
      const built = await withBodies(
        r,
        storeKey,
        head,
        items,
        changesTail(deleted),
        fields!,
        wanted,
      );
      if (!built.body) return caughtUp(r, built.changed, tries, (next) => feed(next, tries + 1));
      body = built.body;
    }
    let link: string | undefined;
    if (answer.more) {
      const query = new URLSearchParams(params);
      query.set("since", cursor);
      link = `<${r.base}/api/content.json?${query}>; rel="next"`;
    }
    return store.send(
      r,
      storeKey,
      () => ({
        type: JSON_TYPE,
        body: body ?? renderChangesBytes(
          r.index,
          { items, deleted, total: answer.total, cursor, more: answer.more },
          r.base,
          fields ? undefined : store.fullFeed(r),
          { fields },
        ),
      }),
      link ? { Link: link } : undefined,
    );
  };

  /** The item a route's path names (SPEC 7: matched against the index only), with its key. */
  const itemAt = (r: RouteContext): [string, Item] | undefined => {
    let key: string;
    try {
      key = `${decodeURIComponent(r.params.type)}/${decodeURIComponent(r.params.uri)}`;
    } catch {
      return undefined;
    }
    const found = r.index.byPath.get(key);
    return found && [key, found];
  };

  /** `tries`: earlier tries of this request, each ended by the index catching up with a changed file. */
  const item = async (r: RouteContext, tries: number): Promise<Response> => {
    const at = itemAt(r);
    if (!at) return notFound(r);
    const [key, found] = at;
    const asked = new URL(r.url).searchParams.get("include");
    const include = asked ? parseInclude(asked) : [];
    if (typeof include === "string") return problem(r, 400, include);
    const variant = include.length ? `?include=${include.join(",")}` : "";
    let body = found.body;
    let extras: ItemExtras | undefined;
    if (!store.has(r, `item:${key}${variant}`)) {
      // Every item's body is in its form; text and sections when asked for.
      const wanted = {
        body: true,
        text: include.includes("text"),
        sections: include.includes("sections"),
      };
      const got = await gathered(
        r,
        `item:${key}${variant}`,
        [found],
        wanted,
        tries,
        (next) => item(next, tries + 1),
      );
      if (!(got instanceof Map)) return got;
      extras = got.get(found);
      body = extras?.body;
    }
    return store.send(
      r,
      `item:${key}${variant}`,
      () => ({ type: JSON_TYPE, body: renderItem(found, r.base, body, include, extras) }),
    );
  };

  /** An item's Markdown form (SPEC 14): the same items as the JSON form. */
  const markdown = async (r: RouteContext, tries: number): Promise<Response> => {
    const at = itemAt(r);
    if (!at) return notFound(r);
    const [key, found] = at;
    let body = found.body;
    if (!store.has(r, `md:${key}`)) {
      const got = await gathered(
        r,
        `md:${key}`,
        [found],
        BODY,
        tries,
        (next) => markdown(next, tries + 1),
      );
      if (!(got instanceof Map)) return got;
      body = got.get(found)?.body;
    }
    return store.send(r, `md:${key}`, () => ({
      type: MARKDOWN_TYPE,
      body: itemMarkdown(found, r.base, body ?? ""),
    }));
  };

  /**
   * `/llms-full.txt` (SPEC 14): every feed item's Markdown, read and
   * written a run of items at a time (never every body held at once), kept
   * as one answer per index.
   */
  const llmsFull = async (r: RouteContext, tries: number): Promise<Response> => {
    let body: Uint8Array | undefined;
    if (!store.has(r, "llms-full")) {
      const built = await buildOnce(r, "llms-full", () => llmsFullBytes(r.index, r.base));
      if (built instanceof Uint8Array) body = built;
      else return caughtUp(r, built, tries, (next) => llmsFull(next, tries + 1));
    }
    return store.send(r, "llms-full", () => ({ type: TEXT_TYPE, body: body! }));
  };

  /** The bytes of `/llms-full.txt`, or the items whose files changed since the index was built. */
  const llmsFullBytes = async (
    index: Index,
    base: string,
  ): Promise<Uint8Array | readonly Item[]> => {
    const parts: Uint8Array[] = [];
    let size = 0;
    for (let at = 0; at < index.feed.length; at += LLMS_FULL_RUN) {
      const run = index.feed.slice(at, at + LLMS_FULL_RUN);
      const got = await itemTexts.gather(run, BODY);
      if (got.changed.length > 0) return got.changed;
      const part = encoder.encode(
        renderLlmsFull(run, base, (item) => got.extras.get(item)?.body ?? ""),
      );
      parts.push(part);
      size += part.length;
    }
    const body = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      body.set(part, at);
      at += part.length;
    }
    return body;
  };

  /**
   * `/feed.json` (SPEC 14): a JSON Feed 1.1 page of 50 feed items, newest
   * \`date\` first, the feed's filters applied; \`page\` without \`limit\`.
   */
  const jsonFeed = async (r: RouteContext, tries: number): Promise<Response> => {
    const params = new URL(r.url).searchParams;
    const refused = NOT_FOR_JSON_FEED.find((name) => params.has(name));
    if (refused) {
      return problem(
        r,
        400,
        `${refused} does not apply to /feed.json: it holds ${JSON_FEED_PAGE} items a page, newest first`,
      );
    }
    const query = new URLSearchParams(params);
    query.set("limit", String(JSON_FEED_PAGE));
    const parsed = parseQuery(query, r.index);
    if (parsed.problem) return problem(r, 400, parsed.problem.detail);
    const filters = parsed.filters;
    const contains = filters.search && textsOf ? await textsOf(r.index) : undefined;
    const page = paginate(sortItems(filterItems(r.index, filters, contains), "-date"), filters);
    const key = `jsonfeed?${filtersKey(filters)}`;
    let texts: ReadonlyMap<Item, ItemExtras> | undefined;
    if (!store.has(r, key)) {
      const got = await gathered(
        r,
        key,
        page.items,
        TEXT,
        tries,
        (next) => jsonFeed(next, tries + 1),
      );
      if (!(got instanceof Map)) return got;
      texts = got;
    }
    // Links in the body are spelled one way per answer (the cache keeps one body per answer).
    const canonical = filtersKey({ ...filters, limit: undefined });
    const at = (extra: string) => {
      const search = [canonical, extra].filter(Boolean).join("&");
      return `${r.base}/feed.json${search ? `?${search}` : ""}`;
    };
    const next = page.page < (page.last ?? 1) ? at(`page=${page.page + 1}`) : undefined;
    return store.send(r, key, () => ({
      type: JSON_FEED_TYPE,
      body: renderJsonFeed(
        r.index,
        page.items,
        r.base,
        at(""),
        (item) => texts?.get(item)?.text ?? "",
        next,
      ),
    }));
  };

  /** What the MCP tools read (SPEC 14): this index's own answers, as the routes give them. */
  const toolBackend = (r: RouteContext): ToolBackend => {
    const internal = (path: string): RouteContext => ({
      ...r,
      url: `${r.base}${path}`,
      request: new Request(`${r.base}${path}`),
      params: {},
    });
    const read = async (response: Response) => ({
      status: response.status,
      body: await response.text(),
    });
    return {
      feed: async (query) => read(await feed(internal(`/api/content.json?${query}`), 0)),
      find: ({ id, link }) => {
        if (id !== undefined) return byId(r.index).get(id) ?? servedById(r.index).get(id);
        const path = pathOf(link!, r.base);
        if (path === undefined) return undefined;
        return byUrl(r.index).get(path) ?? r.index.byPath.get(path.replace(/\.(json|md)$/, ""));
      },
      forms: async (found) => {
        const path = `/${encodePath(found.type)}/${encodePath(found.uri)}`;
        const asJson = internal(`${path}.json`);
        const asMarkdown = internal(`${path}.md`);
        // Route parameters are as the URL spells them (the routes decode them).
        const params = { type: encodePath(found.type), uri: encodePath(found.uri) };
        const [json, md] = await Promise.all([
          item({ ...asJson, params: { ...params } }, 0),
          markdown({ ...asMarkdown, params: { ...params } }, 0),
        ]);
        const { body: _, ...metadata } = JSON.parse(await json.text());
        return { metadata: JSON.stringify(metadata), markdown: await md.text() };
      },
      tags: () => tagsOf(r.index),
    };
  };

  const router = Router<RouteContext>({ base: basePath });
  for (const route of ROUTES) {
    const answer = routes[route.name];
    const serve = (r: RouteContext) => route.enabled(r.index.settings) ? answer(r) : notFound(r);
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
    if (!isRouted(pathname)) return notFound(r);
    const allowed = allowedMethods(pathname, basePath);
    if (allowed.split(", ").includes(r.method)) return notFound(r);
    return problem(r, 405, `${r.method} is not allowed; use ${allowed.replace(", ", " or ")}`, {
      Allow: allowed,
    });
  });

  const route = async (
    request: Request,
    index: Index,
    journal: JournalState,
  ): Promise<Response> => {
    const context: RouteContext = {
      method: request.method,
      url: request.url,
      request,
      index,
      journal,
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
    const journal = options.journal();
    store.follow(index);
    const method = request.method;
    if (method === "GET" || method === "HEAD") {
      const ready = store.ready(request, index);
      if (ready) return ready;
    }
    return route(request, index, journal);
  };
}

/**
 * The fields each item holds (SPEC 6.2), or `undefined` for the seed's
 * (the full feed's bytes serve those): `fields` narrows the seed's fields
 * and `include` adds to what is left, in canonical order, `id` always.
 */
function shapeOf(filters: Filters): readonly ItemField[] | undefined {
  if (!filters.fields && !filters.include) return undefined;
  const chosen = new Set<string>([...(filters.fields ?? SEED_FIELDS), ...(filters.include ?? [])]);
  return [...SEED_FIELDS, "url", "body", "text", "sections"].filter((field) =>
    chosen.has(field)
  ) as ItemField[];
}

/** Which of an item's body-made fields a shape asks for; `undefined`: none. */
function wantedBy(fields: readonly ItemField[] | undefined): Wanted | undefined {
  if (!fields) return undefined;
  const has = (field: IncludeField) => fields.includes(field);
  return has("body") || has("text") || has("sections")
    ? { body: has("body"), bodyAsBytes: true, text: has("text"), sections: has("sections") }
    : undefined;
}

const encoder = new TextEncoder();

/** A path segment as a URL writes it (slashes kept: an item's URI may have several segments). */
const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");

/**
 * The index key (`type/uri`) a link names: an item's page URL, or its
 * `.json` or `.md` form, absolute (under the base) or root-relative.
 */
function pathOf(link: string, base: string): string | undefined {
  let path: string;
  try {
    const url = new URL(link, `${base}/`);
    const basePath = new URL(`${base}/`).pathname;
    if (!url.pathname.startsWith(basePath)) return undefined;
    path = decodeURIComponent(url.pathname.slice(basePath.length));
  } catch {
    return undefined;
  }
  return path.replace(/\/+$/, "");
}

/** Every served item by id: the feed's, and those only the item routes serve (not indexable). */
const servedMaps = new WeakMap<Index, ReadonlyMap<string, Item>>();
function servedById(index: Index): ReadonlyMap<string, Item> {
  let map = servedMaps.get(index);
  if (!map) {
    map = new Map([...index.byPath.values()].map((item) => [item.id, item]));
    servedMaps.set(index, map);
  }
  return map;
}

/** Served items by the path of their page URL, without slashes at either end (`get_content`'s link). */
const urlMaps = new WeakMap<Index, ReadonlyMap<string, Item>>();
function byUrl(index: Index): ReadonlyMap<string, Item> {
  let map = urlMaps.get(index);
  if (!map) {
    const made = new Map<string, Item>();
    for (const item of index.byPath.values()) {
      if (item.url.startsWith("/")) made.set(item.url.replace(/^\/+|\/+$/g, ""), item);
    }
    urlMaps.set(index, map = made);
  }
  return map;
}

/** The feed's tags with their counts, most used first, then by name (the `list_tags` tool). */
const tagLists = new WeakMap<Index, readonly { name: string; slug: string; count: number }[]>();
function tagsOf(index: Index) {
  let tags = tagLists.get(index);
  if (!tags) {
    const bySlug = new Map<string, { name: string; slug: string; count: number }>();
    for (const item of index.feed) {
      for (const { name, slug, count } of item.tags) {
        if (!bySlug.has(slug)) bySlug.set(slug, { name, slug, count });
      }
    }
    tags = [...bySlug.values()].sort((a, b) =>
      b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
    );
    tagLists.set(index, tags);
  }
  return tags;
}
