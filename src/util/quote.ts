/** How much of an offending value a warning or an error quotes. */
export const QUOTE_MAX = 80;

/**
 * A value as JSON for a warning, cut to at most `max` characters (then ending
 * in `…`). It never serializes more than it prints: a front matter of
 * nested aliases, or a megabyte string, costs what the quote costs, not what
 * the value would expand to.
 *
 * @example
 * ```ts
 * import { quoteValue } from "./quote.ts";
 * quoteValue({ a: [1, 2] }); // '{"a":[1,2]}'
 * quoteValue("x".repeat(500)).length; // 80
 * ```
 */
export function quoteValue(value: unknown, max = QUOTE_MAX): string {
  let out = "";
  const full = () => out.length > max;
  const write = (v: unknown): void => {
    if (full()) return;
    if (typeof v === "string") {
      out += JSON.stringify(v.length > max ? v.slice(0, max + 1) : v);
    } else if (Array.isArray(v)) {
      out += "[";
      for (let i = 0; i < v.length && !full(); i++) {
        if (i > 0) out += ",";
        write(v[i]);
      }
      out += "]";
    } else if (typeof v === "object" && v !== null && !(v instanceof Date)) {
      out += "{";
      let first = true;
      for (const key in v) {
        if (full()) break;
        if (!first) out += ",";
        first = false;
        out += `${JSON.stringify(key.length > max ? key.slice(0, max + 1) : key)}:`;
        write((v as Record<string, unknown>)[key]);
      }
      out += "}";
    } else if (v instanceof Date) out += JSON.stringify(v);
    else if (typeof v === "bigint") out += String(v);
    else out += JSON.stringify(v) ?? String(v);
  };
  write(value);
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

/**
 * A line for the log with its control characters escaped (`\n` as `\\n`,
 * others as `\\uXXXX`), so that a file name holding a line break cannot
 * forge a log line of its own.
 *
 * @example
 * ```ts
 * import { escapeControls } from "./quote.ts";
 * escapeControls("docs/a\nwarning: fake.md"); // "docs/a\\nwarning: fake.md"
 * ```
 */
export function escapeControls(line: string): string {
  // deno-lint-ignore no-control-regex -- control characters are what it escapes
  return line.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}
