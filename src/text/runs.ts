// A body split at blank lines into runs that the Markdown parser must read
// and runs of plain paragraphs and headings that it need not: most
// paragraphs of real documents hold no markup, and the parser costs about
// ten times the plain reading. The split gives what parsing the whole body
// gives (a differential test in tests/text_test.ts holds it to that),
// because after a blank line a plain line can only start a new paragraph
// or heading: it is not indented (so no list item, code block or
// admonition continues into it), holds no `>` (no quote), no fence or HTML
// (nothing that spans blank lines is open, see SPANS below), and no `[`
// (no link that a reference elsewhere would resolve).
import { isSimpleBody } from "./simple_blocks.ts";

/** One run of a body: plain paragraphs and headings, or text for the parser. */
export interface Run {
  /** Whether the run holds only plain paragraphs and ATX headings. */
  readonly simple: boolean;
  /** The run's source, blank lines inside it included. */
  readonly text: string;
}

/**
 * What may hold a blank line inside one construct, or tie parts of a body
 * together across blank lines: code fences, HTML blocks that end only at
 * their closing tag (`<script>`, `<pre>`, `<style>`, `<textarea>`,
 * comments, processing instructions, declarations, CDATA), MDX comments,
 * link reference definitions. A body with any of these is read whole.
 */
const SPANS =
  /^ {0,3}(?:`{3}|~{3}|<(?:script|pre|style|textarea)(?:[\s>]|$)|<[!?]|\[[^\]]*\]:)|\{\/\*/im;

/** A blank line, with the line breaks around it: where runs may split. */
const BLANK = /\n[ \t]*\n/g;

/**
 * The runs of a body, in order, or `undefined` when the body must be read
 * whole (see SPANS). Consecutive pieces of one kind are one run.
 *
 * @example
 * ```ts
 * import { splitRuns } from "./runs.ts";
 * splitRuns("# Title\n\nPlain.\n\n- a list\n- b\n\nPlain again.")?.map((r) => r.simple);
 * // [true, false, true]
 * ```
 */
export function splitRuns(body: string): Run[] | undefined {
  if (SPANS.test(body)) return undefined;
  const runs: Run[] = [];
  let start = 0; // where the current run starts
  let kind: boolean | undefined; // the current run's kind
  let at = 0; // where the next piece starts
  const piece = (end: number, next: number) => {
    const simple = isSimpleBody(body.slice(at, end));
    if (kind !== undefined && simple !== kind) {
      runs.push({ simple: kind, text: body.slice(start, runEnd) });
      start = at;
    }
    kind = simple;
    runEnd = end;
    at = next;
  };
  let runEnd = 0;
  for (const blank of body.matchAll(BLANK)) piece(blank.index, blank.index + blank[0].length);
  piece(body.length, body.length);
  runs.push({ simple: kind!, text: body.slice(start, runEnd) });
  return runs;
}
