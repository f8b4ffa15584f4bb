// The blocks of an HTML page (the pages plugin's `.html` files): its text
// split at block-level tags, so that a page's `<h1>` is its heading and its
// first `<p>` its prose, as a Markdown page's would be. Hand-written rather
// than a parser: only tag boundaries and entities matter here, and the same
// tag and entity rules already read HTML blocks inside Markdown.
import type { TextBlock } from "./blocks.ts";
import { decodeHTML } from "entities";

/** Elements whose content is never text: scripts, styles, templates, embedded images. */
const HIDDEN = /<(script|style|template|noscript|svg|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
/** A tag that starts or ends a block: what parts one block of text from the next. */
const BLOCK_TAG =
  /<\/?(?:p|div|h[1-6]|li|ul|ol|dl|dt|dd|tr|td|th|table|thead|tbody|section|article|header|footer|main|nav|aside|blockquote|pre|figure|figcaption|br|hr|form|fieldset|details|summary|body|html)\b[^>]*>/gi;
/** The elements whose text is prose. */
const PROSE = new Set(["p", "li", "dd", "blockquote", "figcaption", "td", "summary"]);

/**
 * The text blocks of an HTML document: `h1`–`h6` as headings of their
 * level, `pre` as code, the text of `p`, `li`, `dd`, `blockquote`,
 * `figcaption`, `td` and `summary` as prose paragraphs, any other text as
 * HTML text (not prose). Comments, scripts, styles and templates hold no
 * text; entities are decoded. Never throws, linear in the input.
 *
 * @example
 * ```ts
 * import { htmlDocumentBlocks } from "./html_blocks.ts";
 * htmlDocumentBlocks("<h1>Team</h1><p>We are three &amp; a dog.</p>").map((b) => [b.kind, b.text]);
 * // [["heading", "Team"], ["paragraph", "We are three & a dog."]]
 * ```
 */
export function htmlDocumentBlocks(html: string): TextBlock[] {
  const source = html.replace(/<!--[\s\S]*?(?:-->|$)/g, "").replace(HIDDEN, "");
  const blocks: TextBlock[] = [];
  // The innermost open block element, by its tag name (a stack, bounded by the input).
  const open: string[] = [];
  let at = 0;
  const emit = (raw: string) => {
    const written = decodeHTML(raw.replace(/<[^>]*>/g, ""));
    if (open.includes("pre")) {
      const code = written.replace(/^\n+|\s+$/g, "");
      if (code) blocks.push({ kind: "code", level: 0, text: code, prose: false });
      return;
    }
    const text = written.replace(/[ \t\r\n]+/g, " ").trim();
    if (!text) return;
    const inside = open.at(-1) ?? "";
    const heading = /^h([1-6])$/.exec(inside);
    if (heading) blocks.push({ kind: "heading", level: Number(heading[1]), text, prose: false });
    else {
      const prose = PROSE.has(inside) && /[\p{L}\p{N}]/u.test(text);
      blocks.push({ kind: prose ? "paragraph" : "html", level: 0, text, prose });
    }
  };
  for (const tag of source.matchAll(BLOCK_TAG)) {
    emit(source.slice(at, tag.index));
    at = tag.index + tag[0].length;
    const name = /^<\/?([a-z0-9]+)/i.exec(tag[0])![1].toLowerCase();
    if (name === "br" || name === "hr") continue;
    if (tag[0][1] === "/") {
      const i = open.lastIndexOf(name);
      if (i !== -1) open.length = i;
    } else if (!tag[0].endsWith("/>")) open.push(name);
  }
  emit(source.slice(at));
  return blocks;
}
