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
  // The fields in the order they are hashed: a number is a code of its own
  // (a list's length), a string its length then its code units, null one code.
  const parts: (string | number | null)[] = [
    item.id,
    item.checksum,
    item.type,
    item.category,
    item.uri,
    item.image,
    item.title,
    item.description,
    0x2_0000 + item.authors.length,
  ];
  for (const author of item.authors) parts.push(author.name, author.slug);
  parts.push(0x3_0000 + item.tags.length);
  for (const tag of item.tags) parts.push(tag.name, tag.slug);
  parts.push(item.date, item.last_update, String(item.time), item.url);
  // One loop with the four lanes in locals: a closure over them kept them in
  // a context object, and hashing was most of recording a first start.
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
  for (const part of parts) {
    let length = 0; // code units after the first code
    let k: number;
    if (typeof part === "number") k = part;
    else if (part === null) k = 0x1_0000; // no code unit: null differs from every string
    else {
      length = part.length;
      k = 0x1_0001 + length;
    }
    for (let i = -1; i < length; i++) {
      if (i >= 0) k = (part as string).charCodeAt(i);
      h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
      h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
      h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
      h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
    }
  }
  // cyrb128's finish: every lane mixed into every other.
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, "0");
  return hex(h1) + hex(h2) + hex(h3) + hex(h4);
}
