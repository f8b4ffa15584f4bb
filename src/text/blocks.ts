import MarkdownIt from "markdown-it";
import type { Pacer } from "../util/concurrency.ts";
import { plainBlocks } from "./simple_blocks.ts";
import { firstSpan, replaceSpans, withoutTemplateTags } from "./spans.ts";
import { textWork } from "./work.ts";
import { countWords, plainWords } from "./words.ts";

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

// html: JSX and HTML blocks are recognized as blocks (their text is kept,
// their tags dropped); linkify and typographer off: text stays as written.
const markdown = new MarkdownIt("default", { html: true, linkify: false, typographer: false });

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
  return readBody(body).blocks;
}

/** A body's blocks and the words of their text, from {@link readBody}. */
export interface ReadBody {
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
 * import { readBody } from "./blocks.ts";
 * readBody("Plain words.\n\n- a *list*").words; // 4
 * ```
 */
export function readBody(body: string, chunks: Chunks = scanChunks(body)): ReadBody {
  const env: MarkdownEnv = {};
  const started = startBody(body, chunks);
  adoptReferences(env, started.env);
  return started.finish(env);
}

/**
 * A body parsed into block tokens, not yet walked: the inline parse, which
 * needs every link reference definition of the body, comes in `finish`.
 */
interface Started {
  /** The block tokens of the parse (none for a body read without the parser). */
  readonly tokens: readonly InlineToken[];
  /** What the parse found: its link reference definitions. */
  readonly env: MarkdownEnv;
  /** Walks the tokens into blocks, with `env` holding the references of the whole body. */
  finish(env: MarkdownEnv): ReadBody;
}

/** The block parse of {@link readBody}; its walk is the `finish` of what it returns. */
function startBody(body: string, chunks: Chunks): Started {
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
  if (!all && (plain === 0 || SPANS_PREPARED.test(body))) return startWhole(body);
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

/** Adds a parse's link reference definitions to a body's: the first definition of a label wins. */
function adoptReferences(into: MarkdownEnv, from: MarkdownEnv): void {
  const found = (from as { references?: Record<string, unknown> }).references;
  if (!found) return;
  const all = ((into as { references?: Record<string, unknown> }).references ??= {});
  for (const label in found) if (!(label in all)) all[label] = found[label];
}

/** Characters of a segment of a long body that {@link readBodyPaced} reads in one go, at least. */
const SEGMENT = 32 * 1024;

/**
 * {@link readBody} for request-time work: the same blocks and words, read a
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
 * import { readBodyPaced } from "./blocks.ts";
 * import { createPacer } from "../util/concurrency.ts";
 * const body = Array.from({ length: 10_000 }, (_, i) => `## Part ${i}\n\nSee [the guide][g].`).join("\n\n");
 * const { blocks } = await readBodyPaced(`${body}\n\n[g]: /guide`, createPacer());
 * blocks.length; // 20000
 * ```
 */
export async function readBodyPaced(
  body: string,
  pace: Pacer,
  segmentLength: number = SEGMENT,
): Promise<ReadBody> {
  if (body.length <= segmentLength) return readBody(body);
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

/** What the preparation follows across blank lines: comments and template code blocks. */
const SPANS_PREPARED = /\{\/\*|\{%-?\s*comment|highlight/;

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
 * import { scanChunks } from "./blocks.ts";
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

/** Blocks with the source line each starts on (0-based), from one parse. */
interface Walked {
  readonly blocks: TextBlock[];
  readonly lines: number[];
}

/** Parses prepared source and walks its tokens into text blocks (SPEC 13). */
function walkTokens(source: string, eager: boolean): Walked {
  const env: MarkdownEnv = {};
  return walk(parseSource(source, eager, env), env);
}

/**
 * Parses prepared source into tokens, its link reference definitions into
 * `env`: the blocks alone (their inline text unparsed), or everything when
 * `eager`.
 */
function parseSource(source: string, eager: boolean, env: MarkdownEnv): InlineToken[] {
  const tokens = eager ? markdown.parse(source, env) : blockParser.parse(normalized(source), env);
  textWork.parses++;
  textWork.parsedChars += source.length;
  textWork.tokens += tokens.length;
  return tokens;
}

/** Walks the tokens of a parse into text blocks, parsing inline text with `env`'s references. */
function walk(tokens: readonly InlineToken[], env: MarkdownEnv): Walked {
  const inlineOf = (token: InlineToken) => inlineTextOf(token, env);
  const blocks: TextBlock[] = [];
  const lines: number[] = [];
  // The items of a tight list are one paragraph of plain text, a line each.
  let list: string[] = [];
  let listProse = false;
  let listLine = 0;
  const flushList = () => {
    if (list.length === 0) return;
    blocks.push({ kind: "paragraph", level: 0, text: list.join("\n"), prose: listProse });
    lines.push(listLine);
    list = [];
    listProse = false;
  };
  const push = (block: TextBlock, line: number) => {
    flushList();
    blocks.push(block);
    lines.push(line);
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const line = token.map?.[0] ?? 0;
    switch (token.type) {
      case "heading_open": {
        const inline = tokens[++i];
        const { text, anchor } = headingText(inlineOf(inline).text);
        const level = Number(token.tag.slice(1));
        push(
          anchor === undefined
            ? { kind: "heading", level, text, prose: false }
            : { kind: "heading", level, text, anchor, prose: false },
          line,
        );
        break;
      }
      case "paragraph_open": {
        const inline = inlineOf(tokens[++i]);
        const text = inline.text.trim();
        const prose = !inline.imagesOnly && hasWord(text);
        if (!text) break;
        if (token.hidden) {
          if (list.length === 0) listLine = line;
          list.push(text);
          listProse ||= prose;
        } else push({ kind: "paragraph", level: 0, text, prose }, line);
        break;
      }
      case "fence":
      case "code_block": {
        const text = token.content.replace(/\n$/, "");
        if (text.trim()) push({ kind: "code", level: 0, text, prose: false }, line);
        break;
      }
      case "html_block": {
        for (const block of htmlBlocks(token.content)) push(block, line);
        break;
      }
      case "table_open": {
        const rows: string[] = [];
        let row: string[] = [];
        for (i++; i < tokens.length && tokens[i].type !== "table_close"; i++) {
          const cell = tokens[i];
          if (cell.type === "inline") {
            row.push(inlineOf(cell).text.trim());
          } else if (cell.type === "tr_close") {
            rows.push(row.filter(Boolean).join(" "));
            row = [];
          }
        }
        const text = rows.filter(Boolean).join("\n");
        if (text) push({ kind: "table", level: 0, text, prose: false }, line);
        break;
      }
      case "bullet_list_close":
      case "ordered_list_close":
        if (token.level === 0) flushList();
        break;
    }
  }
  flushList();
  return { blocks, lines };
}

/**
 * What stands in for a plain run in the source the parser reads: an HTML
 * comment on a line of its own (it ends a list, a quote or indented code
 * as the plain paragraph did, and gives no text), then blank lines.
 */
const STAND_IN = "<!-- -->";

/** What markdown-it's normalize rule makes of a source: line breaks as LF, NUL as U+FFFD. */
function normalized(source: string): string {
  if (!source.includes("\r") && !source.includes("\0")) return source;
  return source.replace(/\r\n?/g, "\n").replace(/\0/g, "\uFFFD");
}

/** Whether `text` from `start` to `end` holds only spaces and tabs. */
function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code !== 32 && code !== 9) return false;
  }
  return true;
}

/** The lines from `start` to `end`. */
function countLines(text: string, start: number, end: number): number {
  let lines = 1;
  for (let at = text.indexOf("\n", start); at !== -1 && at < end; at = text.indexOf("\n", at + 1)) {
    lines++;
  }
  return lines;
}

type InlineToken = ReturnType<typeof markdown.parseInline>[number];
type MarkdownEnv = Parameters<typeof markdown.parse>[1];

/** The same parser without the inline pass: the blocks, their inline text unparsed. */
const blockParser = new MarkdownIt("default", { html: true, linkify: false, typographer: false });
// normalize too: walkTokens does it only where a body has a CR or a NUL (it
// was a regular-expression pass over every body).
blockParser.core.ruler.disable(["normalize", "inline", "text_join"]);

/**
 * A character that may start inline markup or change inline text: escapes,
 * code, emphasis, strikethrough, links and images, HTML and autolinks,
 * entities, template braces, and tabs (spaces at line breaks are the only
 * whitespace handled below).
 */
const INLINE_MARKUP = /[\\`*_~[\]<>&{}\t]/;

