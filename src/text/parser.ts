// The one place that calls markdown-it (SPEC 13): its setup, the block parse
// and the inline parse, each counted in `textWork`.
import MarkdownIt from "markdown-it";
import { textWork } from "../util/work_counts.ts";

// html: JSX and HTML blocks are recognized as blocks (their text is kept,
// their tags dropped); linkify and typographer off: text stays as written.
const markdown = new MarkdownIt("default", { html: true, linkify: false, typographer: false });

/** The same parser without the inline pass: the blocks, their inline text unparsed. */
const blockParser = new MarkdownIt("default", { html: true, linkify: false, typographer: false });
// normalize too: `normalized` below does it only where a body has a CR or a
// NUL (it was a regular-expression pass over every body).
blockParser.core.ruler.disable(["normalize", "inline", "text_join"]);

/**
 * A token of markdown-it's parse (a block token, or an inline one among its
 * children), as the walk reads it. Declared here, not taken from
 * markdown-it's own types: the package's declarations then name no module
 * that a project installing it lacks (`@types/markdown-it` is a
 * development dependency).
 */
export interface InlineToken {
  /** `paragraph_open`, `heading_open`, `inline`, `text`, `fence`… */
  type: string;
  /** The HTML tag (`h2`, `p`, `code`…). */
  tag: string;
  /** The token's text, or source for a block. */
  content: string;
  /** An inline token's children. */
  children: InlineToken[] | null;
  /** Its source lines, `[begin, end)`, for a block token. */
  map: [number, number] | null;
  /** 1 opening, -1 closing, 0 self-contained. */
  nesting: number;
  /** Its nesting level. */
  level: number;
  /** A token the renderer would not show (tight list paragraphs). */
  hidden: boolean;
}
/** What a parse collects besides its tokens: the link reference definitions. */
export type MarkdownEnv = Record<string, unknown>;

/**
 * Parses prepared source into tokens, its link reference definitions into
 * `env`: the blocks alone (their inline text unparsed), or everything when
 * `eager`.
 *
 * @example
 * ```ts
 * import { parseSource } from "./parser.ts";
 * parseSource("# Hi\n\nSome *text*.", false, {}).map((t) => t.type)[0]; // "heading_open"
 * ```
 */
export function parseSource(source: string, eager: boolean, env: MarkdownEnv): InlineToken[] {
  const tokens: InlineToken[] = eager
    ? markdown.parse(source, env)
    : blockParser.parse(normalized(source), env);
  textWork.parses++;
  textWork.parsedChars += source.length;
  textWork.tokens += tokens.length;
  return tokens;
}

/**
 * Parses inline text into `children` (emphasis, links, code, HTML…), with
 * the link references of `env`.
 *
 * @example
 * ```ts
 * import { type InlineToken, parseInline } from "./parser.ts";
 * const children: InlineToken[] = [];
 * parseInline("a *b*", {}, children);
 * children.map((t) => t.type); // ["text", "em_open", "text", "em_close"]
 * ```
 */
export function parseInline(content: string, env: MarkdownEnv, children: InlineToken[]): void {
  markdown.inline.parse(
    content,
    markdown,
    env,
    children as Parameters<typeof markdown.inline.parse>[3],
  );
  textWork.inlineChars += content.length;
}

/**
 * Text with its backslash escapes and entities decoded, as markdown-it's
 * `unescapeAll` does.
 *
 * @example
 * ```ts
 * import { unescapeAll } from "./parser.ts";
 * unescapeAll("Tom &amp; Jerry"); // "Tom & Jerry"
 * ```
 */
export function unescapeAll(text: string): string {
  return markdown.utils.unescapeAll(text);
}

/** What markdown-it's normalize rule makes of a source: line breaks as LF, NUL as U+FFFD. */
function normalized(source: string): string {
  if (!source.includes("\r") && !source.includes("\0")) return source;
  return source.replace(/\r\n?/g, "\n").replace(/\0/g, "\uFFFD");
}
