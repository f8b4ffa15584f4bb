import type { Filters } from "../feed/filter.ts";
import { SORT_ORDERS, type SortOrder } from "../feed/filter.ts";
import type { Page } from "../feed/filter.ts";
import {
  INCLUDE_FIELDS,
  type IncludeField,
  ITEM_FIELDS,
  type ItemField,
} from "../index/item_fields.ts";
import { feedShape, SEED_SHAPE, type Shape, shapeOf } from "../index/shape.ts";
import type { AnyField } from "../index/item_fields.ts";
import { parseCursor } from "../sync/cursor.ts";
import { parseDate } from "../util/dates.ts";
import { fold, slugify } from "../util/slugify.ts";

/** A feed query, parsed and validated (SPEC 6.1, 6.2, 12). Absent parameters are `undefined`. */
export interface Query extends Filters {
  /**
   * The fields each item holds, in canonical order (SPEC 6.2: `fields`
   * narrows the seed's, `include` adds; the seed's without either).
   */
  readonly fields: readonly string[];
  /** The changes after this cursor (SPEC 12 `since`), instead of the feed: `0` is `{seq: 0}`. */
  readonly since?: { readonly journal: string | undefined; readonly seq: number };
}

/**
 * The shape of a query's items: its fields, with their writers.
 *
 * @example
 * ```ts
 * import { parseQuery, shapeOfQuery } from "./query.ts";
 * const query = parseQuery(new URLSearchParams("fields=last_update"), { types: [], categories: [] }).filters!;
 * shapeOfQuery(query).key; // "id,last_update"
 * ```
 */
export function shapeOfQuery(query: Pick<Query, "fields">): Shape {
  return query.fields === SEED_SHAPE_NAMES ? SEED_SHAPE : shapeOf(query.fields as AnyField[]);
}

/** The seed shape's names, one array: a query without `fields` or `include` holds it. */
const SEED_SHAPE_NAMES: readonly string[] = SEED_SHAPE.fields.map((field) => field.name);

/** A query that cannot be answered: the parameter and a sentence for `detail`. */
export interface QueryProblem {
  /** The parameter at fault. */
  readonly parameter: string;
  /** A sentence for the problem document's `detail`: what it accepts. */
  readonly detail: string;
}

/** What {@link parseQuery} needs to know about the index: the enabled values. */
export interface QueryVocabulary {
  /** The enabled plugins' types. */
  readonly types: readonly string[];
  /** Their categories. */
  readonly categories: readonly string[];
}

/** The parameters of `GET /api/content.json`, in documentation order. */
export const FEED_PARAMETERS = [
  "type",
  "category",
  "tag",
  "author",
  "search",
  "year",
  "month",
  "indexable",
  "searchable",
  "limit",
  "page",
  "updated_since",
  "include",
  "fields",
  "sort",
  "since",
] as const;

/** What `since` combines with (SPEC 12); any other filter with it would make deletions ambiguous. */
export const SINCE_COMBINES = ["type", "category", "include", "fields", "limit"] as const;

const KNOWN = new Set<string>(FEED_PARAMETERS);
const BOOL: Record<string, boolean> = { true: true, false: false, "1": true, "0": false };
/** The largest `limit` (SPEC 6.1). */
export const MAX_LIMIT = 10000;
/** The longest `search`, in characters (SPEC 6.1). */
export const MAX_SEARCH = 200;

/**
 * Parses a query string into a {@link Query}, or the first problem with it
 * (SPEC 6.1): an unknown or repeated parameter, a value outside its accepted
 * set, `month` without `year`, `page` without `limit`. An empty value counts
 * as absent. Pure.
 *
 * @example
 * ```ts
 * import { parseQuery } from "./query.ts";
 * const vocabulary = { types: ["docs"], categories: ["doc"] };
 * parseQuery(new URLSearchParams("type=docs&limit=20"), vocabulary);
 * // { filters: { type: "docs", limit: 20, page: 1, shape: … } }
 * parseQuery(new URLSearchParams("limit=abc"), vocabulary);
 * // { problem: { parameter: "limit", detail: 'limit must be an integer from 1 to 10000, got "abc"' } }
 * ```
 */
