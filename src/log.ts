import { escapeControls } from "./util/quote.ts";
import type { Warning } from "./source/parsed_file.ts";

/** Warnings of one shape printed before the rest are counted in one line (SPEC 11). */
export const WARNINGS_PER_SHAPE = 20;

/**
 * What a warning message says with its particulars taken out (quoted
 * values, numbers, paths), so that "cannot be read (EACCES)" for a thousand
 * files is one shape.
 *
 * @example
 * ```ts
 * import { warningShape } from "./log.ts";
 * warningShape("front matter 'date': expected a date, got \"2026-13-01\"; using the default");
 * // "front matter '…': expected a date, got \"…\"; using the default"
 * ```
 */
export function warningShape(message: string): string {
  return message
    .replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, (q) => `${q[0]}…${q[0]}`)
    .replace(/\S*\/\S*/g, "…")
    .replace(/\d+(?:\.\d+)?/g, "#");
}

/**
 * The log lines for a list of warnings: `warning: <file>: <message>`, with
 * control characters escaped so that a file name cannot forge a line of its
 * own, and at most {@link WARNINGS_PER_SHAPE} lines per message shape, the
 * rest counted in one line.
 *
 * @example
 * ```ts
 * import { warningLines } from "./log.ts";
 * warningLines([{ file: "docs/a\nb.md", message: "cannot be read (EACCES); left out" }]);
 * // ["warning: docs/a\\nb.md: cannot be read (EACCES); left out"]
 * ```
 */
export function warningLines(warnings: readonly Warning[]): string[] {
  const lines: string[] = [];
  const shapes = new Map<string, number>();
  for (const w of warnings) {
    const shape = warningShape(w.message);
    const seen = (shapes.get(shape) ?? 0) + 1;
    shapes.set(shape, seen);
    if (seen <= WARNINGS_PER_SHAPE) lines.push(escapeControls(`warning: ${w.file}: ${w.message}`));
  }
  for (const [shape, count] of shapes) {
    if (count > WARNINGS_PER_SHAPE) {
      const more = count - WARNINGS_PER_SHAPE;
      lines.push(
        escapeControls(`warning: … and ${more} more like "${shape}" (${count} in all)`),
      );
    }
  }
  return lines;
}

/**
 * A log of content warnings (SPEC 4, 11): each warning once per file per
 * content version, so a reload logs only the warnings that are new, in the
 * lines of {@link warningLines}.
 *
 * @example
 * ```ts
 * import { createWarningLog } from "./log.ts";
 * const log = createWarningLog(console.error);
 * log([{ file: "docs/a.md", message: "cannot be read (EACCES); left out" }]); // logged
 * log([{ file: "docs/a.md", message: "cannot be read (EACCES); left out" }]); // still standing: not again
 * ```
 */
export function createWarningLog(
  write: (line: string) => void,
): (warnings: readonly Warning[]) => void {
  let logged = new Set<string>();
  return (warnings) => {
    const key = (w: Warning) => `${w.file}\n${w.message}`;
    const standing = new Map(warnings.map((w) => [key(w), w]));
    const fresh = [...standing].filter(([k]) => !logged.has(k)).map(([, w]) => w);
    for (const line of warningLines(fresh)) write(line);
    logged = new Set(standing.keys());
  };
}
