import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import type { Section } from "../text/sections.ts";
import { formatTimestamp } from "../util/dates.ts";
import { jsonStringBytes, writeJsonString } from "./json_bytes.ts";
import type { Page } from "./filter.ts";
import { type IncludeField, type ItemField, SEED_FIELDS } from "./query.ts";

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
  if (include.some((field) => field !== "url")) {
    return shapedItemJson(item, base, [...SEED_FIELDS, ...include]);
  }
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

/**
 * The head of a feed document, up to the opening `[` of its `data`: what
 * {@link renderWithBodies} writes items after.
 *
 * @example
 * ```ts
 * import { feedHead } from "./render.ts";
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

/** What an item's opt-in fields hold in one response: its body, and what is made of it. */
export interface ItemExtras {
  /** The Markdown body without front matter (SPEC 6.2 `body`). */
  readonly body?: string;
  /**
   * The body as a range of its file's bytes, `[bytes, start, end)`: written
   * as a JSON string straight from them (`json_bytes.ts`), where `body`
   * would be decoded, escaped and encoded.
   */
  readonly bodyBytes?: readonly [Uint8Array, number, number];
  /** Its plain text (SPEC 13). */
  readonly text?: string;
  /** Its sections (SPEC 13). */
  readonly sections?: readonly Section[];
}

/** How a feed document is written beyond its items (SPEC 6, 6.2, 12). */
export interface RenderOptions {
  /** `meta.cursor`: the journal's position for the index (a service always gives it). */
  readonly cursor?: string;
  /** Each item's fields, in canonical order (default: the seed's). */
  readonly fields?: readonly ItemField[];
  /** Each item's body, text and sections, when `fields` names them. */
  readonly extras?: ReadonlyMap<Item, ItemExtras>;
}

/**
 * An item's feed object with the given fields, in the order given (SPEC
 * 6.2 `fields` and `include`): `link` and a root-relative `image` or `url`
 * made absolute with `base`; `body`, `text` and `sections` from `extras`.
 *
 * @throws {TypeError} when a field asks for an extra that `extras` lacks
 *
 * @example
 * ```ts
 * import { shapedItemJson } from "./render.ts";
 * declare const item: import("../index/item.ts").Item;
 * shapedItemJson(item, "https://example.com", ["id", "checksum", "last_update"]);
 * // '{"id":"docs_doc_intro","checksum":"9f2c…","last_update":"2026-03-02"}'
 * ```
 */
export function shapedItemJson(
  item: Item,
  base: string,
  fields: readonly ItemField[],
  extras: ItemExtras = {},
): string {
  let out = "";
  for (const field of fields) {
    out += `${out ? "," : "{"}${JSON.stringify(field)}:${fieldJson(item, field, base, extras)}`;
  }
  return `${out || "{"}}`;
}

/**
 * Sections as an item's `sections` field holds them (SPEC 13): each
 * section's fields in the documented order, nothing else it carries.
 *
 * @example
 * ```ts
 * import { sectionObjects } from "./render.ts";
 * declare const sections: readonly import("../text/sections.ts").Section[];
 * JSON.stringify(sectionObjects(sections)); // '[{"anchor":"intro","heading":"Intro",…}]'
 * ```
 */
export function sectionObjects(sections: readonly Section[]): object[] {
  return sections.map((s) => ({
    anchor: s.anchor,
    heading: s.heading,
    path: s.path,
    level: s.level,
    text: s.text,
    checksum: s.checksum,
  }));
}

