/**
 * The description an item falls back to (SPEC 4): the body's first paragraph,
 * with leading `#`, `*`, `-` and `1.` markers removed from each line and HTML
 * tags removed, lines joined by one space, cut at the first space after 300
 * characters with `...` appended when cut.
 *
 * @example
 * ```ts
 * import { preview } from "./preview.ts";
 * preview("# Getting started\n\nMore text"); // "Getting started"
 * ```
 */
export function preview(body: string, max = 300): string {
  const paragraph = body.trim().split(/\r?\n[ \t]*\r?\n/, 1)[0] ?? "";
  const text = paragraph
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/^(?:#+|\*|-|\d+\.)(?:\s+|$)/, ""))
    .join(" ")
    .replace(/<[^>]*>/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const chars = [...text]; // characters, not UTF-16 code units
  if (chars.length <= max) return text;
  const space = chars.indexOf(" ", max);
  return space === -1 ? text : `${chars.slice(0, space).join("")}...`;
}