/**
 * The text of an inline token, and whether it holds only images (and
 * breaks, blanks and tags): parsed when it may hold markup; otherwise its
 * content as the inline parser would give it (the spaces around each line
 * break dropped).
 */
function inlineTextOf(
  token: InlineToken,
  env: MarkdownEnv,
): { text: string; imagesOnly: boolean } {
  // The block parser leaves every inline's children empty; the full parse fills them.
  let children = token.children;
  if (!children || children.length === 0) {
    if (!INLINE_MARKUP.test(token.content)) {
      const text = token.content.includes("\n")
        ? token.content.replace(/ *\n */g, "\n")
        : token.content;
      return { text, imagesOnly: text.trim() === "" };
    }
    children = [];
    markdown.inline.parse(token.content, markdown, env, children);
    textWork.inlineChars += token.content.length;
  }
  const imagesOnly = children.every((c) =>
    c.type === "image" || c.type === "softbreak" || c.type === "hardbreak" ||
    ((c.type === "text" || c.type === "text_special") && c.content.trim() === "") ||
    c.type === "html_inline"
  );
  return { text: inlineText(children), imagesOnly };
}

/**
 * The text of inline tokens: link text and image alt text kept, tags and
 * markers dropped, template tags dropped from the prose (never from code
 * spans, which show them as written).
 */
