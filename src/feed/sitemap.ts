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
  return urlset(sitemapEntries(index, base).map((entry) => entry.xml), locales);
}

/** Most URLs one sitemap file may list (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;
/** Most bytes one sitemap file may hold, uncompressed (sitemaps.org: 50 MiB). */
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

/** A sitemap as files: the one at `/sitemap.xml`, and the parts a sitemap index there names. */
export interface SitemapFiles {
  /** `/sitemap.xml`: the `urlset` itself, or a `sitemapindex` of the parts. */
  readonly sitemap: string;
  /** The parts' `urlset`s, in order (empty when the `urlset` fits in one file). */
  readonly parts: readonly string[];
}

/**
 * The sitemap (see {@link renderSitemap}) cut into files a crawler
 * accepts: the one `urlset` of `GET /sitemap.xml` when it holds at most
 * `maxUrls` URLs and `maxBytes` bytes (the sitemaps.org limits by
 * default), else a `sitemapindex` naming parts of at most that many, each
 * with the newest `lastmod` it lists. A part's URL is `partUrl(n)` (from 1);
 * it lies beside `/sitemap.xml` (a sitemap may list only URLs under its own
 * folder, so parts go at the root, not in a folder of their own).
 *
 * @example
 * ```ts
 * import { renderSitemapParts } from "./sitemap.ts";
 * declare const index: import("../index/build.ts").Index;
 * const { sitemap, parts } = renderSitemapParts(index, "https://example.com",
 *   (n) => `https://example.com/sitemap-${n}.xml`);
 * parts.length; // 0 below 50,000 URLs: `sitemap` is the urlset
 * ```
 */
export function renderSitemapParts(
  index: Index,
  base: string,
  partUrl: (part: number) => string,
  maxUrls: number = SITEMAP_MAX_URLS,
  maxBytes: number = SITEMAP_MAX_BYTES,
): SitemapFiles {
  const entries = sitemapEntries(index, base);
  const locales = index.langs.length > 1;
  const room = maxBytes - urlset([], locales).length;
  const parts: Entry[][] = [[]];
  let bytes = 0;
  for (const entry of entries) {
    const size = utf8Length(entry.xml) + 1; // and its newline
    let part = parts[parts.length - 1];
    if (part.length > 0 && (part.length >= maxUrls || bytes + size > room)) {
      parts.push(part = []);
      bytes = 0;
    }
    part.push(entry);
    bytes += size;
  }
  if (parts.length === 1) return { sitemap: urlset(entries.map((e) => e.xml), locales), parts: [] };
  const listed = parts.map((part, i) => {
    const newest = part.reduce((max, e) => (e.lastmod > max ? e.lastmod : max), "");
    return `<sitemap><loc>${escapeXml(partUrl(i + 1))}</loc><lastmod>${newest}</lastmod></sitemap>`;
  });
  return {
    sitemap:
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n${
        listed.join("\n")
      }\n</sitemapindex>\n`,
    parts: parts.map((part) => urlset(part.map((e) => e.xml), locales)),
  };
}

const SITEMAP_NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";
const XHTML_NAMESPACE = ' xmlns:xhtml="http://www.w3.org/1999/xhtml"';

/** One `url` element of the sitemap and its `lastmod`. */
interface Entry {
  readonly xml: string;
  readonly lastmod: string;
}

/** A `urlset` document of `url` elements (with the XHTML namespace where the site has locales). */
function urlset(urls: readonly string[], locales: boolean): string {
  const namespaces = locales ? XHTML_NAMESPACE : "";
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NAMESPACE}"${namespaces}>\n${
    urls.join("\n")
  }${urls.length ? "\n" : ""}</urlset>\n`;
}

/** The sitemap's `url` elements, one per feed item, in feed order. */
function sitemapEntries(index: Index, base: string): Entry[] {
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
  return index.feed.map((item) => {
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
    return {
      xml: `<url><loc>${
        escapeXml(absoluteUrl(item.url, base))
      }</loc><lastmod>${item.last_update}</lastmod>${alternates}</url>`,
      lastmod: item.last_update,
    };
  });
}

/** The UTF-8 length of a text, without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Two bytes below U+0800, three above; a surrogate pair's four are two units of two.
    if (code >= 0x80) bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
