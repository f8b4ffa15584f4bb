// Whether a character is a word character (a letter, mark or digit:
// Unicode word runs), through tables filled as characters are met: a
// Unicode property regex per character of every body was most of a cold
// start's time. A bounded pure memo: each entry is a function of its code
// point alone; the table of UTF-16 code units holds 65,536 bytes, the map
// of astral code points at most 65,536 entries (past that, a point is
// tested each time it is met).
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;

/**
 * Per UTF-16 code unit: 0 not yet known, 1 a word character, 2 not one
 * (ASCII known from the start). Read directly by scans that run over every
 * character of a body (a call per character costs more than the scan);
 * only {@link isWordPoint} writes it, with what `WORD_CHAR` says.
 *
 * @example
 * ```ts
 * import { WORD_KIND } from "./word_chars.ts";
 * WORD_KIND["a".charCodeAt(0)]; // 1
 * WORD_KIND[" ".charCodeAt(0)]; // 2
 * ```
 */
export const WORD_KIND: Readonly<Uint8Array> = new Uint8Array(65536);
for (let code = 0; code < 128; code++) {
  const word = (code >= 97 && code <= 122) || (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57);
  (WORD_KIND as Uint8Array)[code] = word ? 1 : 2;
}
const astral = new Map<number, boolean>();
/** Astral code points {@link isWordPoint} remembers. */
const MAX_ASTRAL = 65536;

/**
 * Whether a code point is a letter, mark or digit, through the same tables.
 *
 * @example
 * ```ts
 * import { isWordPoint } from "./word_chars.ts";
 * isWordPoint(0x10400); // true: 𐐀, a Deseret letter
 * ```
 */
export function isWordPoint(point: number): boolean {
  if (point < 0x10000) {
    const kind = WORD_KIND[point];
    if (kind !== 0) return kind === 1;
    const word = WORD_CHAR.test(String.fromCharCode(point));
    (WORD_KIND as Uint8Array)[point] = word ? 1 : 2;
    return word;
  }
  let known = astral.get(point);
  if (known === undefined) {
    known = WORD_CHAR.test(String.fromCodePoint(point));
    if (astral.size < MAX_ASTRAL) astral.set(point, known);
  }
  return known;
}
