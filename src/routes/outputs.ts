// The routes of the forms for LLMs and agents (SPEC 14) and the sitemap
// (SPEC 8): each a plan over the index, made once per index.
import { filterItems, paginate, sortItems } from "../feed/filter.ts";
import { answer, type Plan, problem, TYPES } from "../feed/plan.ts";
import { renderSitemap } from "../feed/sitemap.ts";
import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import { JSON_FEED_PAGE, renderJsonFeed } from "../outputs/json_feed.ts";
import { renderLlmsFull, renderLlmsTxt } from "../outputs/llms.ts";
import type { Making } from "../feed/plan.ts";
import type { RouteInput } from "./input.ts";
import { parseQuery } from "./query.ts";
import { queryKey } from "./query_key.ts";

/** Items whose bodies `/llms-full.txt` holds at once while it is written. */
const LLMS_FULL_RUN = 256;
/** Parameters of the feed that `/feed.json` does not take: it pages and orders itself. */
const NOT_FOR_JSON_FEED = ["limit", "sort", "include", "fields", "since"];
const BODY = { body: true, text: false, sections: false };
const TEXT = { body: false, text: true, sections: false };
const encoder = new TextEncoder();

/**
 * `GET /sitemap.xml` (SPEC 8): a sitemaps.org `urlset` of the feed items.
 *
 * @example
 * ```ts
 * import { sitemapPlan } from "./outputs.ts";
 * declare const input: import("./input.ts").RouteInput;
 * sitemapPlan(input).kind; // "answer"
 * ```
 */
export function sitemapPlan(r: RouteInput): Plan {
  return answer("sitemap", TYPES.xml, () => renderSitemap(r.index, r.base));
}

/**
 * `GET /llms.txt` (SPEC 14): the site's title and description, then each
 * plugin's feed items linked to their Markdown.
 *
 * @example
 * ```ts
 * import { llmsPlan } from "./outputs.ts";
 * declare const input: import("./input.ts").RouteInput;
 * llmsPlan(input).kind; // "answer"
 * ```
 */
export function llmsPlan(r: RouteInput): Plan {
  return answer("llms", TYPES.text, () => renderLlmsTxt(r.index, r.base, new URL(r.base).host));
}

/**
 * `GET /llms-full.txt` (SPEC 14): every feed item's Markdown in feed
 * order, read and written a run of items at a time (never every body held
 * at once).
 *
 * @example
 * ```ts
 * import { llmsFullPlan } from "./outputs.ts";
 * declare const input: import("./input.ts").RouteInput;
 * llmsFullPlan(input).kind; // "answer"
 * ```
 */
export function llmsFullPlan(r: RouteInput): Plan {
  const { index, base } = r;
  return {
    kind: "answer",
    key: "llms-full",
    type: TYPES.text,
    readsFiles: true,
    make: (making) => llmsFullBytes(index, base, making),
  };
}

/** The bytes of `/llms-full.txt`, or the items whose files changed since the index was built. */
async function llmsFullBytes(index: Index, base: string, making: Making) {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let at = 0; at < index.feed.length; at += LLMS_FULL_RUN) {
    const run = index.feed.slice(at, at + LLMS_FULL_RUN);
    const got = await making.gather(run, BODY);
    if (got.changed.length > 0) return { stale: got.changed };
    const part = encoder.encode(
      renderLlmsFull(run, base, (item: Item) => got.extras.get(item)?.body ?? ""),
    );
    parts.push(part);
    size += part.length;
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.length;
  }
  return { body };
}

/**
 * `GET /feed.json` (SPEC 14): a JSON Feed 1.1 page of 50 feed items,
 * newest `date` first, the feed's filters applied; `page` without `limit`.
 * Its links spell the filters one canonical way (one body per answer).
 *
 * @param pageUrl where page `n` (from 2) is, for `next_url`: by default
 *   `/feed.json?page=n`; a static build's pages are files (`/feed/2.json`)
 *
 * @example
 * ```ts
 * import { jsonFeedPlan } from "./outputs.ts";
 * declare const input: import("./input.ts").RouteInput;
 * const plan = await jsonFeedPlan(input);
 * ```
 */
export async function jsonFeedPlan(
  r: RouteInput,
  pageUrl?: (page: number) => string,
): Promise<Plan> {
  const refused = NOT_FOR_JSON_FEED.find((name) => r.query.has(name));
  if (refused) {
    return problem(
      400,
      `${refused} does not apply to /feed.json: it holds ${JSON_FEED_PAGE} items a page, newest first`,
    );
  }
  const params = new URLSearchParams(r.query);
  params.set("limit", String(JSON_FEED_PAGE));
  const parsed = parseQuery(params, r.index);
  if (parsed.problem) return problem(400, parsed.problem.detail);
  const query = parsed.filters;
  const contains = query.search && r.contains ? await r.contains() : undefined;
  const page = paginate(sortItems(filterItems(r.index, query, contains), "-date"), query);
  const canonical = queryKey({ ...query, limit: undefined });
  const at = (extra: string) => {
    const search = [canonical, extra].filter(Boolean).join("&");
    return `${r.base}/feed.json${search ? `?${search}` : ""}`;
  };
  const next = page.page >= (page.last ?? 1)
    ? undefined
    : pageUrl
    ? pageUrl(page.page + 1)
    : at(`page=${page.page + 1}`);
  const { index, base } = r;
  return {
    kind: "answer",
    key: `jsonfeed?${queryKey(query)}`,
    type: TYPES.jsonFeed,
    readsFiles: true,
    async make(making) {
      const got = await making.gather(page.items, TEXT);
      if (got.changed.length > 0) return { stale: got.changed };
      return {
        body: renderJsonFeed(
          index,
          page.items,
          base,
          at(""),
          (item) => got.extras.get(item)?.text ?? "",
          next,
        ),
      };
    },
  };
}
