import MarkdownIt from "markdown-it";
import { plainBlocks } from "./simple_blocks.ts";
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
  if (!all && (plain === 0 || SPANS_PREPARED.test(body))) return wholeBody(body);
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
  const walked = all
    ? { blocks: [], lines: [], tokens: [] }
    : walkTokens(prepareSource(parsed + body.slice(from)), false);
  // Every stand-in must be a block of its own: none inside a fence, an HTML block or a list.
  let next = 0;
  for (const token of walked.tokens) {
    const map = token.map;
    if (!map || token.nesting === -1) continue;
    if (token.type === "html_block" && map[1] === map[0] + 1 && standIns.includes(map[0])) continue;
    while (next < standIns.length && standIns[next] < map[0]) next++;
    if (next < standIns.length && standIns[next] < map[1]) return wholeBody(body);
  }
  // Both lists are in source order: merge them by line.
  const blocks: TextBlock[] = [];
  let c = 0;
  const plainUpTo = (line: number) => {
    for (; c < chunks.starts.length && chunks.lines[c] < line; c++) {
      if (chunks.words[c] >= 0) plainBlocks(body, chunks.starts[c], chunks.ends[c], blocks);
    }
  };
  for (let b = 0; b < walked.blocks.length; b++) {
    plainUpTo(walked.lines[b]);
    blocks.push(walked.blocks[b]);
    words += countWords(walked.blocks[b].text); // no word runs across blocks
  }
  plainUpTo(Infinity);
  return { blocks, words };
}

/** A body read by the parser whole (the lazy inline parse), and its words. */
function wholeBody(body: string): ReadBody {
  const blocks = walkTokens(prepareSource(body), false).blocks;
  let words = 0;
  for (const block of blocks) words += countWords(block.text);
  return { blocks, words };
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
  /** The block tokens of the parse (for the checks of {@link mixedBlocks}). */
  readonly tokens: readonly InlineToken[];
}

/** Parses prepared source and walks its tokens into text blocks (SPEC 13). */
function walkTokens(source: string, eager: boolean): Walked {
  const env: MarkdownEnv = {};
  const tokens = eager ? markdown.parse(source, env) : blockParser.parse(normalized(source), env);
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
  return { blocks, lines, tokens };
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

/** Liquid (`{% … %}`, `{{ … }}`) and Hugo shortcode (`{{< … >}}`, `{{% … %}}`) tags. */
const TEMPLATE_TAG = /\{\{[<%][\s\S]*?[>%]\}\}|\{%[\s\S]*?%\}|\{\{[\s\S]*?\}\}/g;

/** Liquid's `{% raw %}…{% endraw %}`: what it holds is shown as written. */
const RAW = /\{%-?\s*raw\s*-?%\}([\s\S]*?)(?:\{%-?\s*endraw\s*-?%\}|$)/g;

function withoutTemplates(text: string): string {
  if (!text.includes("{")) return text;
  if (!text.includes("raw")) return text.replace(TEMPLATE_TAG, "");
  let out = "";
  let at = 0;
  for (const raw of text.matchAll(RAW)) {
    out += text.slice(at, raw.index).replace(TEMPLATE_TAG, "") + raw[1];
    at = raw.index + raw[0].length;
  }
  return out + text.slice(at).replace(TEMPLATE_TAG, "");
}

/**
 * What is markup of generators' Markdown extensions but is text to
 * CommonMark: footnote references (`word[^1]`) and the start of a footnote
 * (`[^1]: …`), and attribute lists of classes (`{: .btn }`, `{ .md-button }`).
 */
const EXTENSION_MARKER = /^\[\^[^\]\s]+\]:\s*|\[\^[^\]\s]+\]|\{:?[ \t]*\.[\w-][^{}\n]*\}/g;

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
/** A template tag in a link or image destination: `]({{< ref "x" >}})`, `](/a/{{ v }}/b.png)`. */
const TEMPLATE_DESTINATION = /(\]\(\s*[^)\s]*)(?:\{\{[^}]*\}\}|\{%[^%]*%\})/g;

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
  const lines = body.split("\n");
  // A line taken out leaves an empty line: the lines keep their numbers.
  const out: string[] = [];
  let fence: string | undefined;
  let inEsm = false;
  let inComment = false;
  let inAdmonition = false;
  let templateCode: RegExp | undefined;
  let inLiquidComment = false;
  for (let line of lines) {
    if (fence !== undefined) {
      out.push(line);
      if (line.trimStart().startsWith(fence)) fence = undefined;
      continue;
    }
    if (templateCode !== undefined) {
      if (templateCode.test(line)) {
        templateCode = undefined;
        out.push(CODE_FENCE);
      } else out.push(line);
      continue;
    }
    if (inLiquidComment) {
      const close = COMMENT_CLOSE.exec(line);
      if (!close) {
        out.push("");
        continue;
      }
      inLiquidComment = false;
      line = line.slice(close.index + close[0].length);
    }
    if (line.includes("{%") && COMMENT_OPEN.test(line)) {
      line = line.replace(/\{%-?\s*comment\s*-?%\}[\s\S]*?\{%-?\s*endcomment\s*-?%\}/g, "");
      const open = COMMENT_OPEN.exec(line);
      if (open) {
        inLiquidComment = true;
        line = line.slice(0, open.index);
      }
      if (line.trim() === "") {
        out.push("");
        continue;
      }
    }
    if (line.includes("highlight")) {
      const code = TEMPLATE_CODE.find(([opener]) => opener.test(line));
      if (code) {
        templateCode = code[1];
        out.push(CODE_FENCE);
        continue;
      }
    }
    if (inComment) {
      const end = line.indexOf("*/}");
      if (end === -1) {
        out.push("");
        continue;
      }
      inComment = false;
      line = line.slice(end + 3);
    }
    if (line.includes("{/*")) {
      line = line.replace(/\{\/\*[\s\S]*?\*\/\}/g, "");
      const open = line.indexOf("{/*");
      if (open !== -1) {
        inComment = true;
        line = line.slice(0, open);
      }
      if (line.trim() === "") {
        out.push("");
        continue;
      }
    }
    if (inEsm) {
      if (line.trim() === "") inEsm = false;
      else {
        out.push("");
        continue;
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
  }
  return out.join("\n");
}

/**
 * The text of an HTML (or JSX) block: tags dropped, text children kept,
 * entities decoded; an `<h1>` in it is a level-1 heading (SPEC 4 `title`).
 */
function htmlBlocks(html: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  const heading = /<h1\b[^>]*>([\s\S]*?)<\/h1\s*>/i.exec(html);
  if (heading) {
    const text = plainHtml(heading[1]);
    if (text) blocks.push({ kind: "heading", level: 1, text, prose: false });
  }
  const text = withoutTemplates(plainHtml(html.replace(/<!--[\s\S]*?-->/g, "")));
  if (text && !heading) blocks.push({ kind: "html", level: 0, text, prose: false });
  else if (text && heading) {
    const rest = withoutTemplates(plainHtml(html.replace(heading[0], "")));
    if (rest) blocks.push({ kind: "html", level: 0, text: rest, prose: false });
  }
  return blocks;
}

function plainHtml(html: string): string {
  const text = markdown.utils.unescapeAll(html.replace(/<[^>]*>/g, " "));
  return text.split("\n").map((line) => line.replace(/\s+/g, " ").trim()).filter(Boolean)
    .join("\n");
}
