// Words of text (SPEC 4 `time`: Unicode word runs of the plain text), and
// the same count for a body of plain paragraphs and headings in the one
// scan that also finds whether it is one.
import { isWordPoint, WORD_KIND as WORD_KIND_MEMO } from "../util/word_chars.ts";

/**
 * The word characters' table of `util/word_chars.ts` (0 not yet known, 1 a
 * word character, 2 not one), the same array under a name of this module:
 * the scans below read it once per character, and reading it through the
 * import binding measured 5 to 14% slower (`plainWords`, Deno and Node).
 */
const WORD_KIND = WORD_KIND_MEMO;

/**
 * Whether the character at `at` is a letter, mark or digit (surrogate pairs
 * read as one). Here, not imported with the table: the scans call it on
 * every apostrophe, and an imported one measured `countWords` 15% slower
 * (Deno).
 */
function isWordChar(code: number, text: string, at: number): boolean {
  if (code < 0xd800 || code > 0xdbff) return isWordPoint(code);
  const point = text.codePointAt(at)!;
  return point !== code && isWordPoint(point); // a lone high surrogate is no letter
}

/**
 * Per UTF-16 code unit, 1 where a character is no word character and may
 * be markup wherever it is (the class of `NOT_SIMPLE` in simple_blocks.ts),
 * else 0. A constant, filled here once (the word characters' table is
 * the memo of `util/word_chars.ts`).
 */
const MARKUP = new Uint8Array(65536);
for (const char of "[]<>&{}`*_\\|~\r\t\v\f\u0085\u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") {
  MARKUP[char.charCodeAt(0)] = 1;
}
for (let code = 0x2000; code <= 0x200a; code++) MARKUP[code] = 1;

// What the scans below make of a code unit: its class. A word character is
// 1 and any other 0, so a word starts where the class goes from 0 to 1 and
// the count adds `class & (previous ^ 1)` without a branch: a branch on
// every change between a word and a space was mispredicted so often that
// the scans ran at half this speed (`bench/summaries.ts`). The classes
// above 1 are rare, each handled on its own: an apostrophe (joins a word
// when a word character follows), markup (ends `plainWords`), a line feed
// (`plainWords` looks at the next line's start) and a high surrogate (a
// pair read as one character).
const WORD = 1;
const APOSTROPHE = 3;
const MARKUP_CLASS = 4;
const LINE_FEED = 5;
const HIGH_SURROGATE = 6;

/** The classes of the code units below 256 for {@link countWords} (the Latin-1 letters' from their table). */
const COUNT_CLASS = new Uint8Array(256);
/** The same for {@link plainWords}, which tells markup and line feeds apart too. */
const PLAIN_CLASS = new Uint8Array(256);
for (let code = 0; code < 256; code++) {
  const word = isWordPoint(code) ? WORD : 0;
  COUNT_CLASS[code] = word;
  PLAIN_CLASS[code] = MARKUP[code] === 1 ? MARKUP_CLASS : word;
}
COUNT_CLASS[39] = PLAIN_CLASS[39] = APOSTROPHE;
PLAIN_CLASS[10] = LINE_FEED;

