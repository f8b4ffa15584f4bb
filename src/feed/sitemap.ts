import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import { absoluteUrl } from "../util/url.ts";

/**
 * The sitemap (SPEC 8): one `url` per feed item, `loc` = the item's `url`
 * (SPEC 4: `{base}/<type>/<uri>` unless a permalink says otherwise),
 * `lastmod` = `last_update`. Where the site has locales (SPEC 16.3), each
 * page in several lists them all as `xhtml:link rel="alternate" hreflang`,
 * itself included, as search engines read them: the same page is the same
 * `variant_of` (or the item itself, in the default variant) and version.
 *
 * @example
 * ```ts
 * import { renderSitemap } from "./sitemap.ts";
 * import { buildIndex } from "../index/build_parsed.ts";
 * const index = buildIndex([{
 *   plugin: "docs", path: "intro.md", checksum: "00", mtime: 0,
 *   attrs: { title: "Intro", tags: ["Deno"] }, body: "Hello, and welcome to the docs.",
 * }], {
 *   title: undefined, url: undefined, api: true, sitemap: true,
 *   plugins: [{ name: "docs", path: "docs" }],
 * }, 0);
 * renderSitemap(index, "https://example.com");
 * ```
 */
export function renderSitemap(index: Index, base: string): string {
  const locales = index.langs.length > 1;
  const pages = new Map<string, Item[]>();
  if (locales) {
    for (const item of index.feed) {
      if (item.lang === null) continue;
      const key = `${item.variant_of ?? item.id}\n${item.version ?? ""}`;
      const page = pages.get(key);
      if (page) page.push(item);
      else pages.set(key, [item]);
    }
  }
  const urls = index.feed.map((item) => {
    const page = locales && item.lang !== null
      ? pages.get(`${item.variant_of ?? item.id}\n${item.version ?? ""}`)!
      : [];
    const alternates = page.length > 1
      ? page.map((other) =>
        `<xhtml:link rel="alternate" hreflang="${escapeXml(other.lang!)}" href="${
          escapeXml(absoluteUrl(other.url, base))
        }"/>`
      ).join("")
      : "";
    return `<url><loc>${
      escapeXml(absoluteUrl(item.url, base))
    }</loc><lastmod>${item.last_update}</lastmod>${alternates}</url>`;
  });
  const namespaces = locales ? ' xmlns:xhtml="http://www.w3.org/1999/xhtml"' : "";
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${namespaces}>\n${
    urls.join("\n")
  }${urls.length ? "\n" : ""}</urlset>\n`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
