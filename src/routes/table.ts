import type { IndexSettings } from "../index/build.ts";

/** The routes of the service, by name. */
export type RouteName =
  | "home"
  | "feed"
  | "openapi"
  | "health"
  | "sitemap"
  | "llms"
  | "llmsFull"
  | "jsonFeed"
  | "mcp"
  | "item"
  | "markdown";

/** One route (SPEC 6–8), as the router, the `405` answer and the OpenAPI document see it. */
export interface Route {
  readonly name: RouteName;
  /** The router's pattern, under the base URL's path. */
  readonly pattern: string;
  /** The same path as OpenAPI writes it. */
  readonly openapiPath: string;
  /** Whether the configuration enables it (a disabled route answers `404`). */
  readonly enabled: (
    settings: Pick<IndexSettings, "api" | "sitemap" | "llms" | "feed" | "mcp">,
  ) => boolean;
  /** The methods it answers: `GET` and `HEAD` (the default), or `POST` (the MCP server). */
  readonly methods?: readonly ("GET" | "HEAD" | "POST")[];
}

/**
 * Every route, in the order the OpenAPI document lists them. `GET` and
 * `HEAD` answer on each; `OPTIONS` is a CORS preflight; any other method on
 * one of these paths is a `405` (SPEC 9).
 */
export const ROUTES: readonly Route[] = [
  {
    name: "home",
    pattern: "/",
    openapiPath: "/",
    enabled: () => true,
  },
  {
    name: "feed",
    pattern: "/api/content.json",
    openapiPath: "/api/content.json",
    enabled: (s) => s.api,
  },
  {
    name: "openapi",
    pattern: "/api/openapi.json",
    openapiPath: "/api/openapi.json",
    enabled: () => true,
  },
  {
    name: "health",
    pattern: "/api/health",
    openapiPath: "/api/health",
    enabled: () => true,
  },
  {
    name: "sitemap",
    pattern: "/sitemap.xml",
    openapiPath: "/sitemap.xml",
    enabled: (s) => s.sitemap,
  },
  {
    name: "llms",
    pattern: "/llms.txt",
    openapiPath: "/llms.txt",
    enabled: (s) => s.llms === true,
  },
  {
    name: "llmsFull",
    pattern: "/llms-full.txt",
    openapiPath: "/llms-full.txt",
    enabled: (s) => s.llms === true,
  },
  {
    name: "jsonFeed",
    pattern: "/feed.json",
    openapiPath: "/feed.json",
    enabled: (s) => s.feed === true,
  },
  {
    name: "mcp",
    pattern: "/api/mcp",
    openapiPath: "/api/mcp",
    enabled: (s) => s.mcp === true,
    methods: ["POST"],
  },
  {
    name: "item",
    pattern: "/:type/:uri+.json",
    openapiPath: "/{type}/{uri}.json",
    enabled: () => true,
  },
  {
    name: "markdown",
    pattern: "/:type/:uri+.md",
    openapiPath: "/{type}/{uri}.md",
    enabled: () => true,
  },
];

/**
 * The methods a routed path answers, for its `Allow` header: `GET, HEAD`,
 * or `POST` on the MCP server's path.
 *
 * @example
 * ```ts
 * import { allowedMethods } from "./table.ts";
 * allowedMethods("/api/mcp", ""); // "POST"
 * allowedMethods("/api/content.json", ""); // "GET, HEAD"
 * ```
 */
export function allowedMethods(pathname: string, basePath: string): string {
  return pathname === `${basePath}/api/mcp` || pathname === `${basePath}/api/mcp/`
    ? "POST"
    : "GET, HEAD";
}

/**
 * A test for the paths the routes serve, under a base path, whatever the
 * method: a known path with another method than `GET` or `HEAD` gets a `405`,
 * not a `404`.
 *
 * @example
 * ```ts
 * import { routedPath } from "./table.ts";
 * const isRouted = routedPath("/content");
 * isRouted("/content/docs/intro.json"); // true
 * isRouted("/content/nothing"); // false
 * ```
 */
export function routedPath(basePath: string): (pathname: string) => boolean {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const patterns = ROUTES.map((route) =>
    // The index answers at the base path with or without its slash, as the router matches it.
    route.pattern === "/"
      ? "/?"
      : escape(route.pattern).replace(/:[a-z]+\\\+/g, ".+").replace(/:[a-z]+/g, "[^/]+")
  );
  const regex = new RegExp(`^${escape(basePath)}(?:${patterns.join("|")})$`);
  return (pathname) => regex.test(pathname);
}
