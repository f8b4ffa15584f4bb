// The blocks of a body that holds nothing but plain paragraphs and ATX
// headings, read without the Markdown parser: a cold start derives the text
// of every body, and most prose paragraphs hold no markup at all. Anything
// that could be markup (brackets, angle brackets, entities, emphasis, code,
// tables, lists, quotes, indented lines, template and MDX syntax, Unicode
// spaces) returns `undefined` and goes to the parser; where this returns
// blocks, they must equal the parser's, and the differential test in
// tests/text_test.ts holds it to that.
import type { TextBlock } from "./blocks.ts";

/**
 * Anything that is not a plain paragraph line or an ATX heading of plain
 * text, in one scan: a character that may be markup (brackets, angle
 * brackets, entities, braces, code, emphasis, escapes, tables,
 * strikethrough) or a space other than a space or a line feed (what `\s`
 * holds but those two); or a line that starts another kind of block (a list,
 * a quote, a break or setext underline, an admonition (`:::`, `!!!`, `???`,
 * `///`),
 * an ESM statement, an
 * indented line), or starts with `#` without being a heading of plain text.
 */
export const NOT_SIMPLE =
  /[[\]<>&{}`*_\\|~\r\t\v\f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|^(?:[-+=>:]|!!!|\?\?\?|\/\/\/|\d{1,9}[.)]|import\b|export\b| +\S|#(?!#{0,5}(?: +[^#\n]*)?$))/m;
const HEADING = /^(#{1,6})(?: +([^#]*?))? *$/;
/** Spaces that end a line (a simple line holds no tabs). */
const SPACES_AT_LINE_END = / +\n/g;

/**
 * Whether a body holds only plain paragraphs and ATX headings (the blocks
 * {@link parseSimpleBlocks} reads without the parser): one scan of the text.
 * (A hand-written scan with a table per code unit measured twice the
 * pattern's time: irregexp compiles it to machine code.)
 *
 * @example
 * ```ts
 * import { isSimpleBody } from "./simple_blocks.ts";
 * isSimpleBody("# Hello\n\nPlain words."); // true
 * isSimpleBody("- a list item"); // false
 * ```
 */
export function isSimpleBody(body: string): boolean {
  return !NOT_SIMPLE.test(body);
}

/**
 * The blocks of a body of plain paragraphs and headings, or `undefined`
 * when the body may hold anything else (the parser reads it then).
 *
 * @example
 * ```ts
 * import { parseSimpleBlocks } from "./simple_blocks.ts";
 * parseSimpleBlocks("# Hello\n\nPlain words.")?.map((b) => b.text); // ["Hello", "Plain words."]
 * parseSimpleBlocks("A [link](x)."); // undefined: the parser decides
 * ```
 */
export function parseSimpleBlocks(body: string): TextBlock[] | undefined {
  if (!isSimpleBody(body)) return undefined;
  const blocks: TextBlock[] = [];
  plainBlocks(body, 0, body.length, blocks);
  return blocks;
}

/**
 * The blocks of `text` from `start` to `end`, which holds only plain
 * paragraphs, ATX headings and blank lines (the caller has checked it with
 * {@link NOT_SIMPLE}), appended to `out`: a paragraph's lines lose their
 * trailing spaces and are joined by line breaks, as the parser gives them.
 *
 * @example
 * ```ts
 * import { plainBlocks } from "./simple_blocks.ts";
 * const out: import("./blocks.ts").TextBlock[] = [];
 * plainBlocks("x\n# Title\nSome text.", 2, 22, out);
 * out.map((b) => b.text); // ["Title", "Some text."]
 * ```
 */
export function plainBlocks(text: string, start: number, end: number, out: TextBlock[]): void {
  // The open paragraph as a range of `text`: most paragraphs are their source as it is (no
  // line ends in spaces before the last), and their text is a slice of it, not a string built
  // line by line.
  let from = -1;
  let to = -1; // the end of its last line, trailing spaces left out
  let lineEnd = -1; // the end of its last line as written
  let spaced = false; // a line before the last ends in spaces: the text is joined line by line
  const close = () => {
    if (from === -1) return;
    // The lines before the last lose their trailing spaces (the last's are left out already).
    const paragraph = spaced
      ? text.slice(from, to).replace(SPACES_AT_LINE_END, "\n")
      : text.slice(from, to);
    out.push({
      kind: "paragraph",
      level: 0,
      text: paragraph,
      prose: /[\p{L}\p{N}]/u.test(paragraph),
    });
    from = -1;
    spaced = false;
  };
  for (let at = start; at < end;) {
    let next = text.indexOf("\n", at);
    if (next === -1 || next > end) next = end;
    let last = next;
    while (last > at && text.charCodeAt(last - 1) === 32) last--; // trailing spaces
    if (last === at) close(); // a blank line (a simple line holds no tabs)
    else if (text.charCodeAt(at) === 35) { // "#": a heading (NOT_SIMPLE checked its form)
      close();
      const heading = HEADING.exec(text.slice(at, last))!;
      const title = (heading[2] ?? "").replace(/ +/g, " ").trim();
      out.push({ kind: "heading", level: heading[1].length, text: title, prose: false });
    } else {
      if (from === -1) from = at;
      else if (to !== lineEnd) spaced = true;
      to = last;
      lineEnd = next;
    }
    at = next + 1;
  }
  close();
}
