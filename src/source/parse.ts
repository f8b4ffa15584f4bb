import { extract, FrontMatterError } from "./front_matter.ts";
import type { LeftOutWarning, ParsedFile, Warning } from "./parsed_file.ts";

const strict = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder();

/**
 * The text of UTF-8 bytes, or a `TypeError` when they are not UTF-8 (as a
 * `fatal` decoder throws). Decoded leniently first: under Deno the fatal
 * decoder took four times as long over a 10,000-file site's bodies (46
 * against 11 ms; Node 26 against 13). Bytes that are not UTF-8 decode
 * leniently with a U+FFFD where each bad sequence was, so only a text
 * holding one is decoded again strictly, which throws for bad bytes and
 * gives the same text for a U+FFFD written in the file.
 */
const decoder = {
  decode(bytes: Uint8Array): string {
    const text = lenient.decode(bytes);
    return text.includes("\ufffd") ? strict.decode(bytes) : text;
  },
};

/**
 * Turns one file's raw bytes into a {@link ParsedFile}, or a warning when the
 * file cannot be content (not UTF-8, binary, front matter that is not valid
 * YAML). Pure: the caller reads the bytes and hashes them.
 *
 * @param shown the path printed in warnings (relative to the content root)
 *
 * @example
 * ```ts
 * import { parseFile } from "./parse.ts";
 * const bytes = new TextEncoder().encode("---\ntitle: Hi\n---\nHello");
 * const result = parseFile(bytes, { plugin: "docs", path: "hi.md", checksum: "", mtime: 0 }, "docs/hi.md");
 * // result = { plugin: "docs", path: "hi.md", ..., attrs: { title: "Hi" }, body: "Hello" }
 * ```
 */
export function parseFile(
  bytes: Uint8Array,
  meta: Omit<ParsedFile, "attrs" | "body">,
  shown: string,
): ParsedFile | LeftOutWarning {
  // The front matter and the body are decoded apart, so the body is a string
  // of its own: not a slice that keeps the whole file alive, and one byte a
  // character when it is Latin-1 even if an author's name in the front
  // matter is not.
  const split = headLength(bytes);
  let head: string, rest: string;
  try {
    head = decoder.decode(split === -1 ? bytes : bytes.subarray(0, split));
    rest = split === -1 ? "" : decoder.decode(bytes.subarray(split));
  } catch {
    return { file: shown, message: "not valid UTF-8 text; left out", reason: "not text" };
  }
  if (head.includes("\0") || rest.includes("\0")) {
    return { file: shown, message: "binary file (NUL bytes); left out", reason: "not text" };
  }
  try {
    const { attrs, body } = extract(head);
    return { ...meta, attrs, body: split === -1 ? body.trim() : rest.trim() };
  } catch (error) {
    if (!(error instanceof FrontMatterError)) throw error;
    const at = error.line ? ` (line ${error.line})` : "";
    return {
      file: shown,
      ...(error.line ? { line: error.line } : {}),
      message: `${error.message}${at}; left out`,
      reason: "invalid front matter",
    };
  }
}

/**
 * The body of a file's raw bytes, exactly as {@link parseFile} gives it (the
 * text after the front matter, trimmed), without parsing the front matter
 * when the bytes show where it ends; `undefined` when the bytes are not
 * UTF-8 or not a content file.
 *
 * @example
 * ```ts
 * import { parseBody } from "./parse.ts";
 * parseBody(new TextEncoder().encode("---\ntitle: Hi\n---\nHello\n")); // "Hello"
 * ```
 */
export function parseBody(bytes: Uint8Array): string | undefined {
  const split = headLength(bytes);
  try {
    return split === -1
      ? extract(decoder.decode(bytes)).body.trim()
      : decoder.decode(bytes.subarray(split)).trim();
  } catch {
    return undefined;
  }
}

/**
 * Where the body of a file's raw bytes lies, `[start, end)`, exactly as
 * {@link parseBody} gives it (the text after the front matter, trimmed as
 * `String.prototype.trim` trims), found without decoding; `undefined` when
 * the bytes do not show where the front matter ends (then decode).
 *
 * @example
 * ```ts
 * import { bodyRange } from "./parse.ts";
 * bodyRange(new TextEncoder().encode("---\ntitle: Hi\n---\n  Hello\n")); // [20, 25]
 * ```
 */
