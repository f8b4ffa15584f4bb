// The preparation of a body before the parser reads it (SPEC 13): what is
// not Markdown but that the parser would take for paragraphs (MDX
// statements and comments, admonition fences, tables of contents,
// attribute lists, Liquid comments, template code blocks and template tags
// in link destinations) taken out line by line, every line keeping its
// number.
import { replaceSpans } from "./spans.ts";

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
 *
 * @example
 * ```ts
 * import { mayPrepare } from "./prepare.ts";
 * mayPrepare("Plain words."); // false
 * mayPrepare(":::note\nHi\n:::"); // true
 * ```
 */
export function mayPrepare(body: string): boolean {
  return body.includes("{") || body.includes(":::") || /\[toc\]/i.test(body) ||
    LINE_STARTS.test(body);
}
const LINE_STARTS = /^(?:import|export|!!!|\?\?\?|===|<<<)/m;

/** What the preparation follows across blank lines: comments and template code blocks. */
const SPANS_PREPARED = /\{\/\*|\{%-?\s*comment|highlight/;

/**
 * Whether a body may hold what the preparation follows across blank lines
 * (MDX and Liquid comments, template code blocks), and so across a chunk of
 * plain paragraphs: such a body is read whole.
 *
 * @example
 * ```ts
 * import { spansBlankLines } from "./prepare.ts";
 * spansBlankLines("{/* a comment\n\nstill one *\/}"); // true
 * ```
 */
export function spansBlankLines(body: string): boolean {
  return SPANS_PREPARED.test(body);
}

/**
 * The body without what is not Markdown and that the parser would take for
 * paragraphs, outside fenced code, line by line (each line taken out is
 * left empty, so every line keeps its number): MDX `import`/`export`
 * statements (each to the first blank line after it), MDX comments
 * (`{/* … *\/}`), admonition fence lines (`:::`; MkDocs' `!!!` lines, their
 * indented content moved out of what would be a code block), tables of
 * contents and attribute-list lines; and template tags at the start of a
 * link's destination, so the link still reads as a link.
 *
 * @example
 * ```ts
 * import { prepareSource } from "./prepare.ts";
 * prepareSource('import X from "./x.js"\n\n:::note\nHi\n:::'); // "\n\n\nHi\n"
 * ```
 */
export function prepareSource(body: string): string {
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
export interface Preparer {
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

/**
 * A new {@link Preparer}, with nothing open.
 *
 * @example
 * ```ts
 * import { createPreparer } from "./prepare.ts";
 * const preparer = createPreparer();
 * preparer.push("~~~js");
 * preparer.atBlockStart(); // false: a fence is open
 * ```
 */
export function createPreparer(): Preparer {
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
