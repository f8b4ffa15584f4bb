import type { Index } from "../index/build.ts";
import { absoluteUrl } from "../util/url.ts";

/**
 * The sitemap (SPEC 8): one `url` per feed item, `loc` = the item's `url`
 * (SPEC 4: `{base}/<type>/<uri>` unless a permalink says otherwise),
 * `lastmod` = `last_update`.
 *
 * @example
 * ```ts
 * import { renderSitemap } from "./sitemap.ts";
 * import { buildIndex } from "../index/build.ts";
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
  const urls = index.feed.map((item) =>
    `<url><loc>${
      escapeXml(absoluteUrl(item.url, base))
    }</loc><lastmod>${item.last_update}</lastmod></url>`
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${
    urls.join("\n")
  }${urls.length ? "\n" : ""}</urlset>\n`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
