import type { Item } from "../index/item.ts";

/**
 * A 128-bit hash of what an item's feed form says apart from the base URL
 * and tag counts (SPEC 12: an item *changes* when its file's checksum
 * changes or any field of its feed item other than a tag's `count`
 * changes), as 32 hexadecimal digits: the journal compares it with the one
 * it recorded. `link`, a root-relative `image` and `url` go in as the index
 * holds them, relative: a base URL is the request's, not the content's.
 *
 * Written over the fields themselves (cyrb128's mixing, each field after
 * its length, so no two field lists run together alike), not over a JSON
 * string of them: a first start hashes every item, and building those
 * strings was most of what recording a 10,000-item feed held at its peak.
 * Not a cryptographic hash: it tells versions of one item apart, where a
 * collision would need an edit that happens to hit 2^-128.
 *
 * @example
 * ```ts
 * import { changeKey } from "./change_key.ts";
 * declare const item: import("../index/item.ts").Item;
 * changeKey(item); // "5b8e0f2c…" (32 hexadecimal digits)
 * ```
 */
export function changeKey(item: Item): string {
  LANES[0] = 1779033703;
  LANES[1] = 3144134277;
  LANES[2] = 1013904242;
  LANES[3] = 2773480762;
  mixText(item.id);
  mixText(item.checksum);
  mixText(item.type);
  mixText(item.category);
  mixText(item.uri);
  mixText(item.image);
  mixText(item.title);
  mixText(item.description);
  mixCode(0x2_0000 + item.authors.length);
  for (const author of item.authors) {
    mixText(author.name);
    mixText(author.slug);
  }
  mixCode(0x3_0000 + item.tags.length);
  for (const tag of item.tags) {
    mixText(tag.name);
    mixText(tag.slug);
  }
  mixText(item.date);
  mixText(item.last_update);
  mixText(String(item.time));
  mixText(item.url);
  // cyrb128's finish: every lane mixed into every other.
  let h1 = LANES[0], h2 = LANES[1], h3 = LANES[2], h4 = LANES[3];
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return hex(h1) + hex(h2) + hex(h3) + hex(h4);
}

// The hash's four lanes between fields. A typed array, not variables a
// closure shares: its numbers are stored without the allocation, context
// slots and write barriers that made hashing most of recording a start.
const LANES = new Int32Array(4);

/** Mixes a list's length (a code no string gives) into the lanes. */
function mixCode(k: number): void {
  mixCodes(k, "");
}

/** Mixes a field: its length, then its code units; null one code no string gives. */
function mixText(value: string | null): void {
  if (value === null) mixCodes(0x1_0000, "");
  else mixCodes(0x1_0001 + value.length, value);
}

/** Mixes `first`, then each code unit of `text`, into the lanes (cyrb128's round). */
function mixCodes(first: number, text: string): void {
  let h1 = LANES[0], h2 = LANES[1], h3 = LANES[2], h4 = LANES[3];
  let k = first;
  for (let i = -1; i < text.length; i++) {
    if (i >= 0) k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  LANES[0] = h1;
  LANES[1] = h2;
  LANES[2] = h3;
  LANES[3] = h4;
}

const hex = (n: number) => (n >>> 0).toString(16).padStart(8, "0");
