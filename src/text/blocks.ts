// The blocks of a Markdown body (SPEC 13), what the rest of the service
// asks of `text/`: the entry points over the chunked reading (`chunks.ts`),
// the preparation (`prepare.ts`), the parser (`parser.ts`) and the walk of
// its tokens (`token_walk.ts`). Long bodies at request time: `segments.ts`.
import { adoptReferences, type Chunks, scanChunks, startBody } from "./chunks.ts";
import type { MarkdownEnv } from "./parser.ts";
import { prepareSource } from "./prepare.ts";
import { walkTokens } from "./token_walk.ts";

/** One block of a body's rendered text (SPEC 13). */
export interface TextBlock {
  /** What the block is: only paragraphs can be prose. */
  readonly kind: "heading" | "paragraph" | "code" | "html" | "table";
  /** A heading's level (1–6); 0 otherwise. */
  readonly level: number;
  /**
   * The block's text: Markdown syntax, HTML and JSX tags, and template tags
   * removed; link text and image alt text kept; entities decoded. Lines of
   * a paragraph stay on lines of their own.
   */
  readonly text: string;
  /** A heading's explicit anchor (`## Title {#anchor}`), without the braces. */
  readonly anchor?: string;
  /**
   * Whether the block is prose (SPEC 4 `description`): a paragraph that is
   * not only images, template tags or leftovers of markup.
   */
  readonly prose: boolean;
}

/**
 * The blocks of a Markdown body (CommonMark with GFM tables, through
 * markdown-it), with what SPEC 13 drops dropped: MDX `import`/`export` lines,
 * admonition fences (`:::note` … `:::`, their content stays), HTML and JSX
 * tags (their text children stay), template tags (`{% … %}`, `{{ … }}`, Hugo
 * shortcodes). Never throws: any input gives blocks, in time linear in its
 * size for what real documents hold (markdown-it bounds nesting).
 *
 * Bodies of plain paragraphs and headings take a fast path that gives what
 * the parser gives (`simple_blocks.ts`); a differential test holds it to
 * the parser.
 *
 * @example
 * ```ts
 * import { textBlocks } from "./blocks.ts";
 * textBlocks("# Intro {#start}\n\nSee [the guide](/guide) &amp; more.").map((b) => [b.kind, b.text]);
 * // [["heading", "Intro"], ["paragraph", "See the guide & more."]]
 * ```
 */
export function textBlocks(body: string): TextBlock[] {
  return readBlocks(body).blocks;
}

/** A body's blocks and the words of their text, from {@link readBlocks}. */
export interface BodyBlocks {
  /** The blocks, as {@link textBlocks} gives them. */
  readonly blocks: TextBlock[];
  /** Word runs of their text (`countWords` of the plain text). */
  readonly words: number;
}

/**
 * The blocks of a body and their words, the parser reading only what may
 * hold markup: the body is split at blank lines into chunks, and each chunk
 * of plain paragraphs and headings (`simple_blocks.ts`) is read without the
 * parser, its words counted in the scan that finds it plain (`words.ts`).
 * The parser reads the rest, with a stand-in comment in each plain chunk's
 * place. After a blank line a plain line starts a new block whatever came
 * before, unless a fence or an HTML block is still open across it; then the
 * parse holds the stand-in inside that block, and the whole body is parsed
 * instead. A differential test holds this to the parser's whole reading.
 *
 * @param chunks the body's chunks, when the caller has scanned them
 *
 * @example
 * ```ts
 * import { readBlocks } from "./blocks.ts";
 * readBlocks("Plain words.\n\n- a *list*").words; // 4
 * ```
 */
export function readBlocks(body: string, chunks: Chunks = scanChunks(body)): BodyBlocks {
  const env: MarkdownEnv = {};
  const started = startBody(body, chunks);
  adoptReferences(env, started.env);
  return started.finish(env);
}

/**
 * {@link textBlocks} through the parser always (no fast path for plain
 * bodies). The parser reads the blocks; a paragraph, heading or table cell
 * of plain text (no character that could start inline markup) is taken as
 * written, and only the others are parsed inline: the inline parse is most
 * of the parser's cost. `eager` parses every inline: the reference the
 * shortcuts are tested against.
 *
 * @example
 * ```ts
 * import { parsedBlocks } from "./blocks.ts";
 * parsedBlocks("Hello *world*.")[0].text; // "Hello world."
 * ```
 */
export function parsedBlocks(body: string, options: { eager?: boolean } = {}): TextBlock[] {
  return walkTokens(prepareSource(body), options.eager ?? false).blocks;
}
