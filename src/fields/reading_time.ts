const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
// Per UTF-16 code unit: 0 not yet known, 1 a word character, 2 not one. A
// typed array, not a Map: the lookup runs once per character of every body.
const KIND = new Uint8Array(65536);
for (let code = 0; code < 128; code++) {
  const word = (code >= 97 && code <= 122) || (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57);
  KIND[code] = word ? 1 : 2;
}
const astral = new Map<number, boolean>();

/** Whether the character at `at` is a letter, mark or digit (surrogate pairs read as one). */
function isWordChar(code: number, text: string, at: number): boolean {
  if (code < 0xd800 || code > 0xdbff) return isWordPoint(code);
  const point = text.codePointAt(at)!;
  return point !== code && isWordPoint(point); // a lone high surrogate is no letter
}

/**
 * Counts Unicode word runs (letters, marks, digits) in plain text (SPEC 4
 * `time`: the body's plain text, markup already gone); an apostrophe inside
 * a word ("don't") does not split it. A hand-written scanner: the index
 * build counts every body, and a Unicode property regex over whole bodies
 * was most of the build's time.
 *
 * @example
 * ```ts
 * import { countWords } from "./reading_time.ts";
 * countWords("Guía rápida, don't panic"); // 4
 * ```
 */
export function countWords(body: string): number {
  let count = 0;
  const length = body.length;
  let i = 0;
  // Two tight loops (between words, within a word) instead of one with a
  // state flag: this runs over every character of every body at start-up.
  while (i < length) {
    let code = body.charCodeAt(i);
    let kind = KIND[code];
    if (kind === 2 || (kind === 0 && !isWordChar(code, body, i))) {
      i++;
      continue;
    }
    count++;
    i += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
    while (i < length) {
      code = body.charCodeAt(i);
      kind = KIND[code];
      if (kind === 1) i++;
      else if (kind === 0 && isWordChar(code, body, i)) {
        i += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
      } else if (
        (code === 39 || code === 0x2019) && i + 1 < length &&
        isWordChar(body.charCodeAt(i + 1), body, i + 1)
      ) i++; // "don't": the apostrophe joins the two halves
      else break;
    }
  }
  return count;
}

/** Whether a code point is a letter, mark or digit, through the same tables. */
function isWordPoint(point: number): boolean {
  if (point < 0x10000) {
    const kind = KIND[point];
    if (kind !== 0) return kind === 1;
    const word = WORD_CHAR.test(String.fromCharCode(point));
    KIND[point] = word ? 1 : 2;
    return word;
  }
  let known = astral.get(point);
  if (known === undefined) {
    known = WORD_CHAR.test(String.fromCodePoint(point));
    if (astral.size < 65536) astral.set(point, known);
  }
  return known;
}

/**
 * Reading time in whole minutes at 200 words a minute, at least 1 (SPEC 4).
 *
 * @example
 * ```ts
 * import { readingTime } from "./reading_time.ts";
 * readingTime(401); // 3
 * readingTime(0); // 1
 * ```
 */
export function readingTime(words: number): number {
  return Math.max(1, Math.ceil(words / 200));
}
