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
 * The path a link names on one of the site's origins, without slashes at
 * its end: under the base URL's path on the base URL's origin (an item's
 * `.json` or `.md` form, or a page there), the whole path on the site's
 * (`site_url`, where its pages are). A link on another host names nothing.
 */
function pathOf(link: string, base: string, siteUrl: string | undefined): string | undefined {
  let path: string;
  try {
    const url = new URL(link, `${base}/`);
    const own = new URL(`${base}/`);
    if (url.origin === own.origin && url.pathname.startsWith(own.pathname)) {
      path = url.pathname.slice(own.pathname.length);
    } else if (siteUrl !== undefined && url.origin === new URL(siteUrl).origin) {
      path = url.pathname.slice(1);
    } else return undefined;
    path = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  return path.replace(/\/+$/, "");
}

/** A plan's answer as the problem's detail, when it is not a `200`. */
function problemOf(answer: { readonly status: number; readonly body: string }): string | undefined {
  if (answer.status === 200) return undefined;
  try {
    return (JSON.parse(answer.body) as { detail?: string }).detail ?? `status ${answer.status}`;
  } catch {
    return `status ${answer.status}`;
  }
}

/**
 * The backend of the MCP tools and resources for one request's index and
 * journal: the feed's plan for `list_content`, `search_content` and
 * `list_changes`, the item routes' plans for `get_content` and
 * `resources/read`, the index's tags for `list_tags`, its served items for
 * `resources/list`. `run` makes a plan's answer as a route would (the same
 * kept answers).
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
  /** The input of an item's route (`.json` or `.md`): parameters as the URL spells them. */
  const itemRoute = (found: Item, extension: "json" | "md") =>
    at(`/${encodePath(found.type)}/${encodePath(found.uri)}.${extension}`, undefined, {
      type: encodePath(found.type),
      uri: encodePath(found.uri),
    });
  const { settings } = r.index;
  return {
    feed: async (query) => run(await feedPlan(at("/api/content.json", query))),
    find: ({ id, link }) => {
      const { feedById, byId, byUrl } = r.index;
      if (id !== undefined) return feedById.get(id) ?? byId.get(id);
      const path = pathOf(link!, r.base, settings.siteUrl);
      if (path === undefined) return undefined;
      return byUrl.get(path) ?? r.index.byPath.get(path.replace(/\.(json|md)$/, ""));
    },
    forms: async (found: Item) => {
      const [json, md] = await Promise.all([
        run(itemPlan(itemRoute(found, "json"))),
        run(markdownPlan(itemRoute(found, "md"))),
      ]);
      const problem = problemOf(json) ?? problemOf(md);
      if (problem !== undefined) return { problem };
      const { body: _, ...metadata } = JSON.parse(json.body);
      return { metadata, markdown: md.body };
    },
    markdown: async (found: Item) => {
      const md = await run(markdownPlan(itemRoute(found, "md")));
      const problem = problemOf(md);
      return problem === undefined ? md.body : { problem };
    },
    tags: () => r.index.tags,
    served: () => r.index.byPath,
    base: r.base,
    site: { title: settings.title, description: settings.description, types: r.index.types },
  };
}