function inlineText(children: readonly InlineToken[]): string {
  let text = "";
  let prose = "";
  const flush = () => {
    if (prose) text += withoutMarkers(withoutTemplates(prose));
    prose = "";
  };
  for (const child of children) {
    switch (child.type) {
      case "text":
      case "text_special": // an escaped character, before text_join makes it text
        prose += child.content;
        break;
      case "code_inline":
        flush();
        text += child.content;
        break;
      case "image":
        prose += inlineText(child.children ?? []);
        break;
      case "softbreak":
      case "hardbreak":
        prose += "\n";
        break;
      case "html_inline":
        // A tag is no text, but a line break or a block's edge still parts words.
        if (BREAKING_TAG.test(child.content)) prose += "\n";
        break;
        // emphasis, links' open and close: markup, no text
    }
  }
  flush();
  return text;
}

/** Tags that part the text around them when rendered: line breaks and block elements. */
const BREAKING_TAG =
  /^<\/?(?:br|hr|p|div|li|ul|ol|dl|dt|dd|tr|td|th|table|h[1-6]|section|article|header|footer|blockquote|pre|figure|figcaption)\b/i;

/**
 * A heading's text without its explicit anchor: `{#id}` (VitePress,
 * Docusaurus, Hugo), `{ #id .class }` (attribute lists, MkDocs), `{: #id}`
 * (kramdown). An attribute list without an id (`{: .no_toc }`) is dropped.
 */
