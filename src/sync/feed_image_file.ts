// The full feed a stopping server keeps for the next start (SPEC 17,
// `pipeline/feed_image.ts`), as one file of the state folder beside the
// journal's database: a file, not a table, because SQLite reads a large
// blob a page at a time (about 80 ms for the 8.5 MB of a 10,000-item feed
// and its gzip, a tenth of that for the file). Written to a temporary file,
// synced, then renamed: a crash at any moment leaves the last whole image
// or none, never part of one.
import {
  closeSync,
  fstatSync,
  fsyncSync,
  openSync,
  read as readCallback,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import process from "node:process";
import type { EarlyCheck, FeedImage, FeedImageMeta } from "../pipeline/feed_image.ts";
import { isGitVouch } from "../source/git_vouch.ts";

/** The image's file in the state folder. */
export const FEED_IMAGE_FILE = "feed-image.bin";

/** The file's first bytes: what it is, and the version of its layout. */
const MAGIC = new TextEncoder().encode("content-feed feed image 2\n");
/** A longer `meta` is not one this code wrote. */
const MAX_META = 1 << 20;

/** What the file's `meta` holds: the image's own, and the length of each part after it. */
interface StoredMeta extends FeedImageMeta {
  /** Bytes of the identity feed. */
  readonly length: number;
  /** Offsets kept (items + 1), each 4 bytes, little-endian. */
  readonly count: number;
  /** Bytes of the items' keys, a JSON array. */
  readonly itemsLength: number;
  readonly encoded: readonly {
    readonly coding: string;
    readonly etag: string;
    readonly length: number;
  }[];
}

/**
 * Writes `image` to the state folder, in place of any kept before: the
 * layout is the magic line, the length of `meta` (4 bytes, little-endian),
 * `meta` as JSON, the identity bytes, the offsets (4 bytes each,
 * little-endian, whatever the machine), each encoding, then the items'
 * keys as a JSON array.
 *
 * @throws {Error} when the folder cannot be written (the caller warns; nothing is kept then)
 *
 * @example
 * ```ts
 * import { keepFeedImage } from "./feed_image_file.ts";
 * declare const image: import("../pipeline/feed_image.ts").FeedImage;
 * keepFeedImage("/site/content/.content-feed", image);
 * ```
 */
export function keepFeedImage(folder: string, image: FeedImage): void {
  const { bytes, starts, encoded, early } = image;
  const items = new TextEncoder().encode(JSON.stringify(image.items));
  const meta: StoredMeta = {
    ...ownMeta(image),
    length: bytes.length,
    count: starts.length,
    itemsLength: items.length,
    encoded: encoded.map(({ coding, etag, bytes }) => ({ coding, etag, length: bytes.length })),
    ...(early ? { early } : {}),
  };
  const metaBytes = new TextEncoder().encode(JSON.stringify(meta));
  const head = new Uint8Array(MAGIC.length + 4);
  head.set(MAGIC);
  new DataView(head.buffer).setUint32(MAGIC.length, metaBytes.length, true);
  const offsets = new Uint8Array(starts.length * 4);
  const view = new DataView(offsets.buffer);
  for (let i = 0; i < starts.length; i++) view.setUint32(i * 4, starts[i], true);
  const path = `${folder}/${FEED_IMAGE_FILE}`;
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, "w");
    try {
      for (
        const part of [head, metaBytes, bytes, offsets, ...encoded.map((e) => e.bytes), items]
      ) {
        for (let at = 0; at < part.length;) at += writeSync(fd, part, at, part.length - at);
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * The full feed the last server kept in `folder`, if there is a whole one
 * whose `meta` is `wanted`, in two steps: its `meta` at once (what a
 * start's early check needs: its base URL and early key), and its parts
 * read on the runtime's I/O threads while the caller goes on (the check's
 * listing blocks the thread for a while: 85 MB at 100,000 files are read
 * meanwhile). `undefined` where there is none, or no whole one, or its
 * `meta` is not `wanted`; `image` is `undefined` where the parts are not
 * whole or sound. The file stays: a start removes it ({@link dropFeedImage})
 * once its first index is served, so a server stopped before leaves it for
 * the next start.
 *
 * @example
 * ```ts
 * import { readFeedImageSoon } from "./feed_image_file.ts";
 * const kept = readFeedImageSoon("/site/content/.content-feed", () => true);
 * const image = await kept?.image;
 * ```
 */
export function readFeedImageSoon(
  folder: string,
  wanted: (meta: FeedImageMeta) => boolean,
): { meta: FeedImageMeta; image: Promise<FeedImage | undefined> } | undefined {
  let fd: number;
  try {
    fd = openSync(`${folder}/${FEED_IMAGE_FILE}`, "r");
  } catch {
    return undefined;
  }
  let head;
  try {
    head = headIn(fd);
    if (head && !wanted(head.meta)) head = undefined;
  } catch {
    head = undefined;
  }
  if (!head) {
    closeSync(fd);
    return undefined;
  }
  const { meta, from, rest } = head;
  // Whatever goes wrong from here (a read that fails, parts that are not sound) is no image.
  const image = new Promise<FeedImage | undefined>((resolve) => {
    let open = true;
    const done = (image: FeedImage | undefined) => {
      if (open) {
        open = false;
        try {
          closeSync(fd);
        } catch {
          // closed or gone: nothing more to read from it
        }
      }
      resolve(image);
    };
    try {
      const all = new Uint8Array(rest);
      let at = 0;
      const next = () =>
        readCallback(fd, all, at, rest - at, from + at, (error, read) => {
          try {
            if (error || read === 0) return done(undefined);
            at += read;
            if (at < rest) return next();
            done(imageOf(meta, all));
          } catch {
            done(undefined);
          }
        });
      next();
    } catch {
      done(undefined);
    }
  });
  return { meta, image };
}

/**
 * Removes the state folder's image, if there is one.
 *
 * @example
 * ```ts
 * import { dropFeedImage } from "./feed_image_file.ts";
 * dropFeedImage("/site/content/.content-feed");
 * ```
 */
export function dropFeedImage(folder: string): void {
  try {
    rmSync(`${folder}/${FEED_IMAGE_FILE}`, { force: true });
  } catch {
    // a folder that cannot be written: the key keeps the next start from a wrong image
  }
}

/** Reads `length` bytes at `position` (fewer at the file's end). */
function readAt(fd: number, length: number, position: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  while (at < length) {
    const read = readSync(fd, out, at, length - at, position + at);
    if (read === 0) return out.subarray(0, at);
    at += read;
  }
  return out;
}

/** The file's head: its `meta`, checked, and where its parts begin and how long they are. */
function headIn(fd: number): { meta: StoredMeta; from: number; rest: number } | undefined {
  const size = fstatSync(fd).size;
  const head = readAt(fd, MAGIC.length + 4, 0);
  if (head.length < MAGIC.length + 4 || !MAGIC.every((byte, i) => head[i] === byte)) return;
  const metaLength = new DataView(head.buffer).getUint32(MAGIC.length, true);
  if (metaLength > MAX_META) return undefined;
  const meta = JSON.parse(new TextDecoder().decode(readAt(fd, metaLength, head.length)));
  if (!isStoredMeta(meta)) return undefined;
  const from = head.length + metaLength;
  const rest = partsLength(meta);
  if (from + rest !== size) return undefined;
  return { meta: withEarly(meta), from, rest };
}

/** The bytes of the parts after the head: the identity feed, offsets, encodings, item keys. */
function partsLength(meta: StoredMeta): number {
  return meta.length + meta.count * 4 +
    meta.encoded.reduce((sum, encoded) => sum + encoded.length, 0) + meta.itemsLength;
}

/** The image its parts (`all`, read after the head) make with `meta`, if they are whole and sound. */
function imageOf(meta: StoredMeta, all: Uint8Array): FeedImage | undefined {
  if (all.length !== partsLength(meta)) return undefined;
  const bytes = all.subarray(0, meta.length);
  const view = new DataView(all.buffer, all.byteOffset + meta.length, meta.count * 4);
  const starts = new Uint32Array(meta.count);
  for (let i = 0; i < starts.length; i++) {
    starts[i] = view.getUint32(i * 4, true);
    if (starts[i] >= bytes.length || (i > 0 && starts[i] <= starts[i - 1])) return undefined;
  }
  let at = meta.length + meta.count * 4;
  const encoded = meta.encoded.map(({ coding, etag, length }) => {
    const part = all.subarray(at, at + length);
    at += length;
    return { coding, etag, bytes: part };
  });
  const items = JSON.parse(new TextDecoder().decode(all.subarray(at)));
  if (
    !Array.isArray(items) || items.length !== meta.count - 1 ||
    !items.every((item) => typeof item === "string")
  ) return undefined;
  return {
    ...ownMeta(meta),
    bytes,
    starts,
    encoded,
    items,
    ...(meta.early ? { early: meta.early } : {}),
  };
}

/** `meta` with its early check only where it is a sound one (an image without one is served later). */
function withEarly(meta: StoredMeta): StoredMeta {
  const git = (meta.early as { git?: { key?: unknown; vouch?: unknown } } | undefined)?.git;
  if (git !== undefined && !(typeof git?.key === "string" && isGitVouch(git.vouch))) {
    // A git part not as written: the full check's key still holds.
    const { git: _, ...early } = meta.early as EarlyCheck;
    meta = { ...meta, early };
  }
  if (meta.early === undefined || isEarlyCheck(meta.early)) return meta;
  const { early: _, ...rest } = meta;
  return rest;
}

/** What an image says of itself besides its parts' lengths and its early check, as written and read. */
function ownMeta(
  { key, format, builtAt, base, type, etag }: Omit<FeedImageMeta, "encoded">,
): Omit<FeedImageMeta, "encoded" | "early"> {
  return { key, format, builtAt, base, type, etag };
}

/** Whether a parsed `meta` says all a stored one says, each of the right kind. */
function isStoredMeta(meta: unknown): meta is StoredMeta {
  const m = meta as Record<string, unknown> | null;
  const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  return typeof m === "object" && m !== null && typeof m.key === "string" &&
    typeof m.format === "string" && count(m.itemsLength) &&
    typeof m.builtAt === "number" && typeof m.base === "string" && typeof m.type === "string" &&
    typeof m.etag === "string" && count(m.length) && count(m.count) &&
    (m.count as number) > 0 && Array.isArray(m.encoded) &&
    m.encoded.every((e: { coding?: unknown; etag?: unknown; length?: unknown } | null) =>
      typeof e?.coding === "string" && typeof e.etag === "string" && count(e.length)
    );
}

/** Whether a stored `early` says all an early check says (an image without one is served later). */
function isEarlyCheck(early: unknown): early is EarlyCheck {
  // Its git part is sound or gone already (`withEarly`).
  const e = early as { key?: unknown; counts?: unknown } | null | undefined;
  return typeof e?.key === "string" && Array.isArray(e.counts) &&
    e.counts.every((c: { plugin?: unknown; items?: unknown; feed?: unknown } | null) =>
      typeof c?.plugin === "string" && Number.isSafeInteger(c.items) &&
      Number.isSafeInteger(c.feed)
    );
}
