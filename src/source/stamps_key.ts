// What a restart compares to know that no content file changed while no
// server ran (SPEC 17): every listed file's stamp, in one digest.
import { createHash } from "node:crypto";
import type { Warning } from "./parsed_file.ts";

/** One listed file as a stamp: its loader key (plugin and path), size, mtime, inode and ctime. */
export interface StampedFile {
  readonly key: string;
  readonly size: number;
  readonly mtime: number;
  readonly ino: number;
  readonly ctime: number;
}

/**
 * A digest of a listing: each file's key and stamp, in key order, and the
 * listing's warnings (links not followed, folders that could not be read),
 * as a set. Two listings with one digest hold the same files with the same
 * sizes, modification times, inodes and status change times, and warn alike.
 *
 * @example
 * ```ts
 * import { stampsKey } from "./stamps_key.ts";
 * const key = stampsKey([{ key: "docs\n/site/docs/a.md", size: 12, mtime: 1, ino: 7, ctime: 1 }], []);
 * key.length; // 64
 * ```
 */
export function stampsKey(files: readonly StampedFile[], warnings: readonly Warning[]): string {
  const sorted = [...files].sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const lines = sorted.map((file) =>
    `${file.key}\t${file.size}\t${file.mtime}\t${file.ino}\t${file.ctime}`
  );
  lines.push("", warningsKey(warnings));
  return createHash("sha256").update(lines.join("\n")).digest("hex");
}

/**
 * A listing's warnings as one text, in an order of their own (folders are
 * listed concurrently, so the order they were found in may differ between
 * two listings of the same tree).
 *
 * @example
 * ```ts
 * import { warningsKey } from "./stamps_key.ts";
 * warningsKey([{ file: "docs/x", message: "a link not followed" }]); // "docs/x\na link not followed"
 * ```
 */
export function warningsKey(warnings: readonly Warning[]): string {
  return warnings.map((w) => `${w.file}\n${w.message}`).sort().join("\n");
}

/**
 * The parts of a restart key (the site's, the files', git's) as one key, a
 * line each: `undefined` when a part cannot be told.
 *
 * @example
 * ```ts
 * import { joinKeys } from "./stamps_key.ts";
 * joinKeys("a", "b"); // "a\nb"
 * joinKeys("a", undefined); // undefined
 * ```
 */
export function joinKeys(...parts: (string | undefined)[]): string | undefined {
  return parts.includes(undefined) ? undefined : parts.join("\n");
}
