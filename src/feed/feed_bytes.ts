// The feed document's bytes (SPEC 6): the full feed of an index written
// once per base URL, and pages cut out of it without writing an item again.
import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import type { ItemExtras } from "../index/item_fields.ts";
import { SEED_SHAPE, type Shape } from "../index/shape.ts";
import { byteWriter } from "../util/byte_writer.ts";
import type { Page } from "./filter.ts";
import { itemJson } from "./item_json.ts";

const encoder = new TextEncoder();

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

/**
 * The head of a feed document, up to the opening `[` of its `data`: the
 * `meta` of SPEC 6 (and of SPEC 12's `since` answer, with `more`).
 *
 * @example
 * ```ts
 * import { feedHead } from "./feed_bytes.ts";
 * feedHead(2, 9, "https://example.com", "2026-11-21 09:15:02", "k3v9q2.41");
 * // '{"meta":{"count":2,"total":9,…,"cursor":"k3v9q2.41"},"data":['
 * ```
 */
export function feedHead(
  count: number,
  total: number,
  base: string,
  generated: string,
  cursor?: string,
  more?: boolean,
): string {
  return `{"meta":{"count":${count},"total":${total},"url":${
    JSON.stringify(`${base}/`)
  },"generated":${JSON.stringify(generated)}${
    cursor === undefined ? "" : `,"cursor":${JSON.stringify(cursor)}`
  }${more === undefined ? "" : `,"more":${more}`}},"data":[`;
}

/**
 * Writes the full feed of an index for a base URL (SPEC 6) straight into
 * one buffer, with each item's byte offset, for {@link feedBytes} to cut
 * pages from. Pure; the caller keeps the result as long as it likes.
 *
 * @example
 * ```ts
 * import { renderFullFeed } from "./feed_bytes.ts";
 * import { buildIndex } from "../index/build_parsed.ts";
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
export function renderFullFeed(
  index: Index,
  base: string,
  cursor?: string,
  previous?: PreviousFeed,
): FeedBytes {
  const items = index.feed;
  const starts = new Uint32Array(items.length + 1);
  const head = feedHead(items.length, items.length, base, index.generated, cursor);
  // An item an earlier feed holds as it is (the same object in the previous
  // index, the same key in a kept image) has the same bytes there: they are
  // copied (SPEC 17: a change costs what it changed), and only the others are
  // written.
  const was = (item: Item) => previous?.placeOf(item);
  const old = previous?.full;
  // One buffer written in place: its size is guessed from a sample of items
  // (or known from the previous feed's) and rarely grows, and no copy of the
  // feed is made as a string. The guess: the bytes of 64 items spread over
  // the feed, scaled to all, and a little over.
  const step = Math.max(1, Math.floor(items.length / 64));
  let sampled = 0, sample = 0;
  for (let i = 0; i < items.length; i += step, sampled++) {
    const at = was(items[i]);
    sample += at !== undefined
      ? old!.starts[at + 1] - old!.starts[at]
      : encoder.encode(itemJson(items[i], base)).length + 1;
  }
  const out = byteWriter(
    head.length * 3 + Math.ceil((sample / Math.max(1, sampled)) * items.length * 1.03) + 2,
  );
  out.write(head);
  items.forEach((item, i) => {
    if (i > 0) out.write(",");
    starts[i] = out.at;
    const at = was(item);
    // An object ends one byte before the next starts (at its comma or the closing `]`).
    if (at !== undefined) out.copy(old!.bytes.subarray(old!.starts[at], old!.starts[at + 1] - 1));
    else out.write(itemJson(item, base));
  });
  out.write("]}");
  starts[items.length] = out.at - 1;
  // A guess far over the size would hold memory for nothing: copy it out then.
  return { bytes: out.done(), starts };
}

/**
 * An earlier full feed of the same base URL and code, and where it holds an
 * item whose bytes are the same: the previous index's own feed (its
 * `feedPlace` of the same item object), or the one a stopped server kept
 * (`pipeline/feed_image.ts`: the place of the same item key).
 */
export interface PreviousFeed {
  readonly full: FeedBytes;
  /** The item's place in `full`, where its bytes there are its bytes now. */
  readonly placeOf: (item: Item) => number | undefined;
}

/** What {@link feedBytes} writes beyond a page's items. */
export interface FeedOptions {
  /** `meta.cursor`: the journal's position for the index (a service always gives it). */
  readonly cursor?: string;
  /** Each item's fields (default: the seed's). */
  readonly shape?: Shape;
  /** Each item's body, text and sections, when the shape names them. */
  readonly extras?: ReadonlyMap<Item, ItemExtras>;
  /** The full feed of the same index, base URL and cursor, when the caller keeps one. */
  readonly full?: FeedBytes;
}

