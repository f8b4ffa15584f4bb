// A long body read a segment at a time (SPEC 13), with a yield to the
// event loop between segments: the request-time reading of sections.
import type { Pacer } from "../util/concurrency.ts";
import { type BodyBlocks, readBlocks, type TextBlock } from "./blocks.ts";
import { adoptReferences, countLines, scanChunks, startBody, type Started } from "./chunks.ts";
import type { InlineToken, MarkdownEnv } from "./parser.ts";
import { createPreparer, mayPrepare } from "./prepare.ts";
import { textWork } from "../util/work_counts.ts";

/** Characters of a segment of a long body that {@link readBlocksPaced} reads in one go, at least. */
const SEGMENT = 32 * 1024;

/**
 * {@link readBlocks} for request-time work: the same blocks and words, read a
 * segment at a time with `pace` between segments, so a long body never
 * holds the event loop for long. The body is cut where no block can run on
 * across the cut: before an ATX heading at the left margin, or after a
 * blank line before a line that starts a block at the left margin (a
 * letter, `<`, `[`, a fence), not a list item, a quote or an indented
 * line; where no fence, MDX or Liquid comment, template code block or MDX
 * statement is open (as the preparation follows them); and where the parse
 * of the segment agrees, leaving no fence or HTML block open at its end
 * (else the cut is tried further on). Each segment is parsed into
 * blocks first, then all are walked, so a link may use a reference defined
 * further down. A body of one block (a list or a table with no blank line
 * in it) is one segment: its parse is the longest stretch without a yield.
 *
 * @param segmentLength the least characters of a segment (32 KB: a few milliseconds of parsing)
 *
 * @example
 * ```ts
 * import { readBlocksPaced } from "./segments.ts";
 * import { createPacer } from "../util/concurrency.ts";
 * const body = Array.from({ length: 10_000 }, (_, i) => `## Part ${i}\n\nSee [the guide][g].`).join("\n\n");
 * const { blocks } = await readBlocksPaced(`${body}\n\n[g]: /guide`, createPacer());
 * blocks.length; // 20000
 * ```
 */
export async function readBlocksPaced(
  body: string,
  pace: Pacer,
  segmentLength: number = SEGMENT,
): Promise<BodyBlocks> {
  if (body.length <= segmentLength) return readBlocks(body);
  const env: MarkdownEnv = {};
  const started: Started[] = [];
  // The preparation's state from line to line, when the body holds anything it takes out.
  const preparer = mayPrepare(body) ? createPreparer() : undefined;
  let from = 0; // where the current segment starts
  // A cut the parse refused (a block left open) doubles the length of the next try, so
  // what is parsed again stays within twice the body.
  let least = segmentLength;
  let previousBlank = false;
  for (let at = 0; at < body.length;) {
    let lineEnd = body.indexOf("\n", at);
    if (lineEnd === -1) lineEnd = body.length;
    const written = body.slice(at, lineEnd);
    const candidate = at - from >= least && (preparer?.atBlockStart() ?? true);
    let line = written;
    if (preparer) {
      preparer.push(written);
      line = preparer.out[0];
      preparer.out.length = 0; // only its state matters here
    }
    // The line starts afresh as written (else an admonition's indented content was moved
    // left) and as the parser reads it, prepared (an MDX `export` line is blank).
    if (
      candidate &&
      ((previousBlank && STARTS_FRESH.test(written) && STARTS_FRESH.test(line)) ||
        (ATX_HEADING.test(written) && ATX_HEADING.test(line)))
    ) {
      const text = body.slice(from, at);
      const segment = startBody(text, scanChunks(text));
      if (leftOpen(segment.tokens, countLines(body, from, at - 1))) least = 2 * (at - from);
      else {
        adoptReferences(env, segment.env);
        started.push(segment);
        textWork.segments++;
        from = at;
        least = segmentLength;
        const turn = pace();
        if (turn) await turn;
      }
    }
    previousBlank = isBlankLine(line, 0, line.length);
    at = lineEnd + 1;
  }
  const rest = body.slice(from);
  const last = startBody(rest, scanChunks(rest));
  adoptReferences(env, last.env);
  started.push(last);
  textWork.segments++;
  const blocks: TextBlock[] = [];
  let words = 0;
  for (const segment of started) {
    const read = segment.finish(env);
    for (const block of read.blocks) blocks.push(block);
    words += read.words;
    const turn = pace();
    if (turn) await turn;
  }
  return { blocks, words };
}

/**
 * An ATX heading at the left margin: it ends any block before it but a
 * fence or an HTML block (which the parse of the segment before it tells),
 * so a segment may start there even without a blank line before it.
 */
const ATX_HEADING = /^#{1,6}(?:[ \t]|$)/;

/**
 * What a segment of a long body may start with: a line at the left margin
 * that cannot continue a block of the line before the blank line (a list
 * item, a quote, a table row, an indented line, an attribute list could).
 */
const STARTS_FRESH = /^[#<[`~!\p{L}]/u;

/** Whether a line holds only spaces, tabs and carriage returns (blank once they are normalized). */
function isBlankLine(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code !== 32 && code !== 9 && code !== 13) return false;
  }
  return true;
}

/** Whether a parse of `lines` lines left a fence or an HTML block open at its end (unclosed). */
function leftOpen(tokens: readonly InlineToken[], lines: number): boolean {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i];
    if (token.level !== 0 || !token.map) continue;
    return (token.type === "fence" || token.type === "html_block") && token.map[1] >= lines;
  }
  return false;
}
