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
 * a quote, a break or setext underline, an admonition (`:::`, `!!!`, `???`),
 * an ESM statement, an
 * indented line), or starts with `#` without being a heading of plain text.
 */
const NOT_SIMPLE =
  /[[\]<>&{}`*_\\|~\r\t\v\f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|^(?:[-+=>:]|!!!|\?\?\?|\d{1,9}[.)]|import\b|export\b| +\S|#(?!#{0,5}(?: +[^#\n]*)?$))/m;
const HEADING = /^(#{1,6})(?: +([^#]*?))? *$/;

/**
 * Whether a body holds only plain paragraphs and ATX headings (the blocks
 * {@link parseSimpleBlocks} reads without the parser): two scans of the text.
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
  let paragraph: string[] = [];
  const close = () => {
    if (paragraph.length === 0) return;
    const text = paragraph.join("\n");
    blocks.push({ kind: "paragraph", level: 0, text, prose: /[\p{L}\p{N}]/u.test(text) });
    paragraph = [];
  };
  for (const line of body.split("\n")) {
    if (/^ *$/.test(line)) {
      close();
      continue;
    }
    if (line.startsWith("#")) {
      const heading = HEADING.exec(line);
      if (!heading) return undefined;
      close();
      const text = (heading[2] ?? "").replace(/ +/g, " ").trim();
      blocks.push({ kind: "heading", level: heading[1].length, text, prose: false });
      continue;
    }
    paragraph.push(line.replace(/ +$/, ""));
  }
  close();
  return blocks;
}
