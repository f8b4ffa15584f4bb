import { type Filters, SORT_ORDERS, type SortOrder } from "../feed/filter.ts";
import type { IncludeField, ItemField } from "../index/item_fields.ts";
import { feedShape } from "../index/shape.ts";
import { parseCursor } from "../sync/cursor.ts";
import { parseFields, parseInclude, SEED_SHAPE_NAMES } from "./query_fields.ts";
import { parseDate } from "../util/dates.ts";
import { isIgnoredParameter } from "./ignored_params.ts";
import { fold, slugify } from "../util/slugify.ts";

/** A feed query, parsed and validated (SPEC 6.1, 6.2, 12). Absent parameters are `undefined`. */
export interface Query extends Filters {
  /**
   * The fields each item holds, in canonical order (SPEC 6.2: `fields`
   * narrows the seed's, `include` adds; the seed's without either).
   */
  readonly fields: readonly string[];
  /**
   * The changes after this cursor (SPEC 12 `since`), instead of the feed:
   * `0` is `{seq: 0}`; a cursor inside a listing has `listed`.
   */
  readonly since?: {
    readonly journal: string | undefined;
    readonly seq: number;
    readonly listed?: number;
  };
}

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
  /** The site's locales (SPEC 16.3); none where it has none. */
  readonly langs?: readonly string[];
  /** The site's versions (SPEC 16.3); none where it has none. */
  readonly versions?: readonly string[];
}

/** The parameters of `GET /api/content.json`, in documentation order. */
export const FEED_PARAMETERS = [
  "type",
  "category",
  "lang",
  "version",
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
export const SINCE_COMBINES = [
  "type",
  "category",
  "lang",
  "version",
  "include",
  "fields",
  "limit",
] as const;

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
 * as absent; a parameter whose name starts with `utm_` or `_` (campaign
 * tags, cache-busters) is ignored. Pure.
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
  vocabulary: {
    readonly types: readonly string[];
    readonly categories: readonly string[];
    readonly langs?: readonly string[];
    readonly versions?: readonly string[];
  },
):
  | { filters: Query; problem?: undefined }
  | { problem: { readonly parameter: string; readonly detail: string }; filters?: undefined } {
  const values = new Map<string, string>();
  for (const [key, value] of params) {
    // Campaign tags and cache-busters are no part of a query (SPEC 6.1).
    if (isIgnoredParameter(key)) continue;
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
  for (
    const [key, known] of [["lang", vocabulary.langs], ["version", vocabulary.versions]] as const
  ) {
    const value = get(key);
    if (value === undefined) continue;
    if (!known?.includes(value)) {
      return problem(
        key,
        known?.length
          ? `${key} must be one of ${known.join(", ")}, got ${JSON.stringify(value)}`
          : `${key} does not apply: the site has no ${
            key === "lang" ? "locales" : "versions"
          }, got ${JSON.stringify(value)}`,
      );
    }
    filters[key] = value;
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

function problem(parameter: string, detail: string) {
  return { problem: { parameter, detail } };
}
