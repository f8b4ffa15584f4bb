import { readBlocks, type TextBlock } from "./blocks.ts";
import { htmlDocumentBlocks } from "./html_blocks.ts";
import { firstHeading, firstProseText, plainText } from "./plain_text.ts";
import { countWords, plainWords } from "./words.ts";

/** What deriving an item needs of its body's text (SPEC 4). */
export interface TextSummary {
  /** The first level-1 heading's text (the title when front matter has none). */
  readonly heading: string | undefined;
  /**
   * The first prose paragraph's text, its white space as the body has it
   * (`""` when there is none): `collapseProse` (`plain_text.ts`) gives the
   * form a description is cut from. Not collapsed here: a description needs
   * its first 300 characters, and collapsing a long paragraph whole on
   * every file was a sixth of what a cold start's summaries allocated.
   */
  readonly prose: string;
  /** Word runs of the plain text (`time`). */
  readonly words: number;
}

/**
 * The heading, first prose paragraph and word count of a body, as its
 * plain text gives them (SPEC 4, 13). A body of plain paragraphs and
 * headings is read in one pass without building its blocks (the words of
 * such a body are the words of its source: `#` and spaces are no word
 * characters); anything else goes through the parser.
 *
 * @param html whether the body is an HTML document (a `.html` page), not Markdown
 *
 * @example
 * ```ts
 * import { summarizeText } from "./summary.ts";
 * summarizeText("# Hello\n\nPlain words here.");
 * // { heading: "Hello", prose: "Plain words here.", words: 4 }
 * ```
 */
export function summarizeText(body: string, html = false): TextSummary {
  if (html) return summaryOf(htmlDocumentBlocks(body));
  // A body of plain prose is read in one tight scan; any other, chunk by chunk.
  const words = plainWords(body);
  if (words !== -1) return simpleSummary(body, words);
  const read = readBlocks(body);
  return {
    heading: firstHeading(read.blocks),
    prose: firstProseText(read.blocks),
    words: read.words,
  };
}

/** The summary of parsed blocks. */
function summaryOf(blocks: readonly TextBlock[]): TextSummary {
  return {
    heading: firstHeading(blocks),
    prose: firstProseText(blocks),
    words: countWords(plainText(blocks)),
  };
}

/**
 * The summary of a body of plain paragraphs and headings, in one pass
 * without building its blocks: the words of such a body are the words of
 * its source (`#` and spaces are no word characters).
 */
function simpleSummary(body: string, words: number): TextSummary {
  let heading: string | undefined;
  let prose = "";
  // The current paragraph as a range of the body: sliced once, when it ends.
  let from = -1;
  let to = -1;
  const close = () => {
    if (from !== -1 && !prose) {
      const paragraph = body.slice(from, to);
      if (/[\p{L}\p{N}]/u.test(paragraph)) prose = paragraph;
    }
    from = -1;
  };
  // Lines until both are found: the words are counted on the whole body at once.
  for (let start = 0; start <= body.length && (!prose || heading === undefined);) {
    let end = body.indexOf("\n", start);
    if (end === -1) end = body.length;
    const first = body.charCodeAt(start);
    if (first === 35) { // "#"
      close();
      const line = body.slice(start, end);
      const marks = line.indexOf(" ");
      if (heading === undefined && (marks === 1 || (marks === -1 && line === "#"))) {
        const text = marks === -1 ? "" : line.slice(2).replace(/ +/g, " ").trim();
        if (text) heading = text;
      }
    } else if (first === 32 || start === end) {
      if (body.slice(start, end).trim() === "") close();
      else {
        if (from === -1) from = start;
        to = end;
      }
    } else {
      if (from === -1) from = start;
      to = end;
    }
    start = end + 1;
    if (end === body.length) break;
  }
  close();
  return { heading, prose, words };
}