/** The class of a code unit of 256 or above (markup only where `plainWords` asks). */
function classAbove255(code: number, markup: number): number {
  if (code >= 0xd800 && code <= 0xdbff) return HIGH_SURROGATE;
  if (code === 0x2019) return APOSTROPHE;
  if (MARKUP[code] === 1) return markup;
  const kind = WORD_KIND[code];
  return kind === 1 || (kind === 0 && isWordPoint(code)) ? WORD : 0;
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
 * import { countWords } from "./words.ts";
 * countWords("Guía rápida, don't panic"); // 4
 * ```
 */
export function countWords(body: string): number {
  return scanWords(body, 0, body.length, COUNT_CLASS, 0);
}

/**
 * The words of a body of plain paragraphs and ATX headings (whose words are
 * those of its source: `#` and spaces are no word characters), or -1 when
 * the body may hold anything else: one scan that is {@link countWords}
 * and `isSimpleBody` (`simple_blocks.ts`) at once, a differential test
 * holds it to the two. `start` and `end` read a range of lines of `body`.
 *
 * @example
 * ```ts
 * import { plainWords } from "./words.ts";
 * plainWords("# Hello\n\nPlain words here."); // 4
 * plainWords("A [link](x)."); // -1
 * ```
 */
export function plainWords(body: string, start = 0, end: number = body.length): number {
  if (start < end && !plainLineStart(body, start)) return -1;
  return scanWords(body, start, end, PLAIN_CLASS, MARKUP_CLASS);
}

/**
 * The words from `start` to `end`, with `classes` for the code units below
 * 256 and `markup` for the markup above (`COUNT_CLASS` and 0 count words
 * alone; `PLAIN_CLASS` and `MARKUP_CLASS` give -1 at markup, or at a line
 * that does not start plain).
 */
function scanWords(
  body: string,
  start: number,
  end: number,
  classes: Uint8Array,
  markup: number,
): number {
  let count = 0;
  let previous = 0; // 1 while in a word
  for (let i = start; i < end; i++) {
    const code = body.charCodeAt(i);
    let kind = code < 256 ? classes[code] : classAbove255(code, markup);
    if (kind > WORD) {
      if (kind === APOSTROPHE) {
        // "don't": inside a word, an apostrophe before a word character is part of it
        kind = previous === WORD && i + 1 < end &&
            isWordChar(body.charCodeAt(i + 1), body, i + 1)
          ? WORD
          : 0;
      } else if (kind === MARKUP_CLASS) return -1;
      else if (kind === LINE_FEED) {
        if (i + 1 < end && !plainLineStart(body, i + 1)) return -1;
        kind = 0;
      } else if (isWordChar(code, body, i)) { // a surrogate pair: one character, two units
        count += previous ^ 1;
        previous = WORD;
        i++;
        continue;
      } else kind = 0;
    }
    count += kind & (previous ^ 1);
    previous = kind;
  }
  return count;
}

/** Whether a line that starts at `at` starts as a plain paragraph line or a plain heading does. */
function plainLineStart(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  switch (code) {
    case 45: // - + = > : start lists, breaks, underlines, quotes, admonitions
    case 43:
    case 61:
    case 62:
    case 58:
      return false;
    case 33: // !!!
    case 63: // ???
    case 47: // /// (a pymdownx block)
      return !(text.charCodeAt(at + 1) === code && text.charCodeAt(at + 2) === code);
    case 105: // import
      return !(text.startsWith("import", at) && !isAsciiWord(text.charCodeAt(at + 6)));
    case 101: // export
      return !(text.startsWith("export", at) && !isAsciiWord(text.charCodeAt(at + 6)));
    case 32: { // an indented line: only a line of spaces is plain
      let i = at;
      while (text.charCodeAt(i) === 32) i++;
      return i === text.length || text.charCodeAt(i) === 10;
    }
    case 35: { // "#": only a heading of plain text, 1 to 6 marks, then a space or the end
      let i = at;
      while (text.charCodeAt(i) === 35) i++;
      if (i - at > 6) return false;
      if (i === text.length || text.charCodeAt(i) === 10) return true;
      if (text.charCodeAt(i) !== 32) return false;
      const lineEnd = text.indexOf("\n", i);
      const hash = text.indexOf("#", i);
      return hash === -1 || (lineEnd !== -1 && hash > lineEnd);
    }
    default:
      if (code >= 48 && code <= 57) { // an ordered list's "1." or "1)"
        let i = at;
        while (i - at < 10 && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
        const after = text.charCodeAt(i);
        return !(i - at <= 9 && (after === 46 || after === 41));
      }
      return true;
  }
}

/** Whether a code unit is an ASCII word character (`\\b` in a regular expression). */
function isAsciiWord(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) || code === 95;
}
