// The preparation of a body before the parser reads it (SPEC 13, 16.4): what
// is not Markdown but that the parser would take for paragraphs or code
// (MDX statements, comments and JSX tags, admonition and block markers,
// alerts, snippets and include markers, tables of contents, attribute
// lists, Liquid comments, scripts and styles, template code blocks and
// template tags in link destinations) taken out line by line, every line
// keeping its number; and the content of MkDocs admonitions and of JSX
// components moved left, so that its indentation makes no code block (MDX
// has none).
import { isJsxTag, mayHoldJsx, scanTag, startTag, type TagState } from "./jsx.ts";
import {
  ALERT,
  ALERT_WITH_ARGUMENTS,
  ATTRIBUTE_LINE,
  HIDDEN_END,
  HIDDEN_START,
  INCLUDE_LINE,
  indentOf,
  MKDOCS_BLOCK,
  PYMDOWNX_CLOSE,
  PYMDOWNX_OPEN,
  PYMDOWNX_OPTION,
  SNIPPET,
  SNIPPET_FENCE,
} from "./markers.ts";
import { codeSpans, replaceSpans, withoutTemplateTags } from "./spans.ts";

/** An ES module line of MDX: `import … from "…"`, `import "…"`, `export const …`. */
const ESM =
  /^(?:import\s+(?:["'][^"']*["']|[\w*{][^\n]*\bfrom\s*["'][^"']*["'])|export\s+(?:const|let|var|function|async|class|default|\{|\*))/;
/**
 * A fenced code block's opening line, at any indentation (inside a list or
 * a component): a backtick fence's info string holds no backtick.
 */
const FENCE = /^[ \t]*(?:(`{3,})(?!.*`)|(~{3,}))/;
/** A fence's closing line: the fence's character, at least as many, nothing after. */
const FENCE_CLOSE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
/** An admonition fence: `:::note Title`, `:::`, `::: tip`. */
const ADMONITION = /^[ \t]*:::/;
/** A JSX fragment's tag alone on its line. */
const FRAGMENT_LINE = /^[ \t]*<\/?>[ \t]*$/;
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
 * A line that only places a table of contents: `[[toc]]` (VitePress),
 * `[TOC]` (MkDocs).
 */
const TOC_LINE = /^ {0,3}(?:\[\[toc\]\]|\[toc\])\s*$/i;
/** A kramdown extension or attribute list on a line of its own (`{::options … /}`, `{: … }`). */
const KRAMDOWN_LINE = /^[ \t]*\{:[^}]*\}[ \t]*$/;
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
 * Whether a body may hold any of the above: one pattern of the markers
 * that may stand anywhere (braces for MDX comments and expressions,
 * attribute lists, include markers and template tags; `:::`, alerts' `[!`,
 * tables of contents, `!!!`, `???`, `===`, `<<<`, `///`, `--8<--`), JSX
 * components, scripts and styles where the body has a `<`, and MDX
 * statements at a line's start, found by a scan of the lines' first
 * characters (a multi-line pattern measured twice its time at start-up).
 *
 * @example
 * ```ts
 * import { mayPrepare } from "./prepare.ts";
 * mayPrepare("Plain words."); // false
 * mayPrepare(":::note\nHi\n:::"); // true
 * ```
 */
export function mayPrepare(body: string): boolean {
  return MARKERS.test(body) || (body.includes("<") && TAGS.test(body)) || hasEsmLine(body);
}
const MARKERS = /\{|:::|\[!|\[[tT][oO][cC]\]|!!!|\?\?\?|===|<<<|\/\/\/|8<-/;
const TAGS = /<(?:\/?[A-Z]|\/?>|script|style|SCRIPT|STYLE)/;

/** Whether a line of the body starts with `import` or `export`. */
function hasEsmLine(body: string): boolean {
  for (let at = 0; at < body.length;) {
    const first = body.charCodeAt(at);
    if (
      (first === 105 && body.startsWith("import", at)) ||
      (first === 101 && body.startsWith("export", at))
    ) return true;
    const end = body.indexOf("\n", at);
    if (end === -1) return false;
    at = end + 1;
  }
  return false;
}

/**
 * What the preparation follows across blank lines: MDX and Liquid comments,
 * template code blocks, scripts and styles, snippet blocks.
 */
const SPANS_PREPARED = /\{\/\*|\{%-?\s*comment|highlight/;
/** A script or a style (its own pattern: one more first character measured the above slower). */
const SCRIPT_OR_STYLE = /<(?:script|style|SCRIPT|STYLE)/;

/**
 * Whether a body may hold what the preparation follows across blank lines
 * (MDX and Liquid comments, template code blocks, scripts and styles,
 * snippet blocks), and so across a chunk of plain paragraphs: such a body
 * is read whole.
 *
 * @example
 * ```ts
 * import { spansBlankLines } from "./prepare.ts";
 * spansBlankLines("{/* a comment\n\nstill one *\/}"); // true
 * ```
 */
export function spansBlankLines(body: string): boolean {
  return SPANS_PREPARED.test(body) || body.includes("8<-") ||
    ((body.includes("<s") || body.includes("<S")) && SCRIPT_OR_STYLE.test(body));
}

/**
 * The body without what is not Markdown and that the parser would take for
 * paragraphs or code, outside fenced code, line by line (each line taken
 * out is left empty, so every line keeps its number): MDX `import`/`export`
 * statements (each to the first blank line after it), MDX comments
 * (`{/* … *\/}`) and JSX tags (whatever their attributes hold, over several
 * lines); admonition and block markers (`:::`, MkDocs' `!!!`, `???` and
 * `===` lines, pymdownx `///` lines and their options); GitHub and DocFX
 * alert markers (`> [!NOTE]`); snippet lines (`--8<--`) and include markers
 * (`{* … *}`, `{!…!}`); scripts and styles; tables of contents and
 * attribute-list lines; and template tags at the start of a link's
 * destination, so the link still reads as a link. The content of an MkDocs
 * admonition and of a JSX component is moved left by the indentation they
 * add, so that it makes no indented code block.
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
   * template code block, MDX or Liquid comment, MDX statement, script or
   * style, JSX tag or component, or snippet block.
   */
  atBlockStart(): boolean;
}

/**
 * What moves the lines inside it left: an MkDocs admonition (its content is
 * indented 4 more than its marker, and a line indented less ends it) or a
 * JSX component (its content is indented as its first line is; its closing
 * tag ends it).
 */
interface Container {
  /** An MkDocs admonition or content tab (else a JSX component). */
  readonly mkdocs: boolean;
  /** The component's name (`""` for a fragment, or an MkDocs block). */
  readonly name: string;
  /** Where the marker or tag stands: where the content is moved to. */
  readonly base: number;
  /** The content's indentation (-1 until a JSX component's first line inside tells it). */
  inner: number;
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
  let templateCode: RegExp | undefined;
  let inLiquidComment = false;
  /** The end tag of the script or style open. */
  let hidden: RegExp | undefined;
  /** A JSX tag that started at the start of a line and runs on, and its line's indentation. */
  let tag: { state: TagState; base: number } | undefined;
  let inSnippets = false;
  /** The closer of a Hugo shortcode that started a line and runs on (`>}}` or `%}}`). */
  let shortcode: string | undefined;
  /** Whether the line before opened a pymdownx block (its option lines follow). */
  let blockOptions = false;
  const containers: Container[] = [];

  /** The line moved left by the containers open (and those it ends closed). */
  const dedent = (line: string): string => {
    const [indent, start] = indentOf(line);
    if (start === line.length) return line; // blank: it ends nothing
    let moved = indent;
    for (let k = 0; k < containers.length; k++) {
      const container = containers[k];
      if (container.inner === -1) container.inner = Math.max(moved, container.base);
      if (moved >= container.inner) moved = container.base + (moved - container.inner);
      else if (container.mkdocs) {
        containers.length = k; // a line indented less ends the admonition, and what it holds
        break;
      } else moved = Math.min(moved, container.base);
    }
    return moved === indent ? line : " ".repeat(moved) + line.slice(start);
  };

  /** What a JSX tag does to the containers: an opening tag opens one, a closing tag closes its own. */
  const tagDone = (state: TagState, base: number) => {
    if (state.closing) {
      for (let k = containers.length - 1; k >= 0; k--) {
        if (!containers[k].mkdocs && containers[k].name === state.name) {
          containers.length = k;
          break;
        }
      }
    } else if (!state.selfClosing) {
      containers.push({ mkdocs: false, name: state.name, base, inner: -1 });
    }
  };

  /**
   * The line without its JSX tags (not in code spans); a tag that starts the
   * line and runs on to the next line opens `tag`.
   */
  const withoutJsx = (line: string): string => {
    const spans = line.includes("`") ? codeSpans(line) : undefined;
    const base = indentOf(line)[0];
    let kept = "";
    let at = 0;
    let span = 0;
    for (let i = line.indexOf("<"); i !== -1; i = line.indexOf("<", i + 1)) {
      if (spans) {
        while (span < spans.length && spans[span + 1] <= i) span += 2;
        if (span < spans.length && spans[span] <= i) {
          i = spans[span + 1] - 1;
          continue;
        }
      }
      const started = startTag(line, i);
      // A fragment (`<>`, `</>`) is markup on a line of its own; in prose it is text.
      if (!started || (started.state.name === "" && !FRAGMENT_LINE.test(line))) continue;
      const end = scanTag(line, started.from, started.state);
      if (end === -1) {
        // A component's tag over several lines, when it starts the line.
        if (isJsxTag(started.state) && line.slice(at, i).trim() === "") {
          tag = { state: started.state, base };
          kept += line.slice(at, i);
          at = line.length;
        }
        break;
      }
      if (isJsxTag(started.state)) {
        kept += line.slice(at, i);
        at = end;
        tagDone(started.state, base);
      }
      i = end - 1;
    }
    if (at === 0) return line;
    kept += line.slice(at);
    return kept.trim() === "" ? "" : kept;
  };

  /** Prepares a line that is no fence's, no comment's and no tag's. */
  const prepared = (line: string): string | undefined => {
    const opens = FENCE.exec(line);
    if (opens) {
      fence = opens[1] ?? opens[2];
      return line;
    }
    if (ESM.test(line)) {
      inEsm = true;
      return "";
    }
    const [indent, start] = indentOf(line);
    switch (line.charCodeAt(start)) {
      case 33: // "!": an MkDocs admonition
      case 63: // "?"
      case 61: // "=": an MkDocs content tab
        if (MKDOCS_BLOCK.test(line)) {
          containers.push({ mkdocs: true, name: "", base: indent, inner: indent + 4 });
          return "";
        }
        break;
      case 47: // "/": a pymdownx block
        if (PYMDOWNX_CLOSE.test(line)) return "";
        if (PYMDOWNX_OPEN.test(line)) {
          blockOptions = true;
          return "";
        }
        break;
      case 45: // "-" or ";": a snippet
      case 59:
        if (SNIPPET_FENCE.test(line)) {
          inSnippets = true;
          return "";
        }
        if (SNIPPET.test(line)) return "";
        break;
      case 123: // "{": an include marker, an attribute list, a shortcode over lines
        if (INCLUDE_LINE.test(line)) return "";
        if (line[start + 1] === "{" && (line[start + 2] === "<" || line[start + 2] === "%")) {
          const closer = line[start + 2] === "<" ? ">}}" : "%}}";
          if (!line.includes(closer, start + 3)) {
            // Its closing `>}}` on a line of its own would read as a quote.
            shortcode = closer;
            return "";
          }
        }
        if (ATTRIBUTE_LINE.test(line) || KRAMDOWN_LINE.test(line)) {
          if (/^\s*\{:toc\}/i.test(line) && TOC_ITEM.test(out.at(-1) ?? "")) {
            out[out.length - 1] = "";
          }
          return "";
        }
        break;
      case 62: // ">": an alert's marker
        if (line.includes("[!")) {
          if (ALERT_WITH_ARGUMENTS.test(line)) return /^[ \t]*>/.test(line) ? ">" : "";
          line = line.replace(ALERT, "$1");
        }
        break;
      case 91: // "[": a table of contents, DocFX's include
        if (TOC_LINE.test(line) || ALERT_WITH_ARGUMENTS.test(line)) return "";
        break;
      case 58: // ":": an admonition fence
        if (ADMONITION.test(line)) return "";
        break;
      case 60: { // "<": a script or a style, a snippet import
        const hides = HIDDEN_START.exec(line);
        if (hides) {
          const end = HIDDEN_END[hides[1].toLowerCase()];
          const close = end.exec(line);
          if (!close) {
            hidden = end;
            return "";
          }
          line = line.slice(close.index + close[0].length);
          if (line.trim() === "") return "";
        }
        if (SNIPPET_IMPORT.test(line)) return "";
        break;
      }
    }
    if (mayHoldJsx(line)) line = withoutJsx(line);
    if (line.includes("`") && (line.includes("{%") || line.includes("{{"))) {
      // A template tag holding a backtick would start a code span: out before the parse.
      line = withoutTemplateTags(line, (tag) => tag.includes("`"));
    }
    return line.includes("](") ? withoutTemplateDestinations(line) : line;
  };

  return {
    out,
    atBlockStart: () =>
      fence === undefined && templateCode === undefined && !inComment && !inLiquidComment &&
      !inEsm && hidden === undefined && tag === undefined && !inSnippets &&
      shortcode === undefined &&
      !containers.some((container) => !container.mkdocs),
    push(written) {
      let line = containers.length > 0 ? dedent(written) : written;
      if (fence !== undefined) {
        out.push(line);
        const closes = FENCE_CLOSE.exec(line);
        if (closes && closes[1][0] === fence[0] && closes[1].length >= fence.length) {
          fence = undefined;
        }
        return;
      }
      if (hidden !== undefined) {
        const close = hidden.exec(line);
        if (!close) {
          out.push("");
          return;
        }
        hidden = undefined;
        line = line.slice(close.index + close[0].length);
        if (line.trim() === "") {
          out.push("");
          return;
        }
      }
      if (tag !== undefined) {
        // A blank line ends a tag that never closed: what came before it is gone.
        const end = line.trim() === "" ? line.length : scanTag(line, 0, tag.state);
        if (end === -1) {
          out.push("");
          return;
        }
        if (end < line.length || line.trim() !== "") tagDone(tag.state, tag.base);
        tag = undefined;
        line = line.slice(end);
        if (line.trim() === "") {
          out.push("");
          return;
        }
      }
      if (shortcode !== undefined) {
        // Its arguments: to its closer (a blank line ends a shortcode that never closed).
        const close = line.indexOf(shortcode);
        if (close === -1 && line.trim() !== "") {
          out.push("");
          return;
        }
        line = close === -1 ? "" : line.slice(close + shortcode.length);
        shortcode = undefined;
        if (line.trim() === "") {
          out.push("");
          return;
        }
      }
      if (inSnippets) {
        if (SNIPPET_FENCE.test(line)) inSnippets = false;
        out.push("");
        return;
      }
      if (blockOptions) {
        blockOptions = false;
        if (PYMDOWNX_OPTION.test(line)) {
          blockOptions = true;
          out.push("");
          return;
        }
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
      out.push(prepared(line) ?? "");
    },
  };
}
