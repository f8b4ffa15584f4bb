import { answer, type Plan, TYPES } from "../feed/plan.ts";
import { feedPlan } from "./feed.ts";
import { healthPlan } from "./health.ts";
import { homePlan } from "./home.ts";
import type { RouteInput } from "./input.ts";
import { itemPlan, markdownPlan } from "./item.ts";
import { openApiDocument } from "./openapi.ts";
import { jsonFeedPlan, llmsFullPlan, llmsPlan, sitemapPlan } from "./outputs.ts";
import type { RouteName } from "./table.ts";

/** A route's plan of its answer: a pure function of the index, its journal and the request. */
export type Planner = (input: RouteInput) => Plan | Promise<Plan>;

/**
 * `GET /api/openapi.json` (SPEC 8): the OpenAPI 3.1 document of the routes
 * the configuration enables.
 *
 * @example
 * ```ts
 * import { openApiPlan } from "./plans.ts";
 * declare const input: import("./input.ts").RouteInput;
 * openApiPlan(input).kind; // "answer"
 * ```
 */
export function openApiPlan(r: RouteInput): Plan {
  return answer("openapi", TYPES.json, () => JSON.stringify(openApiDocument(r.index, r.base)));
}

/**
 * The planner of every route answered with `GET` and `HEAD` (the MCP
 * server's `POST` is the SDK's to answer: its tools call these planners).
 *
 * @example
 * ```ts
 * import { PLANNERS } from "./plans.ts";
 * declare const input: import("./input.ts").RouteInput;
 * const plan = await PLANNERS.sitemap(input);
 * ```
 */
export const PLANNERS: Readonly<Record<Exclude<RouteName, "mcp">, Planner>> = {
  home: homePlan,
  feed: feedPlan,
  openapi: openApiPlan,
  health: healthPlan,
  sitemap: sitemapPlan,
  llms: llmsPlan,
  llmsFull: llmsFullPlan,
  jsonFeed: jsonFeedPlan,
  item: itemPlan,
  markdown: markdownPlan,
};
