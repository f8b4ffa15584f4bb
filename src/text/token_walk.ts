// The walk from markdown-it's tokens to text blocks (SPEC 13): headings with
// their explicit anchors, paragraphs and whether they are prose, tight lists
// as one paragraph, code, tables, and the text of HTML and JSX blocks.
import type { TextBlock } from "./blocks.ts";
import { inlineTextOf, withoutTemplates } from "./inline_text.ts";
import { type InlineToken, type MarkdownEnv, parseSource, unescapeAll } from "./parser.ts";
import { withoutElements } from "./html_blocks.ts";
import { firstSpan, replaceSpans } from "./spans.ts";

/** Blocks with the source line each starts on (0-based), from one parse. */
export interface Walked {
  readonly blocks: TextBlock[];
  readonly lines: number[];
}

/**
 * Parses prepared source and walks its tokens into text blocks (SPEC 13).
 *
 * @example
 * ```ts
 * import { walkTokens } from "./token_walk.ts";
 * walkTokens("# Hi\n\nSome *text*.", false).blocks[1].text; // "Some text."
 * ```
 */
export function walkTokens(source: string, eager: boolean): Walked {
  const env: MarkdownEnv = {};
  return walk(parseSource(source, eager, env), env);
}

/**
 * Walks the tokens of a parse into text blocks, parsing inline text with
 * `env`'s references.
 *
 * @example
 * ```ts
 * import { walk } from "./token_walk.ts";
 * import { parseSource } from "./parser.ts";
 * walk(parseSource("- a\n- b", false, {}), {}).blocks[0].text; // "a\nb"
 * ```
 */
export function walk(tokens: readonly InlineToken[], env: MarkdownEnv): Walked {
  const inlineOf = (token: InlineToken, heading = false) => inlineTextOf(token, env, heading);
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
        const { text, anchor } = headingText(inlineOf(inline, true).text);
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

/** Whether text has a letter or digit: what is left of markup alone is not prose. */
function hasWord(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/**
 * The text of an HTML (or JSX) block: tags dropped, text children kept,
 * entities decoded; an `<h1>` in it is a level-1 heading (SPEC 4 `title`).
 */
function htmlBlocks(written: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  // A script's or a style's content is no text (a Vue page's `<script setup>`).
  const html = written.includes("<s") || written.includes("<S")
    ? withoutElements(written, NOT_TEXT_ELEMENTS)
    : written;
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

/** Elements of an HTML block in Markdown whose content is never text. */
const NOT_TEXT_ELEMENTS = /<(script|style)\b[^<>]*>/gi;

/**
 * An `<h1>` tag's start and end (an `<` inside the tag ends the try: a run of
 * `<h1` without `>` is linear to search).
 */
const H1_OPEN = /<h1\b[^<>]*>/gi;
const H1_CLOSE = /<\/h1\s*>/gi;

function plainHtml(html: string): string {
  const text = unescapeAll(replaceSpans(html, "<", ">", " "));
  return text.split("\n").map((line) => line.replace(/\s+/g, " ").trim()).filter(Boolean)
    .join("\n");
}
