// JSX tags in a line of MDX (SPEC 16.4): found and taken out whatever their
// attributes hold (`{…}` expressions with nested braces, strings holding `>`
// or `}`, tags over several lines), so that a component is markup and never
// text. One scan per character: a tag's state carries from line to line.

/** Where a tag's scan stands between two lines (a tag may span lines). */
export interface TagState {
  /** Depth of `{…}` expressions open. */
  depth: number;
  /** The quote of the string open (`"`, `'`, or a backtick inside an expression), or "". */
  quote: string;
  /** Whether a `/* … *\/` comment is open inside an expression. */
  comment: boolean;
  /**
   * Whether the tag has what no HTML parser reads as an attribute: an
   * expression `{…}` (JSX), a Vue `@event` or `#slot` (a lowercase tag is
   * markup to take out only then).
   */
  braces: boolean;
  /** Whether the tag is `/>`-closed, or a closing tag (`</X>`): neither opens an element. */
  selfClosing: boolean;
  /** Whether the tag is a closing tag (`</X>`). */
  closing: boolean;
  /** The tag's name ("" for a fragment `<>`). */
  name: string;
}

/** A tag's start: `<`, an optional `/`, a name (or none: a fragment), then what may follow a name. */
const TAG_START = /<(\/?)([A-Za-z][\w.:-]*)?(?=[\s>/{]|$)/y;

/**
 * Whether a tag that starts at `at` is a JSX component (a capitalized or
 * dotted name, or a fragment `<>`), and so markup wherever it is; a lowercase
 * HTML tag is JSX only when an attribute holds an expression.
 */
function isComponentName(name: string): boolean {
  if (name === "") return true;
  const first = name.charCodeAt(0);
  return (first >= 65 && first <= 90) || name.includes(".");
}

/**
 * Starts a tag at `at` (a `<`): its state, or `undefined` when no tag starts
 * there (`a < b`, `<3`, `<!--`).
 *
 * @example
 * ```ts
 * import { startTag } from "./jsx.ts";
 * startTag('<TabItem label="x">', 0)?.state.name; // "TabItem"
 * startTag("a < b", 2); // undefined
 * ```
 */
export function startTag(line: string, at: number): { state: TagState; from: number } | undefined {
  TAG_START.lastIndex = at;
  const start = TAG_START.exec(line);
  if (!start) return undefined;
  const name = start[2] ?? "";
  // A fragment is `<>` or `</>` exactly.
  if (name === "" && line[at + start[0].length] !== ">") return undefined;
  return {
    state: {
      depth: 0,
      quote: "",
      comment: false,
      braces: false,
      selfClosing: start[1] === "/",
      closing: start[1] === "/",
      name,
    },
    from: at + start[0].length,
  };
}

/**
 * Scans a tag's rest from `from`: the index just past its closing `>`, or
 * -1 when the line ends first (`state` then holds where the scan stands,
 * for the next line). Strings (`"…"`, `'…'`) and expressions (`{…}`, with
 * their own strings, template literals and comments) may hold `>` and `}`.
 *
 * @example
 * ```ts
 * import { scanTag, startTag } from "./jsx.ts";
 * const line = '<Card icon={{ a: ">" }} title="}">Body';
 * const { state, from } = startTag(line, 0)!;
 * line.slice(scanTag(line, from, state)); // "Body"
 * ```
 */
export function scanTag(line: string, from: number, state: TagState): number {
  for (let i = from; i < line.length; i++) {
    const char = line[i];
    if (state.comment) {
      if (char === "*" && line[i + 1] === "/") {
        state.comment = false;
        i++;
      }
      continue;
    }
    if (state.quote !== "") {
      if (char === "\\" && state.depth > 0) i++; // an escape, inside an expression's string
      else if (char === state.quote) state.quote = "";
      continue;
    }
    if (state.depth > 0) {
      if (char === "{") state.depth++;
      else if (char === "}") state.depth--;
      else if (char === '"' || char === "'" || char === "`") state.quote = char;
      else if (char === "/" && line[i + 1] === "*") {
        state.comment = true;
        i++;
      } else if (char === "/" && line[i + 1] === "/") return -1; // a line comment: to the line's end
      continue;
    }
    if (char === "{") {
      state.depth = 1;
      state.braces = true;
    } else if ((char === "@" || char === "#") && /\s/.test(line[i - 1] ?? "")) state.braces = true;
    else if (char === '"' || char === "'") state.quote = char;
    else if (char === ">") return i + 1;
    else if (char === "/" && line[i + 1] === ">") {
      state.selfClosing = true;
      return i + 2;
    }
  }
  return -1;
}

/**
 * Whether a started tag is markup to take out: a component or fragment, or
 * any tag whose attributes hold an expression (which no HTML parser reads
 * as a tag).
 *
 * @example
 * ```ts
 * import { isJsxTag, scanTag, startTag } from "./jsx.ts";
 * const line = "<div style={{ a: 1 }}>";
 * const { state, from } = startTag(line, 0)!;
 * scanTag(line, from, state);
 * isJsxTag(state); // true
 * ```
 */
export function isJsxTag(state: TagState): boolean {
  return state.braces || isComponentName(state.name);
}

/**
 * Whether a line may hold a JSX tag to take out: a `<` before a capital
 * letter, a `>` or a `/`, a tag with a Vue `@event` or `#slot`, or a `<`
 * on a line with a `{`.
 *
 * @example
 * ```ts
 * import { mayHoldJsx } from "./jsx.ts";
 * mayHoldJsx("<Tabs>"); // true
 * mayHoldJsx("a <b>bold</b> word"); // false
 * ```
 */
export function mayHoldJsx(line: string): boolean {
  const at = line.indexOf("<");
  if (at === -1) return false;
  return line.includes("{") || JSX_HINT.test(line);
}
const JSX_HINT = /<\/?(?:[A-Z]|>)|<[a-z][\w-]*\.[a-z]|<[a-z][^<>\s]*\s(?:[^<>]*\s)?[#@]/;