export function parseQuery(
  params: URLSearchParams,
  vocabulary: { readonly types: readonly string[]; readonly categories: readonly string[] },
):
  | { filters: Query; problem?: undefined }
  | { problem: { readonly parameter: string; readonly detail: string }; filters?: undefined } {
  const values = new Map<string, string>();
  for (const [key, value] of params) {
    if (!KNOWN.has(key)) {
      return problem(
        key,
        `unknown parameter ${JSON.stringify(key)}; accepted: ${FEED_PARAMETERS.join(", ")}`,
      );
    }
    if (values.has(key)) return problem(key, `${key} may be given only once`);
    values.set(key, value);
  }
  const get = (key: string) => values.get(key) || undefined;
  const filters: { -readonly [K in keyof Query]: Query[K] } = { page: 1, fields: SEED_SHAPE_NAMES };
  let includeList: IncludeField[] | undefined;
  let fieldList: ItemField[] | undefined;

  const type = get("type");
  if (type !== undefined) {
    if (!vocabulary.types.includes(type)) {
      return problem(
        "type",
        `type must be one of ${vocabulary.types.join(", ")}, got ${JSON.stringify(type)}`,
      );
    }
    filters.type = type;
  }
  const category = get("category");
  if (category !== undefined) {
    if (!vocabulary.categories.includes(category)) {
      return problem(
        "category",
        `category must be one of ${vocabulary.categories.join(", ")}, got ${
          JSON.stringify(category)
        }`,
      );
    }
    filters.category = category;
  }
  const tag = get("tag");
  if (tag !== undefined) filters.tag = slugify(tag);
  const author = get("author");
  if (author !== undefined) filters.author = slugify(author);
  const search = get("search");
  if (search !== undefined) {
    if ([...search].length > MAX_SEARCH) {
      return problem(
        "search",
        `search must be at most ${MAX_SEARCH} characters, got ${[...search].length}`,
      );
    }
    const terms = fold(search).split(/\s+/).filter(Boolean);
    if (terms.length > 0) filters.search = terms;
  }
  const year = get("year");
  if (year !== undefined) {
    if (!/^\d{4}$/.test(year)) {
      return problem("year", `year must be four digits, got ${JSON.stringify(year)}`);
    }
    filters.year = year;
  }
  const month = get("month");
  if (month !== undefined) {
    if (!/^\d{1,2}$/.test(month) || +month < 1 || +month > 12) {
      return problem(
        "month",
        `month must be an integer from 1 to 12, got ${JSON.stringify(month)}`,
      );
    }
    if (year === undefined) {
      return problem("month", "month needs year (for example year=2026&month=3)");
    }
    filters.month = +month;
  }
  for (const key of ["indexable", "searchable"] as const) {
    const value = get(key);
    if (value === undefined) continue;
    if (!Object.hasOwn(BOOL, value)) {
      return problem(key, `${key} must be true, false, 1 or 0, got ${JSON.stringify(value)}`);
    }
    filters[key] = BOOL[value];
  }
  const updatedSince = get("updated_since");
  if (updatedSince !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(updatedSince) || parseDate(updatedSince) === undefined) {
      return problem(
        "updated_since",
        `updated_since must be a date YYYY-MM-DD, got ${JSON.stringify(updatedSince)}`,
      );
    }
    filters.updatedSince = updatedSince;
  }
  const include = get("include");
  if (include !== undefined) {
    const parsed = parseInclude(include);
    if (typeof parsed === "string") return problem("include", parsed);
    if (parsed.length > 0) includeList = parsed;
  }
  const fields = get("fields");
  if (fields !== undefined) {
    const parsed = parseFields(fields);
    if (typeof parsed === "string") return problem("fields", parsed);
    fieldList = parsed;
  }
  const sort = get("sort");
  if (sort !== undefined) {
    if (!(SORT_ORDERS as readonly string[]).includes(sort)) {
      return problem(
        "sort",
        `sort must be one of ${SORT_ORDERS.join(", ")}, got ${JSON.stringify(sort)}`,
      );
    }
    if (sort !== "feed") filters.sort = sort as SortOrder;
  }
  const since = get("since");
  if (since !== undefined) {
    const cursor = parseCursor(since);
    if (!cursor) {
      return problem(
        "since",
        `since must be 0 or a cursor from meta.cursor, got ${JSON.stringify(since)}`,
      );
    }
    // Any other filter would hide deletions the client needs, or change their order.
    for (const key of values.keys()) {
      if (
        key !== "since" && values.get(key) && !(SINCE_COMBINES as readonly string[]).includes(key)
      ) {
        return problem(
          key,
          `${key} cannot be combined with since, which combines with ${
            SINCE_COMBINES.join(", ")
          } only`,
        );
      }
    }
    filters.since = cursor;
  }
  const limit = get("limit");
  if (limit !== undefined) {
    if (!/^\d+$/.test(limit) || +limit < 1 || +limit > MAX_LIMIT) {
      return problem(
        "limit",
        `limit must be an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(limit)}`,
      );
    }
    filters.limit = +limit;
  }
  const page = get("page");
  if (page !== undefined) {
    if (!/^\d+$/.test(page) || +page < 1 || !Number.isSafeInteger(+page)) {
      return problem("page", `page must be an integer of at least 1, got ${JSON.stringify(page)}`);
    }
    if (limit === undefined) {
      return problem("page", "page needs limit (for example limit=20&page=2)");
    }
    filters.page = +page;
  }
  if (fieldList || includeList) {
    filters.fields = feedShape(fieldList, includeList).fields.map((field) => field.name);
  }
  return { filters };
}

