import { CORE_SCHEMA, load, mergeTag } from "js-yaml";
import { parse as parseToml, TomlError } from "smol-toml";
import { yamlPackage } from "../util/yaml_package.ts";
import { parseSimpleYaml } from "./simple_yaml.ts";

/** What {@link extract} returns: the parsed front matter, the body and the raw block. */
export interface Extract<T = Record<string, unknown>> {
  /** The front matter as a map (empty when the file has none). */
  attrs: T;
  /** Everything after the closing `---` line, untrimmed. */
  body: string;
  /** The raw YAML between the two `---` lines ("" when absent). */
  frontMatter: string;
}

/** Thrown by {@link extract} when the front matter is not valid YAML or not a map. */
export class FrontMatterError extends Error {
  /** 1-based line of the file where the problem is, when known. */
  readonly line: number | undefined;
  constructor(message: string, line?: number) {
    super(message);
    this.name = "FrontMatterError";
    this.line = line;
  }
}

/** Nodes a front matter may expand to through its aliases (SPEC 4). */
export const MAX_NODES = 10_000;

/** Whether a value, walked as a tree (each alias expanded), has more than `limit` nodes. */
function exceedsNodes(value: unknown, limit: number): boolean {
  let nodes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (++nodes > limit) return true;
    if (typeof v === "object" && v !== null) {
      for (const child of Object.values(v)) stack.push(child);
    }
  }
  return false;
}

/**
 * The schema front matter is read with: YAML's core schema (dates stay
 * text, for our own date rule) and merge keys (`<<: *base`), which js-yaml
 * 3, the parser of gray-matter and so of Docusaurus, Eleventy, Astro and
 * VitePress, reads.
 */
const SCHEMA = CORE_SCHEMA.withTags(mergeTag);

/**
 * The block parsed by `yaml` (YAML 1.2, core schema, so dates stay text),
 * or the js-yaml error as a {@link FrontMatterError} with its line when
 * `yaml` rejects it too. What js-yaml 3 reads and both reject is read as
 * js-yaml 3 reads it (SPEC 16.4): a tab in a line's indentation is no
 * indentation (`yaml`'s recovery from that error gives js-yaml 3's value),
 * a line of spaces and tabs is blank, and a flow collection may go on at
 * the left margin on its next lines.
 */
function parseLenient(frontMatter: string, jsYamlError: unknown): unknown {
  // Loaded here, the first time js-yaml rejects a block: most sites never need it.
  const { parseDocument } = yamlPackage();
  let doc = parseDocument(frontMatter, { schema: "core", merge: true });
  if (!doc.errors.every((e) => e.code === "TAB_AS_INDENT")) {
    // js-yaml 3 reads a line of spaces and tabs as a blank line.
    const normalized = withFlowIndented(frontMatter.replace(/^[ \t]*\t[ \t]*$/gm, ""));
    if (normalized !== frontMatter) {
      const again = parseDocument(normalized, { schema: "core", merge: true });
      if (again.errors.every((e) => e.code === "TAB_AS_INDENT")) doc = again;
    }
  }
  if (doc.errors.every((e) => e.code === "TAB_AS_INDENT")) {
    try {
      return doc.toJS({ maxAliasCount: MAX_NODES });
    } catch (error) {
      const message = (error as Error).message.split("\n")[0];
      throw new FrontMatterError(
        /alias/i.test(message) && !/unresolved|undefined/i.test(message)
          ? `invalid YAML in front matter: aliases expand past ${
            MAX_NODES.toLocaleString("en")
          } nodes`
          : `invalid YAML in front matter: ${message}`,
        2,
      );
    }
  }
  const mark = (jsYamlError as { mark?: { line?: number } }).mark;
  const reason = (jsYamlError as { reason?: string }).reason ?? String(jsYamlError);
  // +2: the mark is 0-based within the block, which starts on line 2.
  const line = typeof mark?.line === "number" ? mark.line + 2 : undefined;
  throw new FrontMatterError(`invalid YAML in front matter: ${reason}`, line);
}

/**
 * The block with the lines that go on a flow collection (`tags: [a,` then
 * `b]`) indented past the line that opened it, as js-yaml 3 reads them. A
 * quote or a comment inside the collection is followed; the scan is linear.
 */
