// The blocks of a body that holds nothing but plain paragraphs and ATX
// headings, read without the Markdown parser: a cold start derives the text
// of every body, and most prose paragraphs hold no markup at all. Anything
// that could be markup (brackets, angle brackets, entities, emphasis, code,
// tables, lists, quotes, indented lines, template and MDX syntax, Unicode
// spaces) returns `undefined` and goes to the parser; where this returns
// blocks, they must equal the parser's, and the differential test in
// tests/text_test.ts holds it to that.
import type { TextBlock } from "./blocks.ts";

/** Characters that may start or be markup anywhere in a line. */
const SPECIAL = /[[\]<>&{}`*_\\|~\r\t]|[^\S \n]/;
/** Line starts that open another kind of block: lists, quotes, breaks, setext, fences, ESM. */
const BLOCK_START = /^(?:[-+=>:]|\d{1,9}[.)]|import\b|export\b| )/;
const HEADING = /^(#{1,6})(?: +([^#]*?))? *$/;

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
  if (SPECIAL.test(body)) return undefined;
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
    if (BLOCK_START.test(line)) return undefined;
    paragraph.push(line.replace(/ +$/, ""));
  }
  close();
  return blocks;
}
