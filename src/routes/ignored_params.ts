// Query parameters no route reads (SPEC 6.1): campaign tags (`utm_source`)
// that links pick up on the way, and cache-busters (`_=1700000000`) that
// clients add. They are neither a bad query (a 400) nor another answer: the
// routes never see them, so they take no part in an answer's key or links.

/**
 * Whether no route reads a query parameter of this name: it starts with
 * `utm_` (campaign tags) or `_` (cache-busters).
 *
 * @example
 * ```ts
 * import { isIgnoredParameter } from "./ignored_params.ts";
 * isIgnoredParameter("utm_source"); // true
 * isIgnoredParameter("limit"); // false
 * ```
 */
export function isIgnoredParameter(name: string): boolean {
  return name.startsWith("_") || name.startsWith("utm_");
}

/** A query string that may hold an ignored parameter (as spelled, not decoded): a cheap first look. */
const MAY_HOLD = /[?&](?:_|utm_)/;

/**
 * The parameters without those no route reads (names that start with
 * `utm_` or `_`); the same object when it holds none.
 *
 * @example
 * ```ts
 * import { withoutIgnoredParameters } from "./ignored_params.ts";
 * withoutIgnoredParameters(new URLSearchParams("limit=5&utm_source=news&_=17")).toString();
 * // "limit=5"
 * ```
 */
export function withoutIgnoredParameters(params: URLSearchParams): URLSearchParams {
  let kept: URLSearchParams | undefined;
  for (const [name] of params) {
    if (!isIgnoredParameter(name)) continue;
    kept = new URLSearchParams([...params].filter(([key]) => !isIgnoredParameter(key)));
    break;
  }
  return kept ?? params;
}

/**
 * A request URL without the parameters no route reads, for a key that
 * names its answer (one per answer, however many cache-busters ask for
 * it); the same string when it holds none (the common case costs one
 * regular-expression test).
 *
 * @example
 * ```ts
 * import { urlWithoutIgnoredParameters } from "./ignored_params.ts";
 * urlWithoutIgnoredParameters("https://example.com/api/content.json?_=17&limit=5");
 * // "https://example.com/api/content.json?limit=5"
 * ```
 */
export function urlWithoutIgnoredParameters(url: string): string {
  if (!MAY_HOLD.test(url)) return url;
  const parsed = new URL(url);
  const kept = withoutIgnoredParameters(parsed.searchParams);
  if (kept === parsed.searchParams) return url;
  parsed.search = kept.toString();
  return parsed.href;
}