/** One field's value as JSON (see {@link shapedItemJson}). */
function fieldJson(item: Item, field: ItemField, base: string, extras: ItemExtras): string {
  const q = JSON.stringify;
  switch (field) {
    case "link":
      return q(`${base}/${item.type}/${item.uri}.json`);
    case "image":
      return q(item.image === null ? null : absoluteUrl(item.image, base));
    case "authors":
      return q(item.authors.map(({ name, slug }) => ({ name, slug })));
    case "tags":
      return q(item.tags.map(({ name, slug, count }) => ({ name, slug, count })));
    case "url":
      return q(absoluteUrl(item.url, base));
    case "body":
      if (extras.body !== undefined) return q(extras.body);
      if (extras.bodyBytes !== undefined) {
        return decoder.decode(jsonStringBytes(...extras.bodyBytes));
      }
      throw new TypeError(`${item.id}: no body given`);
    case "text":
      if (extras.text === undefined) throw new TypeError(`${item.id}: no text given`);
      return q(extras.text);
    case "sections":
      if (extras.sections === undefined) throw new TypeError(`${item.id}: no sections given`);
      return q(sectionObjects(extras.sections));
    default:
      return q(item[field]);
  }
}

/** Whether a field list is the seed's (the fast template, and the full feed's bytes, serve it). */
function isSeed(fields: readonly ItemField[] | undefined): boolean {
  return fields === undefined ||
    (fields.length === SEED_FIELDS.length && fields.every((f, i) => f === SEED_FIELDS[i]));
}