function headingText(raw: string): { text: string; anchor?: string } {
  const text = raw.replace(/\s+/g, " ").trim();
  const match = /\s*\{:?\s*([^{}]*)\}$/.exec(text);
  if (
    !match || !/^(?:[#.][^\s{}]+|[\w-]+=\S+)(?:\s+(?:[#.][^\s{}]+|[\w-]+=\S+))*\s*$/.test(match[1])
  ) {
    return { text };
  }
  const id = /(?:^|\s)#([^\s{}]+)/.exec(match[1])?.[1];
  const rest = text.slice(0, match.index).trim();
  return id === undefined ? { text: rest } : { text: rest, anchor: id };
}

/** Liquid's `{% raw %}…{% endraw %}`: what it holds is shown as written. */
const RAW = /\{%-?\s*raw\s*-?%\}([\s\S]*?)(?:\{%-?\s*endraw\s*-?%\}|$)/g;

function withoutTemplates(text: string): string {
  if (!text.includes("{")) return text;
  if (!text.includes("raw")) return withoutTemplateTags(text);
  let out = "";
  let at = 0;
  for (const raw of text.matchAll(RAW)) {
    out += withoutTemplateTags(text.slice(at, raw.index)) + raw[1];
    at = raw.index + raw[0].length;
  }
  return out + withoutTemplateTags(text.slice(at));
}

/**
 * What is markup of generators' Markdown extensions but is text to
 * CommonMark: footnote references (`word[^1]`) and the start of a footnote
 * (`[^1]: …`), and attribute lists of classes (`{: .btn }`, `{ .md-button }`).
 * A label holds no `[` (else a run of `[^` were quadratic to search).
 */
const EXTENSION_MARKER = /^\[\^[^[\]\s]+\]:\s*|\[\^[^[\]\s]+\]|\{:?[ \t]*\.[\w-][^{}\n]*\}/g;

/** Prose without the markers of {@link EXTENSION_MARKER}. */
function withoutMarkers(text: string): string {
  return text.includes("[^") || text.includes("{") ? text.replace(EXTENSION_MARKER, "") : text;
}

/** Whether text has a letter or digit: what is left of markup alone is not prose. */
function hasWord(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/** An ES module line of MDX: `import … from "…"`, `import "…"`, `export const …`. */
const ESM =
  /^(?:import\s+(?:["'][^"']*["']|[\w*{][^\n]*\bfrom\s*["'][^"']*["'])|export\s+(?:const|let|var|function|async|class|default|\{|\*))/;
/** A line of a fenced code block's fence. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** An admonition fence: `:::note Title`, `:::`, `::: tip`. */
const ADMONITION = /^ {0,3}:::/;
/**
 * An MkDocs admonition (`!!! note "Title"`, `??? tip`) or content tab
 * (`=== "curl"`): its content is indented under it.
 */
const MKDOCS_ADMONITION = /^(?:(?:!!!|\?\?\?\+?)\s*[\w-]|===\s+"[^"]*"\s*$)/;
/** A VitePress snippet import (`<<< @/snippets/snippet.js`): a file's code, not text. */
const SNIPPET_IMPORT = /^<<<\s+@/;
/** Template tags that open and close a code block: Jekyll's `highlight`, Hugo's `highlight` shortcode. */
const TEMPLATE_CODE: readonly (readonly [RegExp, RegExp])[] = [
  [/^\s*\{%-?\s*highlight\s[^%]*%\}\s*$/, /^\s*\{%-?\s*endhighlight\s*-?%\}\s*$/],
  [/^\s*\{\{<\s*highlight\s[^>]*>\}\}\s*$/, /^\s*\{\{<\s*\/highlight\s*>\}\}\s*$/],
];
/** Liquid's comment block: what it holds is no text. */
const COMMENT_OPEN = /\{%-?\s*comment\s*-?%\}/;
const COMMENT_CLOSE = /\{%-?\s*endcomment\s*-?%\}/;
const COMMENT_OPENS = new RegExp(COMMENT_OPEN.source, "g");
const COMMENT_CLOSES = new RegExp(COMMENT_CLOSE.source, "g");
/** The fence a template's code block becomes (long, so the code's own fences stay code). */
const CODE_FENCE = "~~~~~~~~~~";
/**
 * A line that only places a table of contents or sets attributes:
 * `[[toc]]` (VitePress), `[TOC]` (MkDocs), `{:toc}` and `{: .class}`
 * (kramdown attribute lists on a line of their own).
 */
const NOT_TEXT_LINE = /^ {0,3}(?:\[\[toc\]\]|\[toc\]|\{:[^}]*\})\s*$/i;
/** kramdown's `* TOC` list item, which `{:toc}` below it turns into the table of contents. */
const TOC_ITEM = /^\s*(?:[-*+]|\d+\.)\s+TOC\s*$/i;
/**
 * A template tag in a link or image destination: `]({{< ref "x" >}})`, `](/a/{{ v }}/b.png)`.
 * The destination holds no `]` and the tag no brace: each try stops at the next one (a run of
 * `](` or of `{` would otherwise be quadratic to search).
 */
const TEMPLATE_DESTINATION = /(\]\(\s*[^)\s\]]*)(?:\{\{[^{}]*\}\}|\{%[^%]*%\})/g;

/** A line with the template tags of its link destinations taken out (at most 8 a link). */
function withoutTemplateDestinations(line: string): string {
  for (let i = 0; i < 8; i++) {
    const next = line.replace(TEMPLATE_DESTINATION, "$1");
    if (next === line) break;
    line = next;
  }
  return line;
}
/**
 * Whether a body may hold any of the above, with substring searches (a
 * case-insensitive pattern of all of them cost more than the rest of the
 * preparation): braces (MDX comments, attribute lists, template
 * destinations), `:::`, `[[toc]]` and `[TOC]`, and the line starts.
 */
function mayPrepare(body: string): boolean {
  return body.includes("{") || body.includes(":::") || /\[toc\]/i.test(body) ||
    LINE_STARTS.test(body);
}
const LINE_STARTS = /^(?:import|export|!!!|\?\?\?|===|<<<)/m;
/**
 * The body without what is not Markdown and that the parser would take for
 * paragraphs, outside fenced code, line by line (each line taken out is
 * left empty, so every line keeps its number): MDX `import`/`export`
 * statements (each to the first blank line after it), MDX comments
 * (`{/* … *\/}`), admonition fence lines (`:::`; MkDocs' `!!!` lines, their
 * indented content moved out of what would be a code block), tables of
 * contents and attribute-list lines; and template tags at the start of a
 * link's destination, so the link still reads as a link.
 */
function prepareSource(body: string): string {
  if (!mayPrepare(body)) return body;
  const preparer = createPreparer();
  for (let at = 0; at <= body.length;) {
    let end = body.indexOf("\n", at);
    if (end === -1) end = body.length;
    preparer.push(body.slice(at, end));
    at = end + 1;
  }
  return preparer.out.join("\n");
}

/** {@link prepareSource} a line at a time, and what it carries from one line to the next. */
interface Preparer {
  /** The prepared lines so far (a line taken out is an empty line: the lines keep their numbers). */
  readonly out: string[];
  /** Prepares the next line into `out`. */
  push(line: string): void;
  /**
   * Whether nothing the preparation follows across lines is open: no fence,
   * template code block, MDX or Liquid comment, or MDX statement.
   */
  atBlockStart(): boolean;
}

function createPreparer(): Preparer {
  const out: string[] = [];
  let fence: string | undefined;
  let inEsm = false;
  let inComment = false;
  let inAdmonition = false;
  let templateCode: RegExp | undefined;
  let inLiquidComment = false;
  return {
    out,
    atBlockStart: () =>
      fence === undefined && templateCode === undefined && !inComment && !inLiquidComment &&
      !inEsm,
    push(line) {
      if (fence !== undefined) {
        out.push(line);
        if (line.trimStart().startsWith(fence)) fence = undefined;
        return;
      }
      if (templateCode !== undefined) {
        if (templateCode.test(line)) {
          templateCode = undefined;
          out.push(CODE_FENCE);
        } else out.push(line);
        return;
      }
      if (inLiquidComment) {
        const close = COMMENT_CLOSE.exec(line);
        if (!close) {
          out.push("");
          return;
        }
        inLiquidComment = false;
        line = line.slice(close.index + close[0].length);
      }
      if (line.includes("{%") && COMMENT_OPEN.test(line)) {
        line = replaceSpans(line, COMMENT_OPENS, COMMENT_CLOSES);
        const open = COMMENT_OPEN.exec(line);
        if (open) {
          inLiquidComment = true;
          line = line.slice(0, open.index);
        }
        if (line.trim() === "") {
          out.push("");
          return;
        }
      }
      if (line.includes("highlight")) {
        const code = TEMPLATE_CODE.find(([opener]) => opener.test(line));
        if (code) {
          templateCode = code[1];
          out.push(CODE_FENCE);
          return;
        }
      }
      if (inComment) {
        const end = line.indexOf("*/}");
        if (end === -1) {
          out.push("");
          return;
        }
        inComment = false;
        line = line.slice(end + 3);
      }
      if (line.includes("{/*")) {
        line = replaceSpans(line, "{/*", "*/}");
        const open = line.indexOf("{/*");
        if (open !== -1) {
          inComment = true;
          line = line.slice(0, open);
        }
        if (line.trim() === "") {
          out.push("");
          return;
        }
      }
      if (inEsm) {
        if (line.trim() === "") inEsm = false;
        else {
          out.push("");
          return;
        }
      }
      if (inAdmonition) {
        if (/^(?: {4}|\t)/.test(line)) line = line.replace(/^(?: {4}|\t)/, "");
        else if (line.trim() !== "") inAdmonition = false;
      }
      const opens = FENCE.exec(line);
      if (opens) {
        fence = opens[1];
        out.push(line);
      } else if (ESM.test(line)) {
        inEsm = true;
        out.push("");
      } else if (MKDOCS_ADMONITION.test(line)) {
        inAdmonition = true;
        out.push("");
      } else if (SNIPPET_IMPORT.test(line)) {
        out.push("");
      } else if (NOT_TEXT_LINE.test(line)) {
        if (/^\s*\{:toc\}/i.test(line) && TOC_ITEM.test(out.at(-1) ?? "")) out[out.length - 1] = "";
        out.push("");
      } else if (ADMONITION.test(line)) out.push("");
      else out.push(line.includes("](") ? withoutTemplateDestinations(line) : line);
    },
  };
}

/**
 * The text of an HTML (or JSX) block: tags dropped, text children kept,
 * entities decoded; an `<h1>` in it is a level-1 heading (SPEC 4 `title`).
 */
function htmlBlocks(html: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  const heading = firstSpan(html, H1_OPEN, H1_CLOSE);
  if (heading) {
    const text = plainHtml(html.slice(heading[1], heading[2]));
    if (text) blocks.push({ kind: "heading", level: 1, text, prose: false });
  }
  const text = withoutTemplates(plainHtml(replaceSpans(html, "<!--", "-->")));
  if (text && !heading) blocks.push({ kind: "html", level: 0, text, prose: false });
  else if (text && heading) {
    const rest = withoutTemplates(plainHtml(html.slice(0, heading[0]) + html.slice(heading[3])));
    if (rest) blocks.push({ kind: "html", level: 0, text: rest, prose: false });
  }
  return blocks;
}

/**
 * An `<h1>` tag's start and end (an `<` inside the tag ends the try: a run of
 * `<h1` without `>` is linear to search).
 */
const H1_OPEN = /<h1\b[^<>]*>/gi;
const H1_CLOSE = /<\/h1\s*>/gi;

function plainHtml(html: string): string {
  const text = markdown.utils.unescapeAll(replaceSpans(html, "<", ">", " "));
  return text.split("\n").map((line) => line.replace(/\s+/g, " ").trim()).filter(Boolean)
    .join("\n");
}