export function bodyRange(bytes: Uint8Array): readonly [number, number] | undefined {
  const split = headLength(bytes);
  if (split === -1) return undefined;
  let start = split;
  let end = bytes.length;
  for (let width = whiteAt(bytes, start); width > 0; width = whiteAt(bytes, start)) start += width;
  for (
    let width = whiteBefore(bytes, end);
    width > 0 && end > start;
    width = whiteBefore(bytes, end)
  ) {
    end -= width;
  }
  return [start, Math.max(start, end)];
}

/** The UTF-8 of what `String.prototype.trim` trims (WhiteSpace and LineTerminator), beyond ASCII. */
const WHITE_SEQUENCES: readonly (readonly number[])[] = [
  "\u00a0",
  "\u1680",
  "\u2000",
  "\u2001",
  "\u2002",
  "\u2003",
  "\u2004",
  "\u2005",
  "\u2006",
  "\u2007",
  "\u2008",
  "\u2009",
  "\u200a",
  "\u2028",
  "\u2029",
  "\u202f",
  "\u205f",
  "\u3000",
  "\ufeff",
].map((char) => [...new TextEncoder().encode(char)]);

/** Whether a byte is ASCII white space as `trim` has it: tab, LF, VT, FF, CR, space. */
function isAsciiWhite(byte: number): boolean {
  return byte === 32 || (byte >= 9 && byte <= 13);
}

/** The length of the white-space character at `at`, or 0. */
function whiteAt(bytes: Uint8Array, at: number): number {
  if (at >= bytes.length) return 0;
  if (isAsciiWhite(bytes[at])) return 1;
  if (bytes[at] < 0xc2) return 0;
  for (const sequence of WHITE_SEQUENCES) {
    if (sequence.every((byte, i) => bytes[at + i] === byte)) return sequence.length;
  }
  return 0;
}

/** The length of the white-space character that ends at `end`, or 0. */
function whiteBefore(bytes: Uint8Array, end: number): number {
  if (end <= 0) return 0;
  if (isAsciiWhite(bytes[end - 1])) return 1;
  if (bytes[end - 1] < 0x80) return 0;
  for (const sequence of WHITE_SEQUENCES) {
    const at = end - sequence.length;
    if (at >= 0 && sequence.every((byte, i) => bytes[at + i] === byte)) return sequence.length;
  }
  return 0;
}

/**
 * The length in bytes of the opening `---` line, the front matter and its
 * closing `---` line (with its newline), found without decoding; -1 when the
 * file does not open with a `---` line, has no closing line, or holds a
 * line break other than LF and CRLF before it (there `extract` on the whole
 * text decides, as it always could).
 */
function headLength(bytes: Uint8Array): number {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const dashes = (at: number) => bytes[at] === 45 && bytes[at + 1] === 45 && bytes[at + 2] === 45;
  if (!dashes(i)) return -1;
  i += 3;
  while (bytes[i] === 32 || bytes[i] === 9) i++;
  if (bytes[i] === 13) i++;
  if (bytes[i] !== 10) return -1;
  for (let start = i + 1; start < bytes.length;) {
    let end = start;
    for (; end < bytes.length && bytes[end] !== 10; end++) {
      const byte = bytes[end];
      if (byte === 13 && bytes[end + 1] !== 10) return -1; // a lone CR breaks lines in JS regexes
      if (byte === 0xe2 && bytes[end + 1] === 0x80 && (bytes[end + 2] & 0xfe) === 0xa8) return -1;
    }
    if (dashes(start)) {
      let j = start + 3;
      while (bytes[j] === 32 || bytes[j] === 9) j++;
      if (bytes[j] === 13) j++;
      if (j === end) return Math.min(end + 1, bytes.length);
    }
    start = end + 1;
  }
  return -1;
}

/**
 * Tells a parse result that is a warning from one that is a file.
 *
 * @example
 * ```ts
 * import { isWarning } from "./parse.ts";
 * isWarning({ file: "a.md", message: "bad" }); // true
 * ```
 */
export function isWarning<T extends object>(value: T | Warning): value is Warning {
  return "message" in value && !("checksum" in value);
}
