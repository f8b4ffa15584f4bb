import MarkdownIt from "markdown-it";
import { parseSimpleBlocks } from "./simple_blocks.ts";

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
 * the parser gives (`simple_blocks.ts`; a differential test holds it to that).
 *
 * @example
 * ```ts
 * import { textBlocks } from "./blocks.ts";
 * textBlocks("# Intro {#start}\n\nSee [the guide](/guide) &amp; more.").map((b) => [b.kind, b.text]);
 * // [["heading", "Intro"], ["paragraph", "See the guide & more."]]
 * ```
 */
export function textBlocks(body: string): TextBlock[] {
  return parseSimpleBlocks(body) ?? parsedBlocks(body);
}

/**
 * {@link textBlocks} through the parser always (no fast path): what the fast
 * path is tested against.
 *
 * @example
 * ```ts
 * import { parsedBlocks } from "./blocks.ts";
 * parsedBlocks("Hello *world*.")[0].text; // "Hello world."
 * ```
 */
export function parsedBlocks(body: string): TextBlock[] {
  const tokens = markdown.parse(withoutMdxAndFences(body), {});
  const blocks: TextBlock[] = [];
  // The items of a tight list are one paragraph of plain text, a line each.
  let list: string[] = [];
  let listProse = false;
  const push = (block: TextBlock) => {
    if (list.length > 0) {
      blocks.push({ kind: "paragraph", level: 0, text: list.join("\n"), prose: listProse });
      list = [];
      listProse = false;
    }
    blocks.push(block);
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    switch (token.type) {
      case "heading_open": {
        const inline = tokens[++i];
        const { text, anchor } = headingText(inlineText(inline.children ?? []));
        const level = Number(token.tag.slice(1));
        push(
          anchor === undefined
            ? { kind: "heading", level, text, prose: false }
            : { kind: "heading", level, text, anchor, prose: false },
        );
        break;
      }
      case "paragraph_open": {
        const inline = tokens[++i];
        const children = inline.children ?? [];
        const text = withoutTemplates(inlineText(children)).trim();
        const imagesOnly = children.every((c) =>
          c.type === "image" || c.type === "softbreak" || c.type === "hardbreak" ||
          (c.type === "text" && c.content.trim() === "") || c.type === "html_inline"
        );
        const prose = !imagesOnly && hasWord(text);
        if (!text) break;
        if (token.hidden) {
          list.push(text);
          listProse ||= prose;
        } else push({ kind: "paragraph", level: 0, text, prose });
        break;
      }
      case "fence":
      case "code_block": {
        const text = token.content.replace(/\n$/, "");
        if (text.trim()) push({ kind: "code", level: 0, text, prose: false });
        break;
      }
      case "html_block": {
        for (const block of htmlBlocks(token.content)) push(block);
        break;
      }
      case "table_open": {
        const rows: string[] = [];
        let row: string[] = [];
        for (i++; i < tokens.length && tokens[i].type !== "table_close"; i++) {
          const cell = tokens[i];
          if (cell.type === "inline") {
            row.push(withoutTemplates(inlineText(cell.children ?? [])).trim());
          } else if (cell.type === "tr_close") {
            rows.push(row.filter(Boolean).join(" "));
            row = [];
          }
        }
        const text = rows.filter(Boolean).join("\n");
        if (text) push({ kind: "table", level: 0, text, prose: false });
        break;
      }
      case "bullet_list_close":
      case "ordered_list_close":
        if (token.level === 0 && list.length > 0) {
          blocks.push({ kind: "paragraph", level: 0, text: list.join("\n"), prose: listProse });
          list = [];
          listProse = false;
        }
        break;
    }
  }
  if (list.length > 0) {
    blocks.push({ kind: "paragraph", level: 0, text: list.join("\n"), prose: listProse });
  }
  return blocks;
}

type InlineToken = ReturnType<typeof markdown.parseInline>[number];

/** The text of inline tokens: link text and image alt text kept, tags and markers dropped. */
function inlineText(children: readonly InlineToken[]): string {
  let text = "";
  for (const child of children) {
    switch (child.type) {
      case "text":
      case "code_inline":
        text += child.content;
        break;
      case "image":
        text += inlineText(child.children ?? []);
        break;
      case "softbreak":
      case "hardbreak":
        text += "\n";
        break;
      case "html_inline":
        // A tag is no text, but a line break or a block's edge still parts words.
        if (BREAKING_TAG.test(child.content)) text += "\n";
        break;
        // emphasis, links' open and close: markup, no text
    }
  }
  return text;
}

/** Tags that part the text around them when rendered: line breaks and block elements. */
const BREAKING_TAG =
  /^<\/?(?:br|hr|p|div|li|ul|ol|dl|dt|dd|tr|td|th|table|h[1-6]|section|article|header|footer|blockquote|pre|figure|figcaption)\b/i;

/** A heading's text without its explicit `{#anchor}` (VitePress, Docusaurus, Hugo). */
function headingText(raw: string): { text: string; anchor?: string } {
  const text = withoutTemplates(raw).replace(/\s+/g, " ").trim();
  const match = /\s*\{#([^\s}]+)\}$/.exec(text);
  return match ? { text: text.slice(0, match.index).trim(), anchor: match[1] } : { text };
}

/** Liquid (`{% … %}`, `{{ … }}`) and Hugo shortcode (`{{< … >}}`, `{{% … %}}`) tags. */
const TEMPLATE_TAG = /\{\{[<%][\s\S]*?[>%]\}\}|\{%[\s\S]*?%\}|\{\{[\s\S]*?\}\}/g;

function withoutTemplates(text: string): string {
  return text.includes("{") ? text.replace(TEMPLATE_TAG, "") : text;
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
 * The body without MDX `import`/`export` statements (each to the first
 * blank line after it) and without admonition fence lines, outside fenced
 * code. Line by line: these are not Markdown, and the parser would take
 * them for paragraphs.
 */
function withoutMdxAndFences(body: string): string {
  if (!body.includes(":::") && !/^(?:import|export)\s/m.test(body)) return body;
  const lines = body.split("\n");
  const out: string[] = [];
  let fence: string | undefined;
  let inEsm = false;
  for (const line of lines) {
    if (fence !== undefined) {
      out.push(line);
      if (line.trimStart().startsWith(fence)) fence = undefined;
      continue;
    }
    if (inEsm) {
      if (line.trim() === "") inEsm = false;
      else continue;
    }
    const opens = FENCE.exec(line);
    if (opens) {
      fence = opens[1];
      out.push(line);
    } else if (ESM.test(line)) {
      inEsm = true;
    } else if (!ADMONITION.test(line)) out.push(line);
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
