import { itemJson } from "../feed/item_json.ts";
import { type Plan, problem, TYPES } from "../feed/plan.ts";
import type { Item } from "../index/item.ts";
import { formShape } from "../index/shape.ts";
import { itemMarkdown } from "../outputs/markdown.ts";
import type { RouteInput } from "./input.ts";
import { parseInclude } from "./query_fields.ts";

/**
 * The item a route's path names (SPEC 7: matched against the index only,
 * never the file system), with its key `type/uri`; `undefined` when none
 * is served there (or the path's percent-encoding is malformed).
 */
function itemAt(r: RouteInput): [string, Item] | undefined {
  let key: string;
  try {
    key = `${decodeURIComponent(r.params.type)}/${decodeURIComponent(r.params.uri)}`;
  } catch {
    return undefined;
  }
  const found = r.index.byPath.get(key);
  return found && [key, found];
}

/** The `404` of a path that names nothing. */
export function notFound(r: Pick<RouteInput, "pathname">): Plan {
  return problem(404, `nothing at ${r.pathname}`);
}

/**
 * `GET /{type}/{uri}.json` (SPEC 7): an item's JSON form, for every
 * non-draft item, indexable or not: the feed fields, then `body`, `parent`
 * and `children`, then what `include` adds (`url`, `text`, `sections`).
 *
 * @example
 * ```ts
 * import { itemPlan } from "./item.ts";
 * declare const input: import("./input.ts").RouteInput;
 * itemPlan(input).kind; // "answer", or "problem" (404, 400)
 * ```
 */
export function itemPlan(r: RouteInput): Plan {
  const at = itemAt(r);
  if (!at) return notFound(r);
  const [key, found] = at;
  const asked = r.query.get("include");
  const include = asked ? parseInclude(asked) : [];
  if (typeof include === "string") return problem(400, include);
  const shape = formShape(include);
  const { base } = r;
  return {
    kind: "answer",
    key: `item:${key}${include.length ? `?include=${include.join(",")}` : ""}`,
    type: TYPES.json,
    readsFiles: true,
    holds: [found],
    async make(making) {
      // Every item's body is in its form; text and sections when asked for.
      const needs = {
        body: true,
        text: include.includes("text"),
        sections: include.includes("sections"),
      };
      const got = await making.gather([found], needs);
      if (got.changed.length > 0) return { stale: got.changed };
      return { body: itemJson(found, base, shape, got.extras.get(found)) };
    },
  };
}

/**
 * `GET /{type}/{uri}.md` (SPEC 14): an item's Markdown form, for the same
 * items as the JSON form.
 *
 * @example
 * ```ts
 * import { markdownPlan } from "./item.ts";
 * declare const input: import("./input.ts").RouteInput;
 * markdownPlan(input).kind; // "answer", or "problem" (404)
 * ```
 */
export function markdownPlan(r: RouteInput): Plan {
  const at = itemAt(r);
  if (!at) return notFound(r);
  const [key, found] = at;
  const { base } = r;
  return {
    kind: "answer",
    key: `md:${key}`,
    type: TYPES.markdown,
    readsFiles: true,
    holds: [found],
    async make(making) {
      const got = await making.gather([found], { body: true, text: false, sections: false });
      if (got.changed.length > 0) return { stale: got.changed };
      return { body: itemMarkdown(found, base, got.extras.get(found)?.body ?? "") };
    },
  };
}
