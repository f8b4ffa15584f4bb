import { extract, FrontMatterError } from "../front_matter.ts";
import type { ParsedFile, Warning } from "./parsed_file.ts";

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Turns one file's raw bytes into a {@link ParsedFile}, or a warning when the
 * file cannot be content (not UTF-8, binary, front matter that is not valid
 * YAML). Pure: the caller reads the bytes and hashes them.
 *
 * @param shown the path printed in warnings (relative to the content root)
 *
 * @example
 * ```ts
 * import { parseFile } from "./parse.ts";
 * const bytes = new TextEncoder().encode("---\ntitle: Hi\n---\nHello");
 * const result = parseFile(bytes, { plugin: "docs", path: "hi.md", checksum: "", mtime: 0 }, "docs/hi.md");
 * // result = { plugin: "docs", path: "hi.md", ..., attrs: { title: "Hi" }, body: "Hello" }
 * ```
 */
export function parseFile(
  bytes: Uint8Array,
  meta: Omit<ParsedFile, "attrs" | "body">,
  shown: string,
): ParsedFile | Warning {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { file: shown, message: "not valid UTF-8 text; left out" };
  }
  if (text.includes("\0")) return { file: shown, message: "binary file (NUL bytes); left out" };
  try {
    const { attrs, body } = extract(text);
    return { ...meta, attrs, body: body.trim() };
  } catch (error) {
    if (!(error instanceof FrontMatterError)) throw error;
    const at = error.line ? ` (line ${error.line})` : "";
    return { file: shown, message: `${error.message}${at}; left out` };
  }
}

/**
 * Tells a parse result that is a warning from one that is a file.
 *
 * @example
 * ```ts
 * import { isWarning } from "./parse.ts";
 * isWarning({ file: "a.md", message: "bad" }); // true
 * ```
 */
export function isWarning(value: ParsedFile | Warning): value is Warning {
  return "message" in value && !("checksum" in value);
}
