import type { Page } from "./filter.ts";

/**
 * The RFC 8288 `Link` header of a paged feed response: `first`, `prev`,
 * `next` and `last` where they exist, each the request's own query with
 * another `page`.
 *
 * @example
 * ```ts
 * import { pageLinks } from "./links.ts";
 * pageLinks("https://example.com/api/content.json", new URLSearchParams("limit=2"), { items: [], total: 5, page: 1, last: 3 });
 * // '<https://example.com/api/content.json?limit=2&page=1>; rel="first", <…page=2>; rel="next", <…page=3>; rel="last"'
 * ```
 */
export function pageLinks(
  endpoint: string,
  params: URLSearchParams,
  page: Page,
): string | undefined {
  if (page.last === undefined) return undefined;
  const at = (n: number) => {
    const query = new URLSearchParams(params);
    query.set("page", String(n));
    return `<${endpoint}?${query}>`;
  };
  const links = [`${at(1)}; rel="first"`];
  if (page.page > 1) links.push(`${at(Math.min(page.page - 1, page.last))}; rel="prev"`);
  if (page.page < page.last) links.push(`${at(page.page + 1)}; rel="next"`);
  links.push(`${at(page.last)}; rel="last"`);
  return links.join(", ");
}