/** A buffer that UTF-8 text is written straight into, growing as needed. */
function byteWriter(guess: number, growth = 1.25) {
  let bytes = new Uint8Array(Math.max(64, guess));
  let at = 0;
  const grow = (need: number) => {
    const next = new Uint8Array(Math.max(Math.ceil(bytes.length * growth), at + need + 1024));
    next.set(bytes.subarray(0, at));
    bytes = next;
  };
  return {
    get at() {
      return at;
    },
    write(text: string) {
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
    },
    copy(part: Uint8Array) {
      if (bytes.length - at < part.length) grow(part.length);
      bytes.set(part, at);
      at += part.length;
    },
    room(count: number) {
      if (bytes.length - at < count) grow(count);
      return { bytes, at };
    },
    advance(count: number) {
      at += count;
    },
    /** The bytes written; copied out when the buffer is far larger. */
    done(): Uint8Array {
      return bytes.length - at > at / 8 ? bytes.slice(0, at) : bytes.subarray(0, at);
    },
  };
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
export function renderFullFeed(index: Index, base: string, cursor?: string): FeedBytes {
  const items = index.feed;
  const starts = new Uint32Array(items.length + 1);
  const head = feedHead(items.length, items.length, base, index.generated, cursor);
  // One buffer written in place: its size is guessed from a sample of items
  // and rarely grows, and no copy of the feed is made as a string.
  // The guess: the bytes of 64 items spread over the feed, scaled to all, and a little over.
  const step = Math.max(1, Math.floor(items.length / 64));
  let sampled = 0, sample = 0;
  for (let i = 0; i < items.length; i += step, sampled++) {
    sample += encoder.encode(itemJson(items[i], base)).length + 1;
  }
  const out = byteWriter(
    head.length * 3 + Math.ceil((sample / Math.max(1, sampled)) * items.length * 1.03) + 2,
  );
  out.write(head);
  items.forEach((item, i) => {
    if (i > 0) out.write(",");
    starts[i] = out.at;
    out.write(itemJson(item, base));
  });
  out.write("]}");
  starts[items.length] = out.at - 1;
  // A guess far over the size would hold memory for nothing: copy it out then.
  return { bytes: out.done(), starts };
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
  options: RenderOptions = {},
): Uint8Array {
  const { cursor, fields } = options;
  if (!isSeed(fields)) {
    // Items with other fields are not in the full feed's bytes: written here.
    const out = byteWriter(1024);
    out.write(feedHead(page.items.length, page.total, base, index.generated, cursor));
    page.items.forEach((item, i) => {
      if (i > 0) out.write(",");
      out.write(shapedItemJson(item, base, fields!, options.extras?.get(item)));
    });
    out.write("]}");
    return out.done();
  }
  full ??= renderFullFeed(index, base, cursor);
  if (page.items === index.feed) return full.bytes;
  const head = encoder.encode(
    feedHead(page.items.length, page.total, base, index.generated, cursor),
  );
  return joinItems(index, page.items, full, head, TAIL);
}

const TAIL = encoder.encode("]}");

/** Each item's place in the full feed (where its bytes are). */
function feedPlaces(index: Index, items: readonly Item[]): number[] {
  return items.map((item) => {
    const i = index.feedPlace.get(item);
    if (i === undefined) throw new Error(`${item.id} is not in the feed`);
    return i;
  });
}

/** `head`, the items' objects copied out of the full feed's bytes a comma apart, and `tail`. */
function joinItems(
  index: Index,
  items: readonly Item[],
  full: FeedBytes,
  head: Uint8Array,
  tail: Uint8Array,
): Uint8Array {
  const { bytes, starts } = full;
  const ranges = feedPlaces(index, items);
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

/** A change after a cursor as the `since` document lists it. */
export interface ChangedItems {
  /** The items that entered or changed, in change order. */
  readonly items: readonly Item[];
  /** The ids that left the feed, with when, in change order. */
  readonly deleted: readonly { readonly id: string; readonly at: number }[];
  /** The changes before paging. */
  readonly total: number;
  /** `meta.cursor`: where the next sync starts. */
  readonly cursor: string;
  /** `meta.more`: whether changes remain after it. */
  readonly more: boolean;
}

/**
 * The answer to `since` (SPEC 12): `meta` (with `cursor` and `more`),
 * `data` (the current form of every item that entered or changed, in change
 * order) and `deleted` (`{id, deleted}` for every id that left). Items with
 * the seed's fields are copied out of the full feed's bytes.
 *
 * @example
 * ```ts
 * import { renderChangesBytes } from "./render.ts";
 * declare const index: import("../index/build.ts").Index;
 * renderChangesBytes(index, {
 *   items: [], deleted: [{ id: "docs_doc_old", at: Date.UTC(2026, 0, 2) }], total: 1,
 *   cursor: "k3v9q2.41", more: false,
 * }, "https://example.com");
 * // '{"meta":{…,"cursor":"k3v9q2.41","more":false},"data":[],"deleted":[{"id":"docs_doc_old","deleted":"2026-01-02 00:00:00"}]}'
 * ```
 */
export function renderChangesBytes(
  index: Index,
  changes: ChangedItems,
  base: string,
  full?: FeedBytes,
  options: Omit<RenderOptions, "cursor"> = {},
): Uint8Array {
  const head = encoder.encode(
    feedHead(
      changes.items.length,
      changes.total,
      base,
      index.generated,
      changes.cursor,
      changes.more,
    ),
  );
  const tail = encoder.encode(changesTail(changes.deleted));
  if (isSeed(options.fields)) {
    return joinItems(index, changes.items, full ?? renderFullFeed(index, base), head, tail);
  }
  const out = byteWriter(1024);
  out.copy(head);
  changes.items.forEach((item, i) => {
    if (i > 0) out.write(",");
    out.write(shapedItemJson(item, base, options.fields!, options.extras?.get(item)));
  });
  out.copy(tail);
  return out.done();
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

/** Reads what `fields` asks of some items' bodies; `undefined` when a file changed under them. */
export type ExtrasReader = (
  items: readonly Item[],
) => Promise<ReadonlyMap<Item, ItemExtras> | undefined>;

/**
 * An item's object with the seed's fields as the full feed holds it, up to
 * but without its closing `}` (a view into the full feed's bytes, no copy);
 * `undefined` for an item the feed lacks.
 */
export type SeedBytes = (item: Item) => Uint8Array | undefined;

/**
 * The {@link SeedBytes} of a full feed: what {@link renderWithBodies}
 * copies instead of writing the seed's fields again, so a whole feed with
 * bodies costs its bodies and little more. `full` is asked for on the first
 * item only, so a shape that does not start with the seed's fields never
 * has the full feed built for it.
 *
 * @example
 * ```ts
 * import { renderFullFeed, seedBytesOf } from "./render.ts";
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

/** Items whose bodies {@link renderWithBodies} reads at once: the next run's reads go on while one is written. */
const RUN = 256;

/**
 * A feed document (SPEC 6.2) or a `since` answer (SPEC 12) whose items
 * hold body-made fields (`body`, `text`, `sections`): `head`, the items and
 * `tail`, with the bodies read `RUN` items at a time, each run's reads
 * under way while the run before is written. Only two runs' bodies are
 * held at once, not every body of the feed. `undefined` when `read`
 * reports a file changed (the caller catches the index up and asks again).
 *
 * @example
 * ```ts
 * import { renderWithBodies } from "./render.ts";
 * declare const items: readonly import("../index/item.ts").Item[];
 * const bytes = await renderWithBodies('{"data":[', items, "]}", "https://example.com",
 *   ["id", "body"], (run) => Promise.resolve(new Map(run.map((item) => [item, { body: item.body }]))));
 * ```
 */
export async function renderWithBodies(
  head: string,
  items: readonly Item[],
  tail: string,
  base: string,
  fields: readonly ItemField[],
  read: ExtrasReader,
  seed?: SeedBytes,
): Promise<Uint8Array | undefined> {
  // The seed's fields first, in the full feed's order: each item's are copied from there.
  const copied = seed && SEED_FIELDS.every((field, f) => fields[f] === field)
    ? SEED_FIELDS.length
    : 0;
  // Bodies are most of the bytes, and their size is known only once read: room for one run
  // first, then for all at the size of the runs so far.
  const out = byteWriter(head.length * 3 + Math.min(items.length, RUN) * 8192 + tail.length * 3);
  out.write(head);
  const keys = fields.map((field, f) => `${f > 0 ? "," : ""}${JSON.stringify(field)}:`);
  let next = read(items.slice(0, RUN));
  for (let start = 0; start < items.length; start += RUN) {
    const extras = await next;
    if (extras === undefined) return undefined;
    if (start + RUN < items.length) next = read(items.slice(start + RUN, start + 2 * RUN));
    // After the first run, room for all at the size of the runs so far, and a little more:
    // one early growth, instead of growths late in a buffer of tens of megabytes.
    if (start > 0) out.room(Math.ceil(((out.at / start) * (items.length - start)) * 1.02));
    const end = Math.min(items.length, start + RUN);
    // The text between two bodies is gathered and encoded at once: one encode
    // per field cost more than the bodies' escaping on a whole feed.
    let text = "";
    for (let i = start; i < end; i++) {
      const item = items[i];
      const extra = extras.get(item) ?? {};
      const seedPart = copied ? seed!(item) : undefined;
      if (seedPart) {
        if (i > 0) text += ",";
        out.write(text);
        text = "";
        out.copy(seedPart);
      } else text += i > 0 ? ",{" : "{";
      for (let f = seedPart ? copied : 0; f < fields.length; f++) {
        text += keys[f];
        if (fields[f] === "body" && extra.body === undefined && extra.bodyBytes !== undefined) {
          out.write(text);
          text = "";
          writeJsonString(out, ...extra.bodyBytes);
        } else text += fieldJson(item, fields[f], base, extra);
      }
      text += "}";
    }
    out.write(text);
  }
  if (items.length === 0 && (await next) === undefined) return undefined;
  out.write(tail);
  return out.done();
}

/**
 * The tail of a `since` answer after its `data`: `deleted` and the closing braces.
 *
 * @example
 * ```ts
 * import { changesTail } from "./render.ts";
 * changesTail([{ id: "docs_doc_old", at: 0 }]);
 * // '],"deleted":[{"id":"docs_doc_old","deleted":"1970-01-01 00:00:00"}]}'
 * ```
 */
export function changesTail(
  deleted: readonly { readonly id: string; readonly at: number }[],
): string {
  let tail = '],"deleted":[';
  deleted.forEach(({ id, at }, i) => {
    tail += `${i > 0 ? "," : ""}{"id":${JSON.stringify(id)},"deleted":${
      JSON.stringify(formatTimestamp(at))
    }}`;
  });
  return `${tail}]}`;
}
