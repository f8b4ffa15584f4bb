import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import type { Page } from "./filter.ts";
import type { IncludeField } from "./query.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * An item's feed object as JSON, exactly the seed's fields in the seed's
 * order, with `link` and a root-relative `image` made absolute with `base`.
 *
 * @example
 * ```ts
 * import { itemJson } from "./render.ts";
 * import { buildIndex } from "../index/build.ts";
 * const index = buildIndex([{
 *   plugin: "docs", path: "intro.md", checksum: "00", mtime: 0,
 *   attrs: { title: "Intro", tags: ["Deno"] }, body: "Hello, and welcome to the docs.",
 * }], {
 *   title: undefined, url: undefined, api: true, sitemap: true,
 *   plugins: [{ name: "docs", path: "docs" }],
 * }, 0);
 * itemJson(index.feed[0], "https://example.com");
 * // '{"id":"docs_doc_intro",…,"link":"https://example.com/docs/intro.json","image":null,…}'
 * ```
 */
export function itemJson(item: Item, base: string, include: readonly IncludeField[] = []): string {
  const q = JSON.stringify;
  const image = item.image?.startsWith("/") && !item.image.startsWith("//")
    ? base + item.image
    : item.image;
  // A template, not JSON.stringify of an object: faster, and the first full
  // feed after a start or a change serializes every item.
  let authors = "";
  for (const a of item.authors) {
    authors += `${authors ? "," : ""}{"name":${q(a.name)},"slug":${q(a.slug)}}`;
  }
  let tags = "";
  for (const t of item.tags) {
    tags += `${tags ? "," : ""}{"name":${q(t.name)},"slug":${q(t.slug)},"count":${t.count}}`;
  }
  return `{"id":${q(item.id)},"checksum":${q(item.checksum)},"type":${q(item.type)},"category":${
    q(item.category)
  },"uri":${q(item.uri)},"link":${q(`${base}/${item.type}/${item.uri}.json`)},"image":${
    q(image)
  },"title":${q(item.title)},"description":${
    q(item.description)
  },"authors":[${authors}],"tags":[${tags}],"date":${q(item.date)},"last_update":${
    q(item.last_update)
  },"time":${item.time}${
    include.includes("url") ? `,"url":${q(absoluteUrl(item.url, base))}` : ""
  }}`;
}

/**
 * An item's `url` (or any root-relative link) made absolute with the base
 * URL; an absolute one as it is.
 *
 * @example
 * ```ts
 * import { absoluteUrl } from "./render.ts";
 * absoluteUrl("/docs/intro", "https://example.com"); // "https://example.com/docs/intro"
 * absoluteUrl("https://other.example/x", "https://example.com"); // "https://other.example/x"
 * ```
 */
export function absoluteUrl(url: string, base: string): string {
  return url.startsWith("/") && !url.startsWith("//") ? base + url : url;
}

/**
 * The full feed of one index for one base URL, as the bytes served, and
 * where each item's object sits in them: a filtered page copies those byte
 * ranges, so no request serializes an item or encodes a string, and no
 * copy of the feed is kept but the one served.
 */
export interface FeedBytes {
  /** The full feed document. */
  readonly bytes: Uint8Array;
  /** Byte offset of `index.feed[i]`'s object; `starts[n]` is one past the closing `]`'s offset. */
  readonly starts: Uint32Array;
}

function metaJson(count: number, total: number, base: string, generated: string): string {
  return `{"meta":{"count":${count},"total":${total},"url":${
    JSON.stringify(`${base}/`)
  },"generated":${JSON.stringify(generated)}},"data":[`;
}

/**
 * Writes the full feed of an index for a base URL (SPEC 6) straight into
 * one buffer, with each item's byte offset, for {@link renderFeedBytes} to
 * cut pages from. Pure; the caller keeps the result as long as it likes.
 *
 * @example
 * ```ts
 * import { renderFullFeed } from "./render.ts";
 * import { buildIndex } from "../index/build.ts";
 * const index = buildIndex([{
 *   plugin: "docs", path: "intro.md", checksum: "00", mtime: 0,
 *   attrs: { title: "Intro", tags: ["Deno"] }, body: "Hello, and welcome to the docs.",
 * }], {
 *   title: undefined, url: undefined, api: true, sitemap: true,
 *   plugins: [{ name: "docs", path: "docs" }],
 * }, 0);
 * const full = renderFullFeed(index, "https://example.com");
 * new TextDecoder().decode(full.bytes); // '{"meta":{"count":…'
 * ```
 */
