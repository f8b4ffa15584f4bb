// What the MCP tools read (SPEC 14): the plans of the routes themselves,
// called directly, so a tool says exactly what the route says.
import type { Plan } from "../feed/plan.ts";
import type { Item } from "../index/item.ts";
import type { ToolBackend } from "../outputs/mcp_tools.ts";
import { feedPlan } from "./feed.ts";
import type { RouteInput } from "./input.ts";
import { itemPlan, markdownPlan } from "./item.ts";

/** A plan's answer as a tool reads it: its status and its body as text. */
export type RunPlan = (plan: Plan) => Promise<{ readonly status: number; readonly body: string }>;

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

/**
 * The backend of the MCP tools for one request's index and journal: the
 * feed's plan for `list_content`, `search_content` and `list_changes`, the
 * item routes' plans for `get_content`, the index's tags for `list_tags`.
 * `run` makes a plan's answer as a route would (the same kept answers).
 *
 * @example
 * ```ts
 * import { toolBackend } from "./mcp_backend.ts";
 * declare const input: import("./input.ts").RouteInput;
 * declare const run: import("./mcp_backend.ts").RunPlan;
 * const backend = toolBackend(input, run);
 * backend.tags();
 * ```
 */
export function toolBackend(r: RouteInput, run: RunPlan): ToolBackend {
  const at = (pathname: string, query = new URLSearchParams(), params = {}): RouteInput => ({
    ...r,
    pathname,
    query,
    params,
  });
  return {
    feed: async (query) => run(await feedPlan(at("/api/content.json", query))),
    find: ({ id, link }) => {
      const { feedById, byId, byUrl } = r.index;
      if (id !== undefined) return feedById.get(id) ?? byId.get(id);
      const path = pathOf(link!, r.base);
      if (path === undefined) return undefined;
      return byUrl.get(path) ?? r.index.byPath.get(path.replace(/\.(json|md)$/, ""));
    },
    forms: async (found: Item) => {
      const path = `/${encodePath(found.type)}/${encodePath(found.uri)}`;
      // Route parameters are as the URL spells them (the routes decode them).
      const params = { type: encodePath(found.type), uri: encodePath(found.uri) };
      const [json, md] = await Promise.all([
        run(itemPlan(at(`${path}.json`, undefined, params))),
        run(markdownPlan(at(`${path}.md`, undefined, params))),
      ]);
      const { body: _, ...metadata } = JSON.parse(json.body);
      return { metadata: JSON.stringify(metadata), markdown: md.body };
    },
    tags: () => r.index.tags,
  };
}
