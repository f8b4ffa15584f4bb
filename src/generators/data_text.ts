// The text of one data config file (TOML, YAML or JSON, by its extension)
// as a value, or a warning naming the file and the parser's line. YAML tags
// the feed does not know (`!!python/name:…`, `!relative`) are ignored and
// never executed: their node keeps its plain value; `!ENV [NAME, default]`
// is its default, as MkDocs gives it when the variable is unset (the feed
// reads no environment). Aliases are bounded as SPEC 4 has it.
import { parse as parseToml, TomlError } from "smol-toml";
import { isScalar, isSeq, parseDocument, Scalar, visit } from "yaml";
import type { SiteDataWarning } from "./types.ts";

/** Nodes a data file's aliases may expand to (SPEC 4's bound). */
const MAX_ALIAS_NODES = 10_000;

/** A data file's value, or why it has none. */
export type ParsedText =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly warning: SiteDataWarning };

/**
 * Parses a data config file by its extension (`.toml`, `.json`, else YAML;
 * `yaml11`: YAML 1.1, whose `yes`/`no` are booleans, as PyYAML and Ruby read
 * MkDocs' and Jekyll's files).
 *
 * @example
 * ```ts
 * import { parseDataText } from "./data_text.ts";
 * parseDataText("hugo.toml", "uglyURLs = true\n"); // { ok: true, value: { uglyURLs: true } }
 * const broken = parseDataText("hugo.toml", "a = 1\nb = [\n");
 * broken.ok ? undefined : broken.warning.line; // 3
 * ```
 */
export function parseDataText(file: string, text: string, yaml11 = false): ParsedText {
  const fail = (what: string, reason: string, line?: number): ParsedText => ({
    ok: false,
    warning: {
      file,
      ...(line ? { line } : {}),
      message: `invalid ${what}${
        line ? ` at line ${line}` : ""
      }: ${reason}; the generator's defaults apply`,
    },
  });
  const extension = file.slice(file.lastIndexOf(".") + 1).toLowerCase();
  if (extension === "toml") {
    try {
      return { ok: true, value: parseToml(text) };
    } catch (error) {
      const line = error instanceof TomlError ? error.line : undefined;
      return fail("TOML", firstLine(error), line);
    }
  }
  if (extension === "json") {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch (error) {
      return fail("JSON", firstLine(error), jsonLine(text, firstLine(error)));
    }
  }
  const doc = parseDocument(text, { version: yaml11 ? "1.1" : "1.2", uniqueKeys: false });
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    return fail(
      "YAML",
      firstLine(error).replace(/ at line \d+, column \d+:?$/, ""),
      error.linePos?.[0].line,
    );
  }
  visit(doc, {
    Node(_, node) {
      if (node.tag !== "!ENV") return undefined;
      const items = isSeq(node) ? node.items : [];
      const last = items.length >= 2 ? items[items.length - 1] : undefined;
      return new Scalar(isScalar(last) ? last.value : null);
    },
  });
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: MAX_ALIAS_NODES }) };
  } catch (error) {
    return fail("YAML", `aliases expand past ${MAX_ALIAS_NODES} nodes (${firstLine(error)})`);
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}

/** The line of a JSON error, from the message's `line N` or `position N` where the runtime gives one. */
function jsonLine(text: string, message: string): number | undefined {
  const line = /\bline (\d+)/.exec(message);
  if (line) return Number(line[1]);
  const position = /\bposition (\d+)/.exec(message);
  if (!position) return undefined;
  return text.slice(0, Number(position[1])).split("\n").length;
}

/**
 * A plain object's value for a key, the key compared without case (Hugo's
 * config keys are case-insensitive).
 *
 * @example
 * ```ts
 * import { keyOf } from "./data_text.ts";
 * keyOf({ uglyurls: true }, "uglyURLs"); // true
 * ```
 */
export function keyOf(map: unknown, key: string): unknown {
  if (!isMap(map)) return undefined;
  if (Object.hasOwn(map, key)) return map[key];
  const lower = key.toLowerCase();
  for (const own of Object.keys(map)) if (own.toLowerCase() === lower) return map[own];
  return undefined;
}

/**
 * Whether a value is a plain map (not a list, a date or null).
 *
 * @example
 * ```ts
 * import { isMap } from "./data_text.ts";
 * isMap({ a: 1 }); // true
 * isMap([1]); // false
 * ```
 */
export function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    !(value instanceof Date);
}
