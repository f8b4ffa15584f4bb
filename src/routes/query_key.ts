// The one spelling of a feed query and of its answer (SPEC 9 "Bounded
// memory"): what the answer store keeps one representation per.
import type { Filters, Page } from "../feed/filter.ts";
import { FEED_PARAMETERS, type Query } from "./query.ts";
import { SEED_SHAPE_NAMES } from "./query_fields.ts";

/**
 * The one spelling of a query: equal for every query that asks for the same
 * answer (`limit=7` and `limit=007`, `search=Café` and `search=cafe`, an
 * empty parameter and none, `include` and `fields` that give one shape), so
 * a response cache keeps one representation per answer, not one per
 * spelling (SPEC 9). `/feed.json` spells its links with it.
 *
 * @example
 * ```ts
 * import { parseQuery } from "./query.ts";
 * import { queryKey } from "./query_key.ts";
 * const vocabulary = { types: ["docs"], categories: ["doc"] };
 * const a = parseQuery(new URLSearchParams("limit=007&search=Caf%C3%A9"), vocabulary).filters!;
 * const b = parseQuery(new URLSearchParams("search=cafe&limit=7&tag="), vocabulary).filters!;
 * queryKey(a) === queryKey(b); // true
 * ```
 */
export function queryKey(query: Filters & Partial<Pick<Query, "fields" | "since">>): string {
  const parts: [string, string][] = [];
  const named: Record<string, unknown> = {
    ...query,
    updated_since: query.updatedSince,
    fields: query.fields && query.fields !== SEED_SHAPE_NAMES ? query.fields.join(",") : undefined,
    since: query.since &&
      `${query.since.journal ?? ""}.${query.since.seq}${
        query.since.listed === undefined ? "" : `_${query.since.listed}`
      }`,
  };
  for (const key of FEED_PARAMETERS) {
    const value = named[key];
    if (value === undefined || (key === "page" && query.limit === undefined)) continue;
    parts.push([key, Array.isArray(value) ? value.join(" ") : String(value)]);
  }
  return new URLSearchParams(parts).toString();
}

/**
 * The one name of a feed answer (SPEC 9 "Bounded memory"): equal for every
 * request whose response body is the same, whatever its spelling and
 * whatever page size asks for it (`limit=9999` on a site of 3,000 items is
 * the unpaged feed). A response cache keyed by it holds one representation
 * per answer.
 *
 * @example
 * ```ts
 * import { parseQuery } from "./query.ts";
 * import { answerKey } from "./query_key.ts";
 * import { filterItems, paginate } from "../feed/filter.ts";
 * import { buildIndex } from "../index/build_parsed.ts";
 * const index = buildIndex([{
 *   plugin: "docs", path: "intro.md", checksum: "00", mtime: 0,
 *   attrs: { title: "Intro", tags: ["Deno"] }, body: "Hello, and welcome to the docs.",
 * }], {
 *   title: undefined, url: undefined, api: true, sitemap: true,
 *   plugins: [{ name: "docs", path: "docs" }],
 * }, 0);
 * const all = parseQuery(new URLSearchParams(""), index).filters!;
 * const big = parseQuery(new URLSearchParams("limit=9999"), index).filters!;
 * answerKey(all, paginate(filterItems(index, all), all)) ===
 *   answerKey(big, paginate(filterItems(index, big), big)); // true
 * ```
 */
export function answerKey(query: Query, page: Page): string {
  const key = queryKey({ ...query, limit: undefined, page: 1 });
  if (page.items.length === page.total) return key; // every match: the unpaged answer (any limit)
  const start = (page.page - 1) * (query.limit ?? 0);
  return `${key}#${page.items.length === 0 ? "none" : `${start}+${page.items.length}`}`;
}