/**
 * The feed document (SPEC 6) as UTF-8 bytes: `meta` (count, total, url,
 * generated, cursor) and `data`. A page of the seed's shape is copied out
 * of the full feed's bytes (written first unless `full` is given; the full
 * feed is those bytes themselves); other shapes are written item by item.
 *
 * @example
 * ```ts
 * import { feedBytes } from "./feed_bytes.ts";
 * import { filterItems, paginate } from "./filter.ts";
 * import { buildIndex } from "../index/build_parsed.ts";
 * const index = buildIndex([{
 *   plugin: "docs", path: "intro.md", checksum: "00", mtime: 0,
 *   attrs: { title: "Intro", tags: ["Deno"] }, body: "Hello, and welcome to the docs.",
 * }], {
 *   title: undefined, url: undefined, api: true, sitemap: true,
 *   plugins: [{ name: "docs", path: "docs" }],
 * }, 0);
 * const bytes = feedBytes(index, paginate(filterItems(index, { page: 1 }), { page: 1 }), "https://example.com");
 * ```
 */
export function feedBytes(
  index: Index,
  page: Page,
  base: string,
  options: FeedOptions = {},
): Uint8Array {
  const { cursor, shape = SEED_SHAPE } = options;
  const head = feedHead(page.items.length, page.total, base, index.generated, cursor);
  if (!shape.seed) {
    // Items with other fields are not in the full feed's bytes: written here.
    const out = byteWriter(1024);
    out.write(head);
    page.items.forEach((item, i) => {
      if (i > 0) out.write(",");
      out.write(itemJson(item, base, shape, options.extras?.get(item)));
    });
    out.write("]}");
    return out.done();
  }
  const full = options.full ?? renderFullFeed(index, base, cursor);
  if (page.items === index.feed) return full.bytes;
  return joinItems(index, page.items, full, encoder.encode(head), TAIL);
}

const TAIL = encoder.encode("]}");

/**
 * `head`, the items' objects copied out of the full feed's bytes a comma
 * apart, and `tail`: a page, or the `data` of a `since` answer.
 *
 * @throws {Error} for an item the feed does not hold
 *
 * @example
 * ```ts
 * import { joinItems, renderFullFeed } from "./feed_bytes.ts";
 * declare const index: import("../index/build.ts").Index;
 * const full = renderFullFeed(index, "https://example.com");
 * const bytes = joinItems(index, index.feed.slice(0, 2), full,
 *   new TextEncoder().encode('{"data":['), new TextEncoder().encode("]}"));
 * ```
 */
export function joinItems(
  index: Index,
  items: readonly Item[],
  full: FeedBytes,
  head: Uint8Array,
  tail: Uint8Array,
): Uint8Array {
  const { bytes, starts } = full;
  const ranges = items.map((item) => {
    const i = index.feedPlace.get(item);
    if (i === undefined) throw new Error(`${item.id} is not in the feed`);
    return i;
  });
  // An item's object ends one byte before the next one starts (at its comma, or the closing `]`).
  const end = (i: number) => starts[i + 1] - 1;
  let size = head.length + tail.length + Math.max(0, ranges.length - 1);
  for (const i of ranges) size += end(i) - starts[i];
  const out = new Uint8Array(size);
  out.set(head);
  let at = head.length;
  ranges.forEach((i, n) => {
    if (n > 0) out[at++] = 44; // ,
    out.set(bytes.subarray(starts[i], end(i)), at);
    at += end(i) - starts[i];
  });
  out.set(tail, at);
  return out;
}

/**
 * An item's object with the seed's fields as the full feed holds it, up to
 * but without its closing `}` (a view into the full feed's bytes, no copy);
 * `undefined` for an item the feed lacks.
 */
export type SeedBytes = (item: Item) => Uint8Array | undefined;

/**
 * The {@link SeedBytes} of a full feed: what an answer with bodies copies
 * instead of writing the seed's fields again, so a whole feed with bodies
 * costs its bodies and little more. `full` is asked for on the first item
 * only, so a shape that does not start with the seed's fields never has
 * the full feed built for it.
 *
 * @example
 * ```ts
 * import { renderFullFeed, seedBytesOf } from "./feed_bytes.ts";
 * declare const index: import("../index/build.ts").Index;
 * const seed = seedBytesOf(index, () => renderFullFeed(index, "https://example.com"));
 * new TextDecoder().decode(seed(index.feed[0])); // '{"id":"docs_doc_intro",…,"time":1'
 * ```
 */
export function seedBytesOf(index: Index, full: () => FeedBytes): SeedBytes {
  let feed: FeedBytes | undefined;
  return (item) => {
    const i = index.feedPlace.get(item);
    if (i === undefined) return undefined;
    const { bytes, starts } = feed ??= full();
    // An object ends one byte before the next starts (at its comma or the closing `]`): drop its `}` too.
    return bytes.subarray(starts[i], starts[i + 1] - 2);
  };
}
