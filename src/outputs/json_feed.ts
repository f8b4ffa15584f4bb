import { absoluteUrl } from "../util/url.ts";
import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";

/** Items a JSON Feed page holds (SPEC 14). */
export const JSON_FEED_PAGE = 50;

/** A JSON Feed 1.1 item (https://www.jsonfeed.org/version/1.1/). */
interface JsonFeedItem {
  id: string;
  url: string;
  title: string;
  summary: string;
  content_text: string;
  image?: string;
  date_published: string;
  date_modified: string;
  authors: { name: string }[];
  tags: string[];
  language?: string;
}

/** A day (`YYYY-MM-DD`) as RFC 3339, which JSON Feed's dates are: its midnight, UTC. */
const rfc3339 = (day: string) => `${day}T00:00:00Z`;

/**
 * `/feed.json` (SPEC 14): a JSON Feed 1.1 document of one page of feed
 * items (the caller has filtered them, newest `date` first, and cut the
 * page): `id`, `url`, `title`, `summary` (the description), `content_text`
 * (the plain text), `image`, `date_published` (`date`), `date_modified`
 * (`last_update`), `authors` and `tags` (names), `language` where the
 * site has locales (SPEC 16.3); `next_url` while pages remain. The home
 * page is the site's (`site_url`), where it is not the service's.
 *
 * @param textOf each item's plain text (SPEC 13; the caller makes them)
 * @param nextUrl the next page's URL, or `undefined` on the last page
 *
 * @example
 * ```ts
 * import { renderJsonFeed } from "./json_feed.ts";
 * declare const index: import("../index/build.ts").Index;
 * JSON.parse(renderJsonFeed(index, [], "https://example.com", "https://example.com/feed.json",
 *   () => "", undefined)).version; // "https://jsonfeed.org/version/1.1"
 * ```
 */
export function renderJsonFeed(
  index: Index,
  items: readonly Item[],
  base: string,
  feedUrl: string,
  textOf: (item: Item) => string,
  nextUrl: string | undefined,
): string {
  const { title, description } = index.settings;
  const feed = {
    version: "https://jsonfeed.org/version/1.1",
    title: title ?? new URL(base).host,
    home_page_url: `${index.settings.siteUrl ?? base}/`,
    feed_url: feedUrl,
    ...(description ? { description } : {}),
    ...(nextUrl ? { next_url: nextUrl } : {}),
    items: items.map((item): JsonFeedItem => ({
      id: item.id,
      url: absoluteUrl(item.url, base),
      title: item.title,
      summary: item.description,
      content_text: textOf(item),
      ...(item.image ? { image: absoluteUrl(item.image, base) } : {}),
      date_published: rfc3339(item.date),
      date_modified: rfc3339(item.last_update),
      authors: item.authors.map(({ name }) => ({ name })),
      tags: item.tags.map(({ name }) => name),
      ...(item.lang ? { language: item.lang } : {}),
    })),
  };
  return JSON.stringify(feed);
}
