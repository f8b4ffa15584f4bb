// The full feed kept across a restart (SPEC 17): what a server that stops
// gracefully leaves in its state folder, so the next start that finds the
// same content serves those bytes (and their ETags) instead of writing and
// compressing the feed again. This file says what an image holds and what
// it must match; `sync/feed_image_file.ts` keeps it, `service.ts` decides.
import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import { sha256HexSync } from "../util/sha256.ts";
import type { GitVouch } from "../source/git_vouch.ts";

/** One encoding of the full feed an image holds besides its identity bytes. */
export interface EncodedFeed {
  /** The coding (`gzip`, `br`). */
  readonly coding: string;
  readonly bytes: Uint8Array;
  /** Quoted strong ETag of these bytes. */
  readonly etag: string;
}

/** What an image says of itself, read before its bytes: enough to know whether a start wants them. */
export interface FeedImageMeta {
  /** What it was made of ({@link feedImageKey}): a start serves it whole only when its own key is this. */
  readonly key: string;
  /**
   * What its items' bytes were written with ({@link feedFormatKey}): a start
   * whose own is this copies the bytes of the items it holds as they were.
   */
  readonly format: string;
  /** The index's build time (epoch ms). */
  readonly builtAt: number;
  /** The base URL its links were written with, without a trailing slash. */
  readonly base: string;
  /** Its `Content-Type`. */
  readonly type: string;
  /** Quoted strong ETag of the identity bytes. */
  readonly etag: string;
  /** The encodings it holds besides the identity bytes, with their ETags. */
  readonly encoded: readonly { readonly coding: string; readonly etag: string }[];
  /**
   * What the next start may check before it builds an index, where the
   * stopping server could tell (SPEC 17): a start whose {@link earlyKey}
   * is `key` serves this image while it loads.
   */
  readonly early?: EarlyCheck;
}

/** What a start checks to serve an image before its index is built, and what it says meanwhile. */
export interface EarlyCheck {
  /** The {@link earlyKey} of the stopping server's content. */
  readonly key: string;
  /** Each plugin's items and feed items, as the start-up line says them. */
  readonly counts: readonly {
    readonly plugin: string;
    readonly items: number;
    readonly feed: number;
  }[];
  /**
   * What git vouched for as the server stopped (`source/git_vouch.ts`), and
   * the {@link earlyKey} of the rest (`Pipeline.gitVouch`'s `content`): a
   * start that finds both as they were needs no stat of the files git
   * vouches for.
   */
  readonly git?: { readonly key: string; readonly vouch: GitVouch };
}

/**
 * What a start must find as the stopping server left it to serve the
 * stopping server's full feed before its own index is built (SPEC 17): the
 * code's version, the base URL, the journal's cursor, and what the
 * content was made from (`Pipeline.restartKey`: the site's configuration,
 * every file's stamp, git's HEAD and work tree), and the runtime. With all
 * of them the same, the index built would be the same.
 *
 * @example
 * ```ts
 * import { earlyKey } from "./feed_image.ts";
 * earlyKey({ version: "1", base: "https://example.com", cursor: "ab.3", content: "…" }).length; // 64
 * ```
 */
export function earlyKey(
  inputs: { version: string; base: string; cursor: string; content: string },
): string {
  // The runtime too: its Unicode tables make slugs, and a start under another one builds first.
  const runtime = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent ?? "";
  return sha256HexSync(
    ["early", inputs.version, runtime, inputs.base, inputs.cursor, inputs.content].join("\n"),
  );
}

/** The full feed as a server served it when it stopped. */
export interface FeedImage extends FeedImageMeta {
  /** The identity bytes. */
  readonly bytes: Uint8Array;
  /** Where each item's object starts in them (`FeedBytes.starts`). */
  readonly starts: Uint32Array;
  /** Each feed item's {@link feedItemKey}, in feed order. */
  readonly items: readonly string[];
  /** The encodings made while it was served. */
  readonly encoded: readonly EncodedFeed[];
}

/** What a full feed's bytes are a function of, besides the index's build time. */
export interface FeedImageInputs {
  /** The code's version (`source/code_version.ts`): other code may write other bytes. */
  readonly version: string;
  /** The base URL links are written with. */
  readonly base: string;
  /** `meta.cursor`. */
  readonly cursor: string;
  /** The index: its settings and its feed's length. */
  readonly index: Index;
  /** Its feed items' {@link feedItemKey}s, in feed order. */
  readonly items: readonly string[];
}

/**
 * What an item's bytes in the full feed are made of: its change key
 * (`sync/change_key.ts`: every seed field but `link`, made of `type`, `uri`
 * and the base URL, and the tags' counts) and its tags' counts.
 *
 * @example
 * ```ts
 * import { feedItemKey } from "./feed_image.ts";
 * declare const item: import("../index/item.ts").Item;
 * feedItemKey(item, (item) => item.id); // "docs_intro,12"
 * ```
 */
export function feedItemKey(item: Item, keyOf: (item: Item) => string): string {
  let key = keyOf(item);
  for (const tag of item.tags) key += `,${tag.count}`;
  return key;
}

/**
 * Each feed item's {@link feedItemKey}, in feed order: what an image keeps,
 * and what its key hashes.
 *
 * @example
 * ```ts
 * import { feedItemKeys } from "./feed_image.ts";
 * import { buildIndex } from "../index/build_parsed.ts";
 * const index = buildIndex([], { title: undefined, url: undefined, api: true, sitemap: false,
 *   plugins: [] }, 0);
 * feedItemKeys(index, (item) => item.id); // []
 * ```
 */
export function feedItemKeys(index: Index, keyOf: (item: Item) => string): string[] {
  return index.feed.map((item) => feedItemKey(item, keyOf));
}

/**
 * What every item's bytes are written with besides the item: the code's
 * version, the index's settings and the base URL, hashed.
 *
 * @example
 * ```ts
 * import { feedFormatKey } from "./feed_image.ts";
 * import { buildIndex } from "../index/build_parsed.ts";
 * const index = buildIndex([], { title: undefined, url: undefined, api: true, sitemap: false,
 *   plugins: [] }, 0);
 * feedFormatKey("v1", index, "https://example.com"); // "9a0c…" (64 hex digits)
 * ```
 */
export function feedFormatKey(version: string, index: Index, base: string): string {
  return sha256HexSync(JSON.stringify([version, index.settings, base]));
}

/**
 * The key of a full feed's bytes, but for `meta.generated`: a SHA-256 of
 * the code's version, the index's settings, the base URL, the cursor, the
 * feed's length and each feed item's {@link feedItemKey} in order. Two
 * indexes with the same key write the same feed, byte for byte, when they
 * are built at the same time.
 *
 * @example
 * ```ts
 * import { feedImageKey } from "./feed_image.ts";
 * import { buildIndex } from "../index/build_parsed.ts";
 * const index = buildIndex([], { title: undefined, url: undefined, api: true, sitemap: false,
 *   plugins: [] }, 0);
 * feedImageKey({ version: "v1", base: "https://example.com", cursor: "k3v9q2.0", index,
 *   items: [] }); // "5d1e…" (64 hex digits)
 * ```
 */
export function feedImageKey(inputs: FeedImageInputs): string {
  const { index, items } = inputs;
  const head = JSON.stringify([
    inputs.version,
    index.settings,
    inputs.base,
    inputs.cursor,
    index.feed.length,
  ]);
  return sha256HexSync(`${head}\n${items.join("\n")}`);
}
