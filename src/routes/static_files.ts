// What `content-feed build` writes (issue 28): each route's answer to a
// request without query parameters, as a file at the route's own path, so
// that a static host serves the same bytes at the same URLs. Pure: the
// files are the routes' own plans, called directly.
import { answer, type Plan, TYPES } from "../feed/plan.ts";
import { renderSitemapParts, SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS } from "../feed/sitemap.ts";
import { JSON_FEED_PAGE } from "../outputs/json_feed.ts";
import { feedPlan } from "./feed.ts";
import type { RouteInput } from "./input.ts";
import { itemPlan, markdownPlan } from "./item.ts";
import { jsonFeedPlan, llmsFullPlan, llmsPlan } from "./outputs.ts";
import { openApiPlan } from "./plans.ts";

/** One file of a static build. */
export interface StaticFile {
  /** Its path in the built folder, `/`-separated, without a leading `/`: the route's path. */
  readonly path: string;
  /** The plan of its bytes, made when the file is written (one at a time: a few are large). */
  readonly plan: () => Plan | Promise<Plan>;
}

/** What the files are planned from: the index, its journal and the base URL the links are on. */
export type StaticInput = Pick<RouteInput, "index" | "journal" | "base">;

/** The feed's manifest (SPEC 6.2): what `?fields=id,checksum,last_update` answers. */
export const MANIFEST_FIELDS = "id,checksum,last_update";

/** Limits of a sitemap file: the sitemaps.org ones unless a test asks for smaller parts. */
export interface SitemapLimits {
  readonly urls: number;
  readonly bytes: number;
}

/** A path segment as a URL writes it (slashes kept: an item's URI may have several segments). */
const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");

/**
 * The files of a static build of an index, for the routes its settings
 * enable: `api/openapi.json`; `<type>/<uri>.json` and `.md` for every item
 * the item routes serve; with `api`, `api/content.json` (the full feed) and
 * `api/manifest.json` ({@link MANIFEST_FIELDS}); with `sitemap`,
 * `sitemap.xml` (a sitemap index of `sitemap-1.xml`, `sitemap-2.xml`, …
 * above 50,000 URLs or 50 MiB); with `llms`, `llms.txt` and
 * `llms-full.txt`; with `feed`, `feed.json` and its further pages
 * `feed/2.json`, … (each page's `next_url` names the next file). The MCP
 * server answers `POST`s: a static host has none of it. Each file holds the
 * bytes its route answers a `GET` without query parameters (a feed page:
 * `?page=n`, its `next_url` aside).
 *
 * @example
 * ```ts
 * import { staticFiles } from "./static_files.ts";
 * declare const input: import("./static_files.ts").StaticInput;
 * for (const file of staticFiles(input)) console.log(file.path); // "api/content.json", …
 * ```
 */
export function staticFiles(
  input: StaticInput,
  sitemapLimits: SitemapLimits = { urls: SITEMAP_MAX_URLS, bytes: SITEMAP_MAX_BYTES },
): StaticFile[] {
  const { index, base } = input;
  const { settings } = index;
  const at = (
    pathname: string,
    query = "",
    params: Record<string, string> = {},
  ): RouteInput => ({
    ...input,
    pathname: `${new URL(base).pathname.replace(/\/+$/, "")}${pathname}`,
    query: new URLSearchParams(query),
    params,
  });
  const files: StaticFile[] = [];
  const add = (path: string, plan: StaticFile["plan"]) => files.push({ path, plan });
  if (settings.api) {
    add("api/content.json", () => feedPlan(at("/api/content.json")));
    add("api/manifest.json", () => feedPlan(at("/api/content.json", `fields=${MANIFEST_FIELDS}`)));
  }
  add("api/openapi.json", () => openApiPlan(at("/api/openapi.json")));
  if (settings.sitemap) {
    const partUrl = (n: number) => `${base}/sitemap-${n}.xml`;
    const { sitemap, parts } = renderSitemapParts(
      index,
      base,
      partUrl,
      sitemapLimits.urls,
      sitemapLimits.bytes,
    );
    add("sitemap.xml", () => answer("sitemap", TYPES.xml, () => sitemap));
    parts.forEach((part, i) => {
      add(`sitemap-${i + 1}.xml`, () => answer(`sitemap-${i + 1}`, TYPES.xml, () => part));
    });
  }
  if (settings.llms) {
    add("llms.txt", () => llmsPlan(at("/llms.txt")));
    add("llms-full.txt", () => llmsFullPlan(at("/llms-full.txt")));
  }
  if (settings.feed) {
    const pageUrl = (n: number) => `${base}/feed/${n}.json`;
    const pages = Math.max(1, Math.ceil(index.feed.length / JSON_FEED_PAGE));
    add("feed.json", () => jsonFeedPlan(at("/feed.json"), pageUrl));
    for (let n = 2; n <= pages; n++) {
      add(`feed/${n}.json`, () => jsonFeedPlan(at("/feed.json", `page=${n}`), pageUrl));
    }
  }
  for (const item of index.items) {
    const path = `${item.type}/${item.uri}`;
    // Route parameters are as the URL spells them (the routes decode them).
    const params = { type: encodePath(item.type), uri: encodePath(item.uri) };
    add(`${path}.json`, () => itemPlan(at(`/${encodePath(path)}.json`, "", params)));
    add(`${path}.md`, () => markdownPlan(at(`/${encodePath(path)}.md`, "", params)));
  }
  return files;
}
