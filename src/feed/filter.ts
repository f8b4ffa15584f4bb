import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import { compareText } from "../util/compare.ts";
import { fold } from "../util/slugify.ts";
import { type Contains, heldBodyContains } from "./search.ts";

/** An order of the matches (SPEC 6.2 `sort`). */
export type SortOrder = NonNullable<Filters["sort"]>;

/** The orders `sort` accepts (SPEC 6.2); ties keep feed order. */
export const SORT_ORDERS: readonly SortOrder[] = [
  "feed",
  "date",
  "-date",
  "last_update",
  "-last_update",
  "title",
];

/** What selects and pages feed items (SPEC 6.1, 6.2 `sort`). Absent filters are `undefined`. */
export interface Filters {
  /** An enabled plugin's type. */
  readonly type?: string;
  /** A category of an enabled plugin. */
  readonly category?: string;
  /** A locale of the site (SPEC 16.3). */
  readonly lang?: string;
  /** A version of the site (SPEC 16.3). */
  readonly version?: string;
  /** Slug of the tag. */
  readonly tag?: string;
  /** Slug of the author. */
  readonly author?: string;
  /** Folded search terms; every one must occur. */
  readonly search?: readonly string[];
  /** Four digits. */
  readonly year?: string;
  /** 1–12. */
  readonly month?: number;
  /** The `indexable` flag (false: nothing, since the feed holds indexable items only). */
  readonly indexable?: boolean;
  /** The `searchable` flag. */
  readonly searchable?: boolean;
  /** At most this many items (1–10000). */
  readonly limit?: number;
  /** 1 when absent. */
  readonly page: number;
  /** The order of the matches before paging (SPEC 6.2 `sort`); `undefined`: feed order. */
  readonly sort?: "feed" | "date" | "-date" | "last_update" | "-last_update" | "title";
  /** `YYYY-MM-DD`: items whose `last_update` is on or after that day (SPEC 6.1 `updated_since`). */
  readonly updatedSince?: string;
}

/**
 * The feed items that match the filters, in feed order, before paging
 * (SPEC 6.1). Starts from the shortest precomputed candidate list, then
 * checks the remaining conditions. Pure.
 *
 * @param contains how `search` looks into an item's text: by default the
 *   item's own body, folded on every call (an index built from parsed
 *   files); a service passes the texts `createSearchTexts` keeps
 *
 * @example
 * ```ts
 * import { filterItems } from "./filter.ts";
 * import { buildIndex } from "../index/build_parsed.ts";
 * const index = buildIndex([{
 *   plugin: "docs", path: "intro.md", checksum: "00", mtime: 0,
 *   attrs: { title: "Intro", tags: ["Deno"] }, body: "Hello, and welcome to the docs.",
 * }], {
 *   title: undefined, url: undefined, api: true, sitemap: true,
 *   plugins: [{ name: "docs", path: "docs" }],
 * }, 0);
 * const matches = filterItems(index, { type: "docs", page: 1 });
 * ```
 */
export function filterItems(
  index: Index,
  filters: Filters,
  contains: Contains = heldBodyContains,
): readonly Item[] {
  if (filters.indexable === false) return [];
  let candidates: readonly Item[] = index.feed;
  const lists = index.lists;
  const keyed: [ReadonlyMap<string, readonly Item[]>, string | undefined][] = [
    [lists.type, filters.type],
    [lists.category, filters.category],
    [lists.tag, filters.tag],
    [lists.author, filters.author],
    [lists.year, filters.year],
  ];
  for (const [map, key] of keyed) {
    if (key === undefined) continue;
    const list = map.get(key) ?? [];
    if (list.length < candidates.length) candidates = list;
  }
  const month = filters.month === undefined ? undefined : String(filters.month).padStart(2, "0");
  const { type, category, lang, version, tag, author, year, searchable, search, updatedSince } =
    filters;
  const checks: ((item: Item) => boolean)[] = [];
  if (type !== undefined) checks.push((item) => item.type === type);
  if (category !== undefined) checks.push((item) => item.category === category);
  if (lang !== undefined) checks.push((item) => item.lang === lang);
  if (version !== undefined) checks.push((item) => item.version === version);
  if (tag !== undefined) checks.push((item) => item.tags.some((t) => t.slug === tag));
  if (author !== undefined) checks.push((item) => item.authors.some((a) => a.slug === author));
  if (year !== undefined) checks.push((item) => item.date.startsWith(year));
  if (month !== undefined) checks.push((item) => item.date.slice(5, 7) === month);
  if (searchable !== undefined) checks.push((item) => item.searchable === searchable);
  if (updatedSince !== undefined) checks.push((item) => item.last_update >= updatedSince);
  if (search !== undefined) {
    checks.push((item) => {
      return search.every((term) => contains(item, term));
    });
  }
  if (checks.length === 0) return candidates;
  return candidates.filter((item) => checks.every((check) => check(item)));
}

/** The comparison of each `sort` order; ties are left to the stable sort (feed order). */
const ORDERS: Record<Exclude<SortOrder, "feed" | "title">, (a: Item, b: Item) => number> = {
  date: (a, b) => compareText(a.date, b.date),
  "-date": (a, b) => compareText(b.date, a.date),
  last_update: (a, b) => compareText(a.last_update, b.last_update),
  "-last_update": (a, b) => compareText(b.last_update, a.last_update),
};

/**
 * The matches in the order `sort` asks for (SPEC 6.2), ties in feed order
 * (`title` compares titles with case and accents ignored, as search does);
 * without `sort`, the matches themselves. Pure.
 *
 * @example
 * ```ts
 * import { sortItems } from "./filter.ts";
 * declare const matches: readonly import("../index/item.ts").Item[];
 * sortItems(matches, "-last_update"); // recently updated first
 * ```
 */
export function sortItems(matches: readonly Item[], sort: SortOrder | undefined): readonly Item[] {
  if (sort === undefined || sort === "feed") return matches;
  if (sort === "title") {
    // Titles compare as search does, case and accents ignored; each folded once.
    const keyed = matches.map((item) => ({ item, key: fold(item.title) }));
    keyed.sort((a, b) => compareText(a.key, b.key));
    return keyed.map(({ item }) => item);
  }
  // Array.prototype.sort is stable: equal keys keep the feed order they came in.
  return [...matches].sort(ORDERS[sort]);
}

/** One page of matches and where it sits. */
export interface Page {
  /** The items of this page, in feed order. */
  readonly items: readonly Item[];
  /** Matches before paging. */
  readonly total: number;
  /** This page's number (1 without `limit`). */
  readonly page: number;
  /** Pages in all (at least 1); `undefined` without `limit`. */
  readonly last: number | undefined;
}

/**
 * Cuts one page out of the matches: items `(page-1)*limit` onward, at most
 * `limit`; past the end the page is empty. Pure.
 *
 * @example
 * ```ts
 * import { paginate } from "./filter.ts";
 * paginate(["a", "b", "c"] as never[], { limit: 2, page: 2 }).items; // ["c"]
 * ```
 */
export function paginate(matches: readonly Item[], filters: Pick<Filters, "limit" | "page">): Page {
  const total = matches.length;
  if (filters.limit === undefined) return { items: matches, total, page: 1, last: undefined };
  const start = (filters.page - 1) * filters.limit;
  return {
    // A page that holds every match is the matches themselves: the full feed stays one buffer.
    items: start >= total
      ? []
      : start === 0 && filters.limit >= total
      ? matches
      : matches.slice(start, start + filters.limit),
    total,
    page: filters.page,
    last: Math.max(1, Math.ceil(total / filters.limit)),
  };
}
