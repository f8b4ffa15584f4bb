import { answer, type Plan, TYPES } from "../feed/plan.ts";
import { formatCursor } from "../sync/cursor.ts";
import type { RouteInput } from "./input.ts";

/** The body of `GET /api/health` once an index is served. */
export interface Health {
  readonly status: "ok";
  /** Items the index serves (the item routes' items). */
  readonly items: number;
  /** Of those, the items in the feed. */
  readonly feed: number;
  /** When the index was built (RFC 3339, UTC). */
  readonly built: string;
  /** The change journal's position as of the index: the feed's `meta.cursor`. */
  readonly cursor: string;
}

/**
 * `GET /api/health`: `200` with `status: "ok"`, the item counts, the
 * index's build time and its cursor, for a process manager's or a load
 * balancer's health check. It is never cached (`Cache-Control: no-store`):
 * a check must reach the server. Until the first index is served the
 * server answers `503` with `status: "starting"` (`http/starting.ts`).
 *
 * @example
 * ```ts
 * import { healthPlan } from "./health.ts";
 * declare const input: import("./input.ts").RouteInput;
 * healthPlan(input).kind; // "answer"
 * ```
 */
export function healthPlan(r: RouteInput): Plan {
  const { index, journal } = r;
  const health: Health = {
    status: "ok",
    items: index.items.length,
    feed: index.feed.length,
    built: new Date(index.builtAt).toISOString(),
    cursor: formatCursor(journal.id, journal.head),
  };
  return answer("health", TYPES.json, () => JSON.stringify(health), {
    "Cache-Control": "no-store",
  });
}
