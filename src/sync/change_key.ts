import type { Item } from "../index/item.ts";
import { FIELD_TABLE, type FieldSpec, type KeyMixer } from "../index/item_fields.ts";

/** The change key of an item (see {@link createChangeKeys}). */
export type ChangeKeys = (item: Item) => string;

/**
 * Makes the function that gives an item's change key: a 128-bit hash of
 * what its feed form says apart from the base URL and tag counts (SPEC 12:
 * an item *changes* when its file's checksum changes or any field of its
 * feed item other than a tag's `count` changes), as 32 hexadecimal digits:
 * the journal compares it with the one it recorded. The fields, and how
 * each goes in, are the field table's (`index/item_fields.ts`); `link`, a
 * root-relative `image` and `url` go in as the index holds them, relative:
 * a base URL is the request's, not the content's.
 *
 * Written over the fields themselves (cyrb128's mixing, each field after
 * its length, so no two field lists run together alike), not over a JSON
 * string of them: a first start hashes every item, and building those
 * strings was most of what recording a 10,000-item feed held at its peak.
 * Not a cryptographic hash: it tells versions of one item apart, where a
 * collision would need an edit that happens to hit 2^-128. Each function
 * has hash lanes of its own (a journal owns one): no state is shared.
 *
 * @example
 * ```ts
 * import { createChangeKeys } from "./change_key.ts";
 * declare const item: import("../index/item.ts").Item;
 * const changeKey = createChangeKeys();
 * changeKey(item); // "5b8e0f2c…" (32 hexadecimal digits)
 * ```
 */
export function createChangeKeys(): ChangeKeys {
  // The hash's four lanes between fields. A typed array, not variables a
  // closure shares: its numbers are stored without the allocation, context
  // slots and write barriers that made hashing most of recording a start.
  const lanes = new Int32Array(4);
  /** Mixes `first`, then each code unit of `text`, into the lanes (cyrb128's round). */
  const mixCodes = (first: number, text: string) => {
    let h1 = lanes[0], h2 = lanes[1], h3 = lanes[2], h4 = lanes[3];
    h1 = h2 ^ Math.imul(h1 ^ first, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ first, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ first, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ first, 2716044179);
    // The length read once, not in the loop's test: the texts come in many of V8's string
    // shapes, and once the server has hashed a few thousand items that test was a
    // megamorphic property load on every character (bench/change_keys.ts: 43-46 -> 32-34 ms).
    const length = text.length;
    for (let i = 0; i < length; i++) {
      const k = text.charCodeAt(i);
      h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
      h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
      h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
      h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
    }
    lanes[0] = h1;
    lanes[1] = h2;
    lanes[2] = h3;
    lanes[3] = h4;
  };
  const mix: KeyMixer = {
    // A field: its length, then its code units; null one code no string gives.
    text: (value) =>
      value === null ? mixCodes(0x1_0000, "") : mixCodes(0x1_0001 + value.length, value),
    // A list's length, with a code of its own per list: a code no string gives.
    list: (code, length) => mixCodes(code + length, ""),
  };
  const keyed = (FIELD_TABLE as readonly FieldSpec[]).flatMap((spec) => spec.key ? [spec.key] : []);
  return (item) => {
    lanes[0] = 1779033703;
    lanes[1] = 3144134277;
    lanes[2] = 1013904242;
    lanes[3] = 2773480762;
    for (const key of keyed) key(mix, item);
    // cyrb128's finish: every lane mixed into every other.
    let h1 = lanes[0], h2 = lanes[1], h3 = lanes[2], h4 = lanes[3];
    h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
    h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
    h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
    h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
    h1 ^= h2 ^ h3 ^ h4;
    h2 ^= h1;
    h3 ^= h1;
    h4 ^= h1;
    return hex(h1) + hex(h2) + hex(h3) + hex(h4);
  };
}

/** Two hexadecimal digits of each byte value. */
const BYTE_HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** A lane as 8 hexadecimal digits (a table per byte: `toString(16)` and `padStart` were a fifth of keying). */
const hex = (n: number) =>
  BYTE_HEX[n >>> 24] + BYTE_HEX[(n >>> 16) & 255] + BYTE_HEX[(n >>> 8) & 255] + BYTE_HEX[n & 255];
