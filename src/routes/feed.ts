import { feedBytes, feedHead, seedBytesOf } from "../feed/feed_bytes.ts";
import { filterItems, paginate, sortItems } from "../feed/filter.ts";
import { pageLinks } from "../feed/links.ts";
import { type Plan, problem, TYPES } from "../feed/plan.ts";
import { extrasReader, renderWithBodies } from "../feed/with_bodies.ts";
import type { Item } from "../index/item.ts";
import { formatCursor } from "../sync/cursor.ts";
import { sincePlan } from "../sync/since.ts";
import type { RouteInput } from "./input.ts";
import { parseQuery } from "./query.ts";
import { shapeOfQuery } from "./query_fields.ts";
import { answerKey, queryKey } from "./query_key.ts";

/**
 * `GET /api/content.json` (SPEC 6, 6.1, 6.2): the feed items that match the
 * filters, sorted and paged, each with the fields of the query's shape; or,
 * with `since`, the changes after a cursor (SPEC 12). A bad query is a
 * `400` naming the parameter. A page's `Link` header keeps the request's
 * own spelling of its query; the body is the answer's, one per answer.
 *
 * @example
 * ```ts
 * import { feedPlan } from "./feed.ts";
 * declare const input: import("./input.ts").RouteInput;
 * const plan = await feedPlan(input);
 * plan.kind; // "answer", or "problem" for a bad query
 * ```
 */
export async function feedPlan(r: RouteInput): Promise<Plan> {
  const parsed = parseQuery(r.query, r.index);
  if (parsed.problem) return problem(400, parsed.problem.detail);
  const query = parsed.filters;
  const { index, base, journal } = r;
  if (query.since) {
    return sincePlan({
      index,
      journal,
      base,
      since: query.since,
      type: query.type,
      category: query.category,
      lang: query.lang,
      version: query.version,
      limit: query.limit,
      shape: shapeOfQuery(query),
      key: `feed?${queryKey(query)}`,
      params: r.query,
    });
  }
  // The first search of an index reads the bodies it does not hold; later ones reuse them.
  const contains = query.search && r.contains ? await r.contains() : undefined;
  const page = paginate(sortItems(filterItems(index, query, contains), query.sort), query);
  const link = pageLinks(`${base}/api/content.json`, r.query, page);
  const key = answerKey(query, page);
  const cursor = formatCursor(journal.id, journal.head);
  const shape = shapeOfQuery(query);
  return {
    kind: "answer",
    key: key ? `feed?${key}` : "feed",
    readsFiles: shape.needs !== undefined,
    type: TYPES.json,
    ...(link ? { headers: { Link: link } } : {}),
    async make(making) {
      if (!shape.needs) {
        return {
          body: feedBytes(index, page, base, {
            cursor,
            shape,
            full: shape.seed ? making.fullFeed() : undefined,
          }),
        };
      }
      const stale: Item[] = [];
      const body = await renderWithBodies(
        feedHead(page.items.length, page.total, base, index.generated, cursor),
        page.items,
        "]}",
        base,
        shape,
        extrasReader(making, shape.needs, stale),
        seedBytesOf(index, making.fullFeed),
      );
      return body ? { body } : { stale };
    },
  };
}