function withFlowIndented(frontMatter: string): string {
  const lines = frontMatter.split("\n");
  let depth = 0;
  let quote = "";
  let openedAt = 0;
  let changed = false;
  for (let l = 0; l < lines.length; l++) {
    let line = lines[l];
    if (depth > 0) {
      const indent = /^[ \t]*/.exec(line)![0].length;
      if (indent <= openedAt && line.trim() !== "") {
        line = " ".repeat(openedAt + 1 - indent) + line;
        lines[l] = line;
        changed = true;
      }
    } else openedAt = /^ */.exec(line)![0].length;
    for (let i = 0; i < line.length; i++) {
      const char = line[i];
      if (quote !== "") {
        if (char === quote) quote = "";
        else if (char === "\\" && quote === '"') i++;
      } else if (char === '"' || char === "'") {
        // A quote opens a string only where a scalar starts.
        if (depth > 0 || /[\s:,[{]/.test(line[i - 1] ?? " ")) quote = char;
      } else if (char === "#" && /\s/.test(line[i - 1] ?? " ")) break;
      else if (char === "[" || char === "{") depth++;
      else if ((char === "]" || char === "}") && depth > 0) depth--;
    }
  }
  return changed ? lines.join("\n") : frontMatter;
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*$/m;
const OPEN_TOML = /^\uFEFF?\+\+\+[ \t]*\r?\n/;
const CLOSE_TOML = /^\+\+\+[ \t]*$/m;

/**
 * A TOML value as front matter holds it: dates as the text TOML wrote
 * (`2024-01-02`, `2024-01-02T10:00:00.000+02:00`), which SPEC 4's date rule
 * reads; tables as plain objects.
 */
function fromToml(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(fromToml);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = fromToml(item);
    return out;
  }
  return value;
}

/**
 * Hugo's TOML front matter (`+++` fences), through smol-toml: many Hugo
 * sites write every page this way, and reading it as body would publish
 * the TOML and lose `draft = true`.
 */
function extractToml<T>(text: string, open: RegExpExecArray): Extract<T> {
  const rest = text.slice(open[0].length);
  const close = CLOSE_TOML.exec(rest);
  if (!close) throw new FrontMatterError("front matter has no closing '+++' line", 1);
  const frontMatter = rest.slice(0, close.index).replace(/\r?\n$/, "");
  const body = rest.slice(close.index + close[0].length).replace(/^\r?\n/, "");
  try {
    return { attrs: fromToml(parseToml(frontMatter)) as T, body, frontMatter };
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = error.message.split("\n")[0].replace(/^Invalid TOML document: /, "");
    // +1: the block starts on the file's second line.
    throw new FrontMatterError(`invalid TOML in front matter: ${reason}`, error.line + 1);
  }
}

/** Lines a JSON front matter may run to before its closing `}` line is no longer looked for. */
const MAX_JSON_LINES = 500;

/**
 * Hugo's JSON front matter: an object from the first character to the end
 * of a line that closes it (ending with `}`). `undefined` when no such prefix
 * parses as an object: then the file has no front matter (an MDX body may
 * begin with `{`).
 */
function extractJson<T>(text: string): Extract<T> | undefined {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let at = start;
  for (let line = 0; line < MAX_JSON_LINES; line++) {
    const end = text.indexOf("\n", at);
    const lineEnd = end === -1 ? text.length : end;
    const close = text.slice(at, lineEnd).trimEnd();
    if (close.endsWith("}")) { // a line that may close the object
      const frontMatter = text.slice(start, at + close.length);
      try {
        const value = JSON.parse(frontMatter);
        if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
        const body = text.slice(lineEnd + 1);
        return { attrs: value as T, body, frontMatter };
      } catch {
        // not closed here yet
      }
    }
    if (end === -1) return undefined;
    at = end + 1;
  }
  return undefined;
}

/**
 * Splits a document into YAML front matter and body, shaped like
 * `@std/front-matter`'s `extract()` so the std module can replace it with a
 * one-line change. A UTF-8 BOM and CRLF line endings are accepted, and so
 * are Hugo's TOML front matter between `+++` lines and its JSON front matter
 * (an object that opens the file). A document
 * without an opening `---` line has empty `attrs` and is all body; an opening
 * line without a closing one is an error (the body would otherwise swallow
 * the YAML).
 *
 * Blocks of plain `key: value` lines take a fast path (`simple_yaml.ts`),
 * which gives what js-yaml gives. The rest goes through js-yaml's core schema: it parses front
 * matter several times faster than `yaml` (`bench/front_matter_parsers.ts`), and the core schema
 * keeps dates as strings so that impossible dates are caught by our own
 * parser instead of silently rolling over.
 *
 * @example
 * ```ts
 * import { extract } from "./front_matter.ts";
 * const { attrs, body } = extract("---\ntitle: Hi\n---\nHello");
 * // attrs = { title: "Hi" }, body = "Hello"
 * ```
 */
export function extract<T = Record<string, unknown>>(text: string): Extract<T> {
  const open = OPEN.exec(text);
  if (!open) {
    const toml = OPEN_TOML.exec(text);
    if (toml) return extractToml(text, toml);
    const json = text.charCodeAt(text.charCodeAt(0) === 0xfeff ? 1 : 0) === 123 // "{"
      ? extractJson<T>(text)
      : undefined;
    if (json) return json;
    return { attrs: {} as T, body: text.replace(/^\uFEFF/, ""), frontMatter: "" };
  }
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  // An empty block ("---\n---") closes on the very first line of `rest`.
  if (!close) throw new FrontMatterError("front matter has no closing '---' line", 1);
  const frontMatter = rest.slice(0, close.index).replace(/\r?\n$/, "");
  let body = rest.slice(close.index + close[0].length);
  body = body.replace(/^\r?\n/, "");
  let attrs: unknown = {};
  // js-yaml 5 rejects an empty document; a blank or comment-only block is an empty map.
  if (frontMatter.replace(/^[ \t]*#.*$/gm, "").trim() === "") {
    return { attrs: attrs as T, body, frontMatter };
  }
  const simple = parseSimpleYaml(frontMatter);
  if (simple) return { attrs: simple as T, body, frontMatter };
  try {
    attrs = load(frontMatter, { schema: SCHEMA });
  } catch (error) {
    // js-yaml is stricter than YAML 1.2 in places: a block it rejects is
    // parsed again with `yaml`, and only a block both reject leaves the item
    // out (SPEC 4).
    attrs = parseLenient(frontMatter, error);
  }
  // js-yaml resolves an alias to the very object its anchor made, so the
  // parse is cheap; what costs is everything that walks the value as a tree
  // (a warning quoting it, a snapshot writing it). A block whose aliases
  // expand past the bound is refused here, before anything walks it.
  if (frontMatter.includes("*") && exceedsNodes(attrs, MAX_NODES)) {
    throw new FrontMatterError(
      `invalid YAML in front matter: aliases expand past ${MAX_NODES.toLocaleString("en")} nodes`,
      2,
    );
  }
  if (attrs === null || attrs === undefined) attrs = {};
  if (typeof attrs !== "object" || Array.isArray(attrs)) {
    throw new FrontMatterError("front matter must be a YAML map of keys to values", 2);
  }
  return { attrs: attrs as T, body, frontMatter };
}
