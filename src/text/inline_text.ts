// The text of a paragraph, heading or table cell (SPEC 13): link text and
// image alt text kept, markup, tags and template tags dropped; the inline
// parse, most of the parser's cost, run only where markup may be.
import { type InlineToken, type MarkdownEnv, parseInline } from "./parser.ts";
import { withoutTemplateTags } from "./spans.ts";

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
 *
 * @param heading whether the token is a heading's: an attribute list that
 * ends it (`{ #id .class }`) stays, for the heading's anchor
 *
 * @example
 * ```ts
 * import { inlineTextOf } from "./inline_text.ts";
 * import { parseSource } from "./parser.ts";
 * const [, inline] = parseSource("See [the guide](/guide).", false, {});
 * inlineTextOf(inline, {}); // { text: "See the guide.", imagesOnly: false }
 * ```
 */
export function inlineTextOf(
  token: InlineToken,
  env: MarkdownEnv,
  heading = false,
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
    parseInline(token.content, env, children);
  }
  const imagesOnly = children.every((c) =>
    c.type === "image" || c.type === "softbreak" || c.type === "hardbreak" ||
    ((c.type === "text" || c.type === "text_special") && c.content.trim() === "") ||
    c.type === "html_inline"
  );
  return { text: inlineText(children, heading), imagesOnly };
}

/**
 * The text of inline tokens: link text and image alt text kept, tags and
 * markers dropped, template tags dropped from the prose (never from code
 * spans, which show them as written).
 */
function inlineText(children: readonly InlineToken[], heading = false): string {
  let text = "";
  let prose = "";
  const flush = () => {
    if (prose) text += withoutMarkers(withoutTemplates(prose), heading);
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
        prose += inlineText(child.children ?? [], heading);
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

/** Liquid's `{% raw %}…{% endraw %}`: what it holds is shown as written. */
const RAW = /\{%-?\s*raw\s*-?%\}([\s\S]*?)(?:\{%-?\s*endraw\s*-?%\}|$)/g;

/**
 * Text without its template tags, but for what Liquid's `{% raw %}` holds,
 * which is shown as written.
 *
 * @example
 * ```ts
 * import { withoutTemplates } from "./inline_text.ts";
 * withoutTemplates("Hi {{ name }}, {% raw %}{{ kept }}{% endraw %}"); // "Hi , {{ kept }}"
 * ```
 */
export function withoutTemplates(text: string): string {
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
 * (`[^1]: …`), attribute lists (`{: .btn }`, `{ .md-button }`, `{ #id }`,
 * `{: #id .class key=value }`, `{ data-x=y }`, `{ data-search-exclude }`) and include markers
 * (`{!path!}`). A label holds no `[` (else a run of `[^` were quadratic to
 * search), an attribute list no brace.
 */
const EXTENSION_MARKER =
  /^\[\^[^[\]\s]+\]:\s*|\[\^[^[\]\s]+\]|\{:?[ \t]*(?:[#.][\w-][^{}\s]*|[\w-]+=(?:"[^"{}]*"|'[^'{}]*'|[^\s{}"']+)|[a-z]+-[\w-]+)(?:[ \t]+(?:[#.][\w-][^{}\s]*|[\w-]+=(?:"[^"{}]*"|'[^'{}]*'|[^\s{}"']+)|[a-z]+-[\w-]+))*[ \t]*\}|\{![^{}!\n]+!\}/g;

/**
 * The same, but for an attribute list with an id that ends the text: a
 * heading's anchor, which the heading's reading takes.
 */
const HEADING_MARKER =
  /^\[\^[^[\]\s]+\]:\s*|\[\^[^[\]\s]+\]|\{:?[ \t]*\.[\w-][^{}\n]*\}|\{![^{}!\n]+!\}/g;

/** Prose without the markers of {@link EXTENSION_MARKER} (of {@link HEADING_MARKER} in a heading). */
function withoutMarkers(text: string, heading: boolean): string {
  if (!text.includes("[^") && !text.includes("{")) return text;
  return text.replace(heading ? HEADING_MARKER : EXTENSION_MARKER, "");
}
