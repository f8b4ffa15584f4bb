// A body read chunk by chunk (SPEC 13): split at blank lines, each chunk of
// plain paragraphs and headings read without the parser (`simple_blocks.ts`,
// its words counted in the scan that finds it plain), the rest parsed with
// a stand-in where each plain chunk was, and the two merged in source order.
import type { BodyBlocks, TextBlock } from "./blocks.ts";
import { type InlineToken, type MarkdownEnv, parseSource } from "./parser.ts";
import { prepareSource, spansBlankLines } from "./prepare.ts";
import { plainBlocks } from "./simple_blocks.ts";
import { walk } from "./token_walk.ts";
import { countWords, plainWords } from "./words.ts";

/** A body's chunks between blank lines: ranges, first lines, and words (-1: may hold markup). */
export interface Chunks {
  readonly starts: number[];
  readonly ends: number[];
  readonly lines: number[];
  readonly words: number[];
}

/**
 * Splits a body at blank lines (spaces and tabs only) and reads each
 * chunk's words if it is plain (`-1` where markup may start).
 *
 * @example
 * ```ts
 * import { scanChunks } from "./chunks.ts";
 * scanChunks("Plain words.\n\n- a list").words; // [2, -1]
 * ```
 */
export function scanChunks(body: string): Chunks {
  const chunks: Chunks = { starts: [], ends: [], lines: [], words: [] };
  let line = 0;
  let open = false;
  for (let at = 0; at <= body.length;) {
    let lineEnd = body.indexOf("\n", at);
    if (lineEnd === -1) lineEnd = body.length;
    if (isBlank(body, at, lineEnd)) open = false;
    else if (!open) {
      chunks.starts.push(at);
      chunks.ends.push(lineEnd);
      chunks.lines.push(line);
      open = true;
    } else chunks.ends[chunks.ends.length - 1] = lineEnd;
    at = lineEnd + 1;
    line++;
  }
  for (let c = 0; c < chunks.starts.length; c++) {
    chunks.words.push(plainWords(body, chunks.starts[c], chunks.ends[c]));
  }
  return chunks;
}

/**
 * A body parsed into block tokens, not yet walked: the inline parse, which
 * needs every link reference definition of the body, comes in `finish`.
 */
export interface Started {
  /** The block tokens of the parse (none for a body read without the parser). */
  readonly tokens: readonly InlineToken[];
  /** What the parse found: its link reference definitions. */
  readonly env: MarkdownEnv;
  /** Walks the tokens into blocks, with `env` holding the references of the whole body. */
  finish(env: MarkdownEnv): BodyBlocks;
}

/**
 * The block parse of a body (`readBlocks` in `blocks.ts`): the parser reads
 * only the chunks that may hold markup, with a stand-in where each plain
 * chunk was; its walk, merged with the plain chunks' blocks, is the
 * `finish` of what it returns. A body whose stand-ins would not be blocks
 * of their own (inside a fence, an HTML block or a list) is read whole.
 *
 * @example
 * ```ts
 * import { scanChunks, startBody } from "./chunks.ts";
 * const body = "Plain words.\n\n- a *list*";
 * startBody(body, scanChunks(body)).finish({}).words; // 4
 * ```
 */
export function startBody(body: string, chunks: Chunks): Started {
  let words = 0;
  let plain = 0;
  for (const count of chunks.words) {
    if (count >= 0) {
      words += count;
      plain++;
    }
  }
  const all = plain === chunks.words.length;
  // MDX and Liquid comments and template code blocks may run across blank lines, and so
  // across a plain chunk: read whole.
  if (!all && (plain === 0 || spansBlankLines(body))) return startWhole(body);
  // The parser's source: each plain chunk replaced by a stand-in line and blank lines.
  let parsed = "";
  let from = 0;
  const standIns: number[] = [];
  for (let c = 0; c < chunks.starts.length; c++) {
    if (chunks.words[c] < 0) continue;
    const lines = countLines(body, chunks.starts[c], chunks.ends[c]);
    parsed += body.slice(from, chunks.starts[c]) + STAND_IN + "\n".repeat(lines - 1);
    from = chunks.ends[c];
    standIns.push(chunks.lines[c]);
  }
  const env: MarkdownEnv = {};
  const tokens = all ? [] : parseSource(prepareSource(parsed + body.slice(from)), false, env);
  // Every stand-in must be a block of its own: none inside a fence, an HTML block or a list.
  let next = 0;
  for (const token of tokens) {
    const map = token.map;
    if (!map || token.nesting === -1) continue;
    if (token.type === "html_block" && map[1] === map[0] + 1 && standIns.includes(map[0])) continue;
    while (next < standIns.length && standIns[next] < map[0]) next++;
    if (next < standIns.length && standIns[next] < map[1]) return startWhole(body);
  }
  return {
    tokens,
    env,
    finish(references) {
      const walked = walk(tokens, references);
      // Both lists are in source order: merge them by line.
      const blocks: TextBlock[] = [];
      let c = 0;
      const plainUpTo = (line: number) => {
        for (; c < chunks.starts.length && chunks.lines[c] < line; c++) {
          if (chunks.words[c] >= 0) plainBlocks(body, chunks.starts[c], chunks.ends[c], blocks);
        }
      };
      let all = words;
      for (let b = 0; b < walked.blocks.length; b++) {
        plainUpTo(walked.lines[b]);
        blocks.push(walked.blocks[b]);
        all += countWords(walked.blocks[b].text); // no word runs across blocks
      }
      plainUpTo(Infinity);
      return { blocks, words: all };
    },
  };
}

/** A body read by the parser whole (the lazy inline parse), and its words. */
function startWhole(body: string): Started {
  const env: MarkdownEnv = {};
  const tokens = parseSource(prepareSource(body), false, env);
  return {
    tokens,
    env,
    finish(references) {
      const blocks = walk(tokens, references).blocks;
      let words = 0;
      for (const block of blocks) words += countWords(block.text);
      return { blocks, words };
    },
  };
}

/**
 * Adds a parse's link reference definitions to a body's: the first
 * definition of a label wins.
 *
 * @example
 * ```ts
 * import { adoptReferences } from "./chunks.ts";
 * const body = {};
 * adoptReferences(body, { references: { G: { href: "/guide", title: "" } } });
 * ```
 */
export function adoptReferences(into: MarkdownEnv, from: MarkdownEnv): void {
  const found = (from as { references?: Record<string, unknown> }).references;
  if (!found) return;
  const all = ((into as { references?: Record<string, unknown> }).references ??= {});
  for (const label in found) if (!(label in all)) all[label] = found[label];
}

/**
 * What stands in for a plain run in the source the parser reads: an HTML
 * comment on a line of its own (it ends a list, a quote or indented code
 * as the plain paragraph did, and gives no text), then blank lines.
 */
const STAND_IN = "<!-- -->";

/** Whether `text` from `start` to `end` holds only spaces and tabs. */
function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code !== 32 && code !== 9) return false;
  }
  return true;
}

/**
 * The lines from `start` to `end`.
 *
 * @example
 * ```ts
 * import { countLines } from "./chunks.ts";
 * countLines("a\nb\nc", 0, 5); // 3
 * ```
 */
export function countLines(text: string, start: number, end: number): number {
  let lines = 1;
  for (let at = text.indexOf("\n", start); at !== -1 && at < end; at = text.indexOf("\n", at + 1)) {
    lines++;
  }
  return lines;
}
