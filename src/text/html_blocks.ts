// The blocks of an HTML page (the pages plugin's `.html` files): its text
// split at block-level tags, so that a page's `<h1>` is its heading and its
// first `<p>` its prose, as a Markdown page's would be. Hand-written rather
// than a parser: only tag boundaries and entities matter here, and the same
// tag and entity rules already read HTML blocks inside Markdown.
import type { TextBlock } from "./blocks.ts";
import { replaceSpans } from "./spans.ts";
import { decodeHTML } from "entities";

/**
 * The start tag of an element whose content is never text: scripts, styles,
 * templates, embedded images. A tag holds no `<` here, nor in
 * {@link BLOCK_TAG}: each try stops at the next one, so a run of `<div`
 * without a `>` is linear to search.
 */
const HIDDEN_OPEN = /<(script|style|template|noscript|svg|head)\b[^<>]*>/gi;
/** A tag that starts or ends a block: what parts one block of text from the next. */
const BLOCK_TAG =
  /<\/?(?:p|div|h[1-6]|li|ul|ol|dl|dt|dd|tr|td|th|table|thead|tbody|section|article|header|footer|main|nav|aside|blockquote|pre|figure|figcaption|br|hr|form|fieldset|details|summary|body|html)\b[^<>]*>/gi;
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
  const source = withoutElements(html.replace(/<!--[\s\S]*?(?:-->|$)/g, ""), HIDDEN_OPEN);
  const blocks: TextBlock[] = [];
  // The open block elements, innermost last (a stack, bounded by the input), and where
  // each name is in it: closing one, or asking for an open `pre`, looks at no other.
  const open: string[] = [];
  const where = new Map<string, number[]>();
  let at = 0;
  const emit = (raw: string) => {
    const written = decodeHTML(replaceSpans(raw, "<", ">"));
    if (where.get("pre")?.length) {
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
      const i = where.get(name)?.at(-1);
      if (i === undefined) continue;
      // It closes the elements opened inside it too.
      for (let k = open.length - 1; k >= i; k--) where.get(open[k])!.pop();
      open.length = i;
    } else if (!tag[0].endsWith("/>")) {
      let places = where.get(name);
      if (!places) where.set(name, places = []);
      places.push(open.length);
      open.push(name);
    }
  }
  emit(source.slice(at));
  return blocks;
}

/**
 * `html` without the elements whose start tags `opens` finds (a pattern
 * with the `g` flag whose first group is the element's name) and what they
 * hold, each to its end tag: what `/<(script|…)\b[^<>]*>[\s\S]*?<\/\1\s*>/gi`
 * takes out, each end tag looked for from where the last search for it
 * ended.
 *
 * @example
 * ```ts
 * import { withoutElements } from "./html_blocks.ts";
 * withoutElements("<p>Hi</p><script>x()</script>", /<(script)\b[^<>]*>/gi); // "<p>Hi</p>"
 * ```
 */
export function withoutElements(html: string, opens: RegExp): string {
  /** Per element name, the next end tag found: its start and end (-1: none left). */
  const ends = new Map<string, [number, number]>();
  let out = "";
  let at = 0;
  for (let from = 0;;) {
    opens.lastIndex = from;
    const start = opens.exec(html);
    if (!start) break;
    const name = start[1].toLowerCase();
    const after = start.index + start[0].length;
    let end = ends.get(name);
    if (end === undefined || (end[0] !== -1 && end[0] < after)) {
      const closer = new RegExp(`</${name}\\s*>`, "gi");
      closer.lastIndex = after;
      const found = closer.exec(html);
      end = found ? [found.index, found.index + found[0].length] : [-1, -1];
      ends.set(name, end);
    }
    if (end[0] === -1) {
      from = start.index + 1; // no end tag after it: the pattern tries the next place
      continue;
    }
    out += html.slice(at, start.index);
    at = from = end[1];
  }
  return at === 0 ? html : out + html.slice(at);
}
