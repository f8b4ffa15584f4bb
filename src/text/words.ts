// Words of text (SPEC 4 `time`: Unicode word runs of the plain text), and
// the same count for a body of plain paragraphs and headings in the one
// scan that also finds whether it is one.
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
// Per UTF-16 code unit: 0 not yet known, 1 a word character, 2 not one, 3
// not one and a character that may be markup wherever it is (the class of
// `NOT_SIMPLE` in simple_blocks.ts). A typed array, not a Map: the lookup
// runs once per character of every body.
const KIND = new Uint8Array(65536);
for (let code = 0; code < 128; code++) {
  const word = (code >= 97 && code <= 122) || (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57);
  KIND[code] = word ? 1 : 2;
}
const MARKUP = 3;
for (const char of "[]<>&{}`*_\\|~\r\t\v\f\u0085\u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") {
  KIND[char.charCodeAt(0)] = MARKUP;
}
for (let code = 0x2000; code <= 0x200a; code++) KIND[code] = MARKUP;
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
 * import { countWords } from "./words.ts";
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
    if (kind >= 2 || (kind === 0 && !isWordChar(code, body, i))) {
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
  let count = 0;
  const length = end;
  if (start < length && !plainLineStart(body, start)) return -1;
  let i = start;
  while (i < length) {
    let code = body.charCodeAt(i);
    let kind = KIND[code];
    if (kind >= 2 || (kind === 0 && !isWordChar(code, body, i))) {
      if (KIND[code] === MARKUP) return -1;
      if (code === 10 && i + 1 < length && !plainLineStart(body, i + 1)) return -1;
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
      ) i++;
      else break;
    }
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