export function renderFullFeed(index: Index, base: string): FeedBytes {
  const items = index.feed;
  const starts = new Uint32Array(items.length + 1);
  // One buffer written in place: its size is guessed from a sample of items
  // and rarely grows, and no copy of the feed is made as a string.
  let bytes = new Uint8Array(0);
  let at = 0;
  const write = (text: string) => {
    for (let done = 0; done < text.length;) {
      if (bytes.length - at < text.length - done) grow(text.length - done);
      const { read, written } = encoder.encodeInto(
        done === 0 ? text : text.slice(done),
        bytes.subarray(at),
      );
      done += read;
      at += written;
      // Room for the characters left but not for the bytes of the next one: no progress without more.
      if (read === 0) grow(4);
    }
  };
  const grow = (need: number) => {
    const next = new Uint8Array(Math.max(Math.ceil(bytes.length * 1.25), at + need + 1024));
    next.set(bytes.subarray(0, at));
    bytes = next;
  };
  const head = metaJson(items.length, items.length, base, index.generated);
  // The guess: the bytes of 64 items spread over the feed, scaled to all, and a little over.
  const step = Math.max(1, Math.floor(items.length / 64));
  let sampled = 0, sample = 0;
  for (let i = 0; i < items.length; i += step, sampled++) {
    sample += encoder.encode(itemJson(items[i], base)).length + 1;
  }
  grow(head.length * 3 + Math.ceil((sample / Math.max(1, sampled)) * items.length * 1.03) + 2);
  write(head);
  items.forEach((item, i) => {
    if (i > 0) {
      if (at === bytes.length) grow(1);
      bytes[at++] = 44; // ,
    }
    starts[i] = at;
    write(itemJson(item, base));
  });
  write("]}");
  starts[items.length] = at - 1;
  // A guess far over the size would hold memory for nothing: copy it out then.
  return {
    bytes: bytes.length - at > at / 8 ? bytes.slice(0, at) : bytes.subarray(0, at),
    starts,
  };
}

/**
 * The feed document (SPEC 6) as UTF-8 bytes: `meta` (count, total, url,
 * generated) and `data`. A page is copied out of the full feed's bytes,
 * which are written first unless `full` (from {@link renderFullFeed}, for
 * the same index and base) is given; the full feed is those bytes
 * themselves. With `include` (opt-in fields, SPEC 6.2), the page is written
 * item by item.
 *
 * @example
 * ```ts
 * import { renderFeedBytes } from "./render.ts";
 * import { filterItems, paginate } from "./filter.ts";
 * import { buildIndex } from "../index/build.ts";
 * const index = buildIndex([{
 *   plugin: "docs", path: "intro.md", checksum: "00", mtime: 0,
 *   attrs: { title: "Intro", tags: ["Deno"] }, body: "Hello, and welcome to the docs.",
 * }], {
 *   title: undefined, url: undefined, api: true, sitemap: true,
 *   plugins: [{ name: "docs", path: "docs" }],
 * }, 0);
 * const bytes = renderFeedBytes(index, paginate(filterItems(index, { page: 1 }), { page: 1 }), "https://example.com");
 * ```
 */
export function renderFeedBytes(
  index: Index,
  page: Page,
  base: string,
  full?: FeedBytes,
  include: readonly IncludeField[] = [],
): Uint8Array {
  if (include.length > 0) {
    // Items with opt-in fields are not in the full feed's bytes: written here.
    const head = metaJson(page.items.length, page.total, base, index.generated);
    return encoder.encode(
      `${head}${page.items.map((item) => itemJson(item, base, include)).join(",")}]}`,
    );
  }
  full ??= renderFullFeed(index, base);
  if (page.items === index.feed) return full.bytes;
  const { bytes, starts } = full;
  const head = encoder.encode(metaJson(page.items.length, page.total, base, index.generated));
  const ranges = page.items.map((item) => {
    const i = index.feedPlace.get(item);
    if (i === undefined) throw new Error(`${item.id} is not in the feed`);
    return i;
  });
  // An item's object ends one byte before the next one starts (at its comma, or the closing `]`).
  const end = (i: number) => starts[i + 1] - 1;
  let size = head.length + 2 + Math.max(0, ranges.length - 1);
  for (const i of ranges) size += end(i) - starts[i];
  const out = new Uint8Array(size);
  out.set(head);
  let at = head.length;
  ranges.forEach((i, n) => {
    if (n > 0) out[at++] = 44; // ,
    out.set(bytes.subarray(starts[i], end(i)), at);
    at += end(i) - starts[i];
  });
  out[at++] = 93; // ]
  out[at++] = 125; // }
  return out;
}

/**
 * {@link renderFeedBytes} as a string.
 *
 * @example
 * ```ts
 * import { renderFeed } from "./render.ts";
 * import { filterItems, paginate } from "./filter.ts";
 * import { buildIndex } from "../index/build.ts";
 * const index = buildIndex([{
 *   plugin: "docs", path: "intro.md", checksum: "00", mtime: 0,
 *   attrs: { title: "Intro", tags: ["Deno"] }, body: "Hello, and welcome to the docs.",
 * }], {
 *   title: undefined, url: undefined, api: true, sitemap: true,
 *   plugins: [{ name: "docs", path: "docs" }],
 * }, 0);
 * const body = renderFeed(index, paginate(filterItems(index, { page: 1 }), { page: 1 }), "https://example.com");
 * JSON.parse(body).meta.count;
 * ```
 */
export function renderFeed(index: Index, page: Page, base: string): string {
  return decoder.decode(renderFeedBytes(index, page, base));
}
