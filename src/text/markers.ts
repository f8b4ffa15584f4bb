// The line markers of generators' Markdown extensions (SPEC 13, 16.4): what
// a line outside fenced code is when it is no text of its own. The
// preparation (`prepare.ts`) takes them out; each is tried only on a line
// that starts with its first character.

/**
 * An MkDocs admonition (`!!! note "Title"`, `??? tip`, `???+ warning`) or
 * content tab (`=== "curl"`, `===+ "x"`): its content is indented under it.
 */
export const MKDOCS_BLOCK = /^[ \t]*(?:(?:!!!|\?\?\?\+?)[ \t]*[\w-]|===[!+]?[ \t]+"[^"]*"[ \t]*$)/;

/**
 * A pymdownx block's opening line: `/// tip`, `/// details | Summary`,
 * `/// admonition | Title` (slashes, a name, an optional `| title`). Its
 * options (indented `key: value` lines) follow it; its content is not
 * indented.
 */
export const PYMDOWNX_OPEN = /^[ \t]*\/{3,}[ \t]*[A-Za-z][\w-]*[ \t]*(?:\|.*)?$/;
/** A pymdownx block's closing line: slashes alone. */
export const PYMDOWNX_CLOSE = /^[ \t]*\/{3,}[ \t]*$/;
/** An option line of a pymdownx block (`    type: warning`), right after its opening line. */
export const PYMDOWNX_OPTION = /^[ \t]+[\w-]+[ \t]*:/;

/**
 * A pymdownx snippet line: `--8<-- "file.md"`, `--8<-- 'a.md:section'`, or
 * escaped `;--8<-- "x"`. On a line alone, `--8<--` opens (and closes) a
 * block of file names.
 */
export const SNIPPET = /^[ \t]*;*-+8<-+(?:[ \t]+\S.*)?[ \t]*$/;
/** The snippet block's fence: `--8<--` alone on its line. */
export const SNIPPET_FENCE = /^[ \t]*-+8<-+[ \t]*$/;

/**
 * An include marker on a line of its own: `{* ../docs_src/x.py hl[4] *}`
 * (FastAPI's docs), `{!docs/inc.md!}` (markdown-include).
 */
export const INCLUDE_LINE = /^[ \t]*(?:\{\*.*\*\}|\{!.*!\})[ \t]*$/;

/**
 * One attribute of an attribute list: `#id`, `.class`, `key=value`, `key="a value"`, or a
 * hyphenated name alone (`data-search-exclude`).
 */
const ATTRIBUTE =
  /(?:[#.][\w-][^{}\s]*|[\w-]+=(?:"[^"{}]*"|'[^'{}]*'|[^\s{}"']+)|[a-z]+-[\w-]+)/.source;
/**
 * An attribute list on a line of its own (Python-Markdown, kramdown):
 * `{ .md-button }`, `{ #id }`, `{: .class }`, `{ data-x=y }`, `{:toc}`.
 */
export const ATTRIBUTE_LINE = new RegExp(
  `^[ \\t]*\\{(?::?[ \\t]*${ATTRIBUTE}(?:[ \\t]+${ATTRIBUTE})*|:[ \\t]*[\\w-]*)[ \\t]*\\}[ \\t]*$`,
);

/**
 * A GitHub or DocFX alert's marker at the start of a quote: `> [!NOTE]`,
 * `> [!IMPORTANT]`, `>[!tip] `: the marker goes, the quote's text stays.
 */
export const ALERT = /^([ \t]*(?:>[ \t]?)+)[ \t]*\[![A-Za-z]+\][ \t]*/;
/**
 * A DocFX marker with arguments that fills its quote's line:
 * `> [!div class="op_single_selector"]`, `> [!Video https://…]`,
 * `> [!INCLUDE [title](file.md)]`; and DocFX's include outside a quote.
 */
export const ALERT_WITH_ARGUMENTS =
  /^[ \t]*(?:(?:>[ \t]?)+[ \t]*\[![A-Za-z]+[ \t]|\[!INCLUDE\b).*\][ \t]*$/;

/** A `<script>` or `<style>` element's start (a Vue or VitePress page's setup, styles). */
export const HIDDEN_START = /^[ \t]*<(script|style)(?=[\s>]|$)/i;
/** Its end tag. */
export const HIDDEN_END: Readonly<Record<string, RegExp>> = {
  script: /<\/script\s*>/i,
  style: /<\/style\s*>/i,
};

/**
 * The visual indentation of a line (a tab to the next multiple of 4) and
 * where its content starts.
 *
 * @example
 * ```ts
 * import { indentOf } from "./markers.ts";
 * indentOf("  \tx"); // [4, 3]
 * ```
 */
export function indentOf(line: string): [number, number] {
  let width = 0;
  let at = 0;
  for (; at < line.length; at++) {
    const code = line.charCodeAt(at);
    if (code === 32) width++;
    else if (code === 9) width += 4 - (width % 4);
    else break;
  }
  return [width, at];
}
