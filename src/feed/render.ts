import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import type { Page } from "./filter.ts";

/** Per index and base URL, every item's serialized feed object (computed once). */
const fragments = new WeakMap<Index, Map<string, Map<Item, string>>>();
const MAX_BASES = 8;

/**
 * An item's feed object as JSON, exactly the seed's fields in the seed's
 * order, with `link` and a root-relative `image` made absolute with `base`.
 * Memoized per index and base URL, so a request only joins strings.
 *
 * @example
 * ```ts
 * import { itemJson } from "./render.ts";
 * itemJson(index, index.feed[0], "https://example.com");
 * // '{"id":"docs_doc_intro",…,"link":"https://example.com/docs/intro.json","image":null,…}'
 * ```
 */
export function itemJson(index: Index, item: Item, base: string): string {
  let bases = fragments.get(index);
  if (!bases) fragments.set(index, bases = new Map());
  let cache = bases.get(base);
  if (!cache) {
    // Bases come from Host headers when no URL is configured: keep only a few.
    if (bases.size >= MAX_BASES) bases.delete(bases.keys().next().value!);
    bases.set(base, cache = new Map());
  }
  let json = cache.get(item);
  if (json === undefined) {
    const image = item.image?.startsWith("/") && !item.image.startsWith("//")
      ? base + item.image
      : item.image;
    json = `${item.jsonHead}${JSON.stringify(`${base}/${item.type}/${item.uri}.json`)},"image":${
      JSON.stringify(image)
    }${item.jsonTail}`;
    cache.set(item, json);
  }
  return json;
}

/**
 * The feed document (SPEC 6): `meta` (count, total, url, generated) and `data`.
 *
 * @example
 * ```ts
 * import { renderFeed } from "./render.ts";
 * import { filterItems, paginate } from "./filter.ts";
 * const body = renderFeed(index, paginate(filterItems(index, { page: 1 }), { page: 1 }), "https://example.com");
 * ```
 */
export function renderFeed(index: Index, page: Page, base: string): string {
  const data = page.items.map((item) => itemJson(index, item, base)).join(",");
  return `{"meta":{"count":${page.items.length},"total":${page.total},"url":${
    JSON.stringify(`${base}/`)
  },"generated":${JSON.stringify(index.generated)}},"data":[${data}]}`;
}

/**
 * An item's JSON form (SPEC 7): the feed fields, then `body`, `parent`, `children`.
 *
 * @example
 * ```ts
 * import { renderItem } from "./render.ts";
 * renderItem(index, index.byPath.get("docs/intro")!, "https://example.com");
 * ```
 */
export function renderItem(index: Index, item: Item, base: string): string {
  // Built per request (and then cached as a response), not kept per item:
  // a serialized copy of every body would double what bodies cost in memory.
  return `${itemJson(index, item, base).slice(0, -1)},"body":${
    JSON.stringify(item.body)
  },"parent":${JSON.stringify(item.parent)},"children":${JSON.stringify(item.children)}}`;
}

/**
 * The sitemap (SPEC 8): one `url` per feed item, `loc` without `.json`, `lastmod` = `last_update`.
 *
 * @example
 * ```ts
 * import { renderSitemap } from "./render.ts";
 * renderSitemap(index, "https://example.com");
 * ```
 */
export function renderSitemap(index: Index, base: string): string {
  const urls = index.feed.map((item) =>
    `<url><loc>${
      escapeXml(`${base}/${item.type}/${item.uri}`)
    }</loc><lastmod>${item.last_update}</lastmod></url>`
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${
    urls.join("\n")
  }${urls.length ? "\n" : ""}</urlset>\n`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The RFC 8288 `Link` header of a paged feed response: `first`, `prev`,
 * `next` and `last` where they exist, each the request's own query with
 * another `page`.
 *
 * @example
 * ```ts
 * import { pageLinks } from "./render.ts";
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
