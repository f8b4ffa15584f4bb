// A front-matter title or description as the site shows it (SPEC 16.4):
// its inline Markdown and HTML markup read as text, entities decoded.
import { type InlineToken, parseInline } from "./parser.ts";
import { codeSpans } from "./spans.ts";

/** What may be markup in a field: escapes, code, emphasis, links, tags, entities, odd spaces. */
const MAY_BE_MARKUP = /[\\`*_~[\]<>&\u00a0\t]/;

/**
 * The HTML elements a title or description may be marked up with: a `<`
 * before any other name is text (`Vec<T>`, `Option<String>`).
 */
const INLINE_TAG =
  /^<\/?(?:a|abbr|b|bdi|bdo|big|br|cite|code|data|del|dfn|em|font|i|img|ins|kbd|mark|q|s|samp|small|span|strike|strong|sub|sup|time|tt|u|var|wbr)(?=[\s/>])/i;

/**
 * A front-matter title or description as text (SPEC 16.4): Markdown inline
 * markup (emphasis, code, links, images) and HTML tags of inline elements
 * removed, their text kept; entities decoded; spaces and tabs, no-break
 * spaces included, collapsed to single spaces (line breaks stay). An `_` is a character, never
 * emphasis (`__init__`), and a `<` before no inline element's name is text.
 *
 * @example
 * ```ts
 * import { fieldText } from "./field_text.ts";
 * fieldText("The <code>fetch</code> API"); // "The fetch API"
 * fieldText("Use **bold** [links](/x)&nbsp;now"); // "Use bold links now"
 * fieldText("Vec<T> and __init__"); // "Vec<T> and __init__"
 * ```
 */
export function fieldText(value: string): string {
  if (!MAY_BE_MARKUP.test(value)) return value;
  const children: InlineToken[] = [];
  parseInline(escaped(value), {}, children);
  let text = "";
  for (const child of children) {
    switch (child.type) {
      case "text":
      case "text_special":
      case "code_inline":
        text += child.content;
        break;
      case "image":
        text += child.content; // its alt text
        break;
      case "softbreak":
      case "hardbreak":
        text += "\n";
        break;
      case "html_inline":
        if (/^<br\b/i.test(child.content)) text += " ";
        break;
    }
  }
  return text.replace(/[ \t\u00a0]+/g, " ").replace(/ ?\n ?/g, "\n").trim();
}

/**
 * The value with what must stay a character escaped, outside code spans:
 * every `_`, and every `<` that opens no inline element's tag.
 */
function escaped(value: string): string {
  if (!value.includes("_") && !value.includes("<")) return value;
  const spans = value.includes("`") ? codeSpans(value) : [];
  let out = "";
  let span = 0;
  for (let i = 0; i < value.length; i++) {
    while (span < spans.length && spans[span + 1] <= i) span += 2;
    const char = value[i];
    if (span < spans.length && spans[span] <= i) {
      out += char;
      continue;
    }
    if (char === "_" || (char === "<" && !INLINE_TAG.test(value.slice(i, i + 12)))) out += "\\";
    out += char;
  }
  return out;
}
