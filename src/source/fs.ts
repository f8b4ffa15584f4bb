// The small file-system helpers the service needs besides listing
// (list.ts), reading content (read_regular.ts) and watching (watch.ts).
// `node:fs` behaves the same under Deno, Bun and Node; the one stat a
// listing makes per file comes from the runtime's fastest call
// (`adapters/file_system.ts`).
import { lstat, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { stampOfStats, type StatStamp, statStamp } from "../adapters/file_system.ts";
import process from "node:process";
import { setImmediate } from "node:timers";
import type { FoundFile } from "./list.ts";

/**
 * A file's modification time (epoch ms), size (bytes), inode number (0
 * where none is given) and status change time (epoch ms, 0 where none is
 * given): a write changes the last, whatever the modification time is set
 * back to (`touch -r`, `cp -p`, an archive's fixed times). `stamp.ts` says
 * when two are the same file.
 */
export type Stamp = StatStamp;
/**
 * The process's working folder (config objects resolve `path` against it).
 *
 * @example
 * ```ts
 * import { cwd } from "./fs.ts";
 * cwd(); // "/srv/site"
 * ```
 */
export function cwd(): string {
  return process.cwd();
}

/**
 * Reads a text file, or `undefined` when it does not exist.
 *
 * @example
 * ```ts
 * import { readText } from "./fs.ts";
 * await readText("content/services.yaml");
 * ```
 */
export async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Whether a path is an existing folder.
 *
 * @example
 * ```ts
 * import { isFolder } from "./fs.ts";
 * await isFolder("content"); // true
 * ```
 */
export async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Why a folder cannot be listed (an error code such as `EACCES`), or
 * `undefined` when it can.
 *
 * @example
 * ```ts
 * import { listingProblem } from "./fs.ts";
 * await listingProblem("content"); // undefined
 * ```
 */
export async function listingProblem(path: string): Promise<string | undefined> {
  try {
    await readdir(path);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/**
 * A file's modification time and size; throws (an error with a `code`) when
 * it cannot be stat'ed. Synchronous, with no promise and no thread hop: a
 * listing stats every file.
 *
 * @example
 * ```ts
 * import { stampOf } from "./fs.ts";
 * stampOf("/site/content/docs/intro.md"); // { mtime: 1763700000000, size: 2048, ino: 1234567 }
 * ```
 */
export function stampOf(path: string): Stamp {
  return statStamp(path);
}

/**
 * Stamps many files, yielding to pending I/O every 256 (setImmediate: no
 * timer clamp), so a reload that stats a large site does not hold up
 * requests; a blocking one (a first load, before anything is served) does
 * not yield.
 *
 * @param failed called with a file that cannot be stat'ed and the error code; it is left out
 *
 * @example
 * ```ts
 * import { stampAll } from "./fs.ts";
 * const stamped = await stampAll([{ path: "intro.md", abs: "/site/content/docs/intro.md" }], console.warn);
 * ```
 */
export async function stampAll(
  files: readonly FoundFile[],
  failed: (file: FoundFile, code: string) => void,
  blocking = false,
): Promise<(FoundFile & Stamp)[]> {
  const out: (FoundFile & Stamp)[] = [];
  for (let i = 0; i < files.length; i++) {
    const { path, abs } = files[i];
    try {
      out.push({ path, abs, ...statStamp(abs) });
    } catch (error) {
      failed(files[i], (error as { code?: string }).code ?? "unreadable");
    }
    if (!blocking && (i + 1) % 256 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return out;
}

/**
 * Writes a text file (creating or replacing it).
 *
 * @example
 * ```ts
 * import { writeText } from "./fs.ts";
 * await writeText("snapshot.json", "{}");
 * ```
 */
export async function writeText(path: string, text: string): Promise<void> {
  await writeFile(path, text);
}

/**
 * What a path is now, without following a link: a file (with its mtime and
 * size), a folder, a link, something else, or missing.
 *
 * @example
 * ```ts
 * import { entryInfo } from "./fs.ts";
 * await entryInfo("/site/content/docs/intro.md"); // { kind: "file", mtime: …, size: … }
 * ```
 */
export async function entryInfo(
  path: string,
): Promise<
  { kind: "file" | "folder" | "link" | "other" | "missing" } & Stamp
> {
  try {
    const info = await lstat(path);
    const kind = info.isSymbolicLink()
      ? "link"
      : info.isDirectory()
      ? "folder"
      : info.isFile()
      ? "file"
      : "other";
    return { kind, ...stampOfStats(info) };
  } catch {
    return { kind: "missing", mtime: 0, size: 0, ino: 0, ctime: 0 };
  }
}