/**
 * Parses a `fields` value (SPEC 6.2): a comma list of item fields, given
 * back in canonical order with `id` first; or the sentence for a 400 when
 * it names a field there is none of.
 *
 * @example
 * ```ts
 * import { parseFields } from "./query.ts";
 * parseFields("last_update,checksum"); // ["id", "checksum", "last_update"]
 * parseFields("id,nope"); // 'fields accepts id, checksum, …, got "nope"'
 * ```
 */
export function parseFields(value: string): ItemField[] | string {
  const names = value.split(",").map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(ITEM_FIELDS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    return `fields accepts ${ITEM_FIELDS.join(", ")}, got ${
      unknown.map((name) => JSON.stringify(name)).join(", ")
    }`;
  }
  return ITEM_FIELDS.filter((field) => field === "id" || names.includes(field));
}

/**
 * Parses an `include` value (SPEC 6.2): a comma list of opt-in fields, in
 * any order and spelling of repeats, given back in canonical order; or the
 * sentence for a 400 when it names a field there is none of.
 *
 * @example
 * ```ts
 * import { parseInclude } from "./query.ts";
 * parseInclude("body,url"); // ["url", "body"]
 * parseInclude("url,nope"); // 'include accepts url, body, text, sections, got "nope"'
 * ```
 */
export function parseInclude(value: string): IncludeField[] | string {
  const names = value.split(",").map((name) => name.trim()).filter(Boolean);
  const unknown = names.find((name) => !(INCLUDE_FIELDS as readonly string[]).includes(name));
  if (unknown !== undefined) {
    return `include accepts ${INCLUDE_FIELDS.join(", ")}, got ${JSON.stringify(unknown)}`;
  }
  return INCLUDE_FIELDS.filter((field) => names.includes(field));
}

/**
 * The one spelling of a query: equal for every query that asks for the same
 * answer (`limit=7` and `limit=007`, `search=Café` and `search=cafe`, an
 * empty parameter and none, `include` and `fields` that give one shape), so
 * a response cache keeps one representation per answer, not one per
 * spelling (SPEC 9). `/feed.json` spells its links with it.
 *
 * @example
 * ```ts
 * import { queryKey, parseQuery } from "./query.ts";
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
    since: query.since && `${query.since.journal ?? ""}.${query.since.seq}`,
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
 * import { answerKey, parseQuery } from "./query.ts";
 * import { filterItems, paginate } from "../feed/filter.ts";
 * import { buildIndex } from "../index/build.ts";
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

function problem(parameter: string, detail: string) {
  return { problem: { parameter, detail } };
}
