// The calls a listing and a read make per content file and folder (a stat,
// an open file's stat, a folder's entries and time), in each runtime's
// fastest form. Under Deno, `node:fs`
// wraps `Deno.statSync` in a `Stats` object with a dozen more fields and
// dates, and `readdirSync` sorts and wraps `Deno.readDirSync`'s entries: at
// 10,000 files the stats took 128 ms and their garbage where
// `Deno.statSync` takes about 60 ms, and a restart's check makes them all
// before it answers. Bun and Node answer `node:fs` natively. Under Deno
// both give the same numbers (epoch milliseconds, whole; the inode), so a
// cache's stamps match either way; a listing's order was never relied on
// (Node's is the file system's).
import { fstatSync, readdirSync, statSync } from "node:fs";

/**
 * A file's modification time (epoch ms), size (bytes), inode number and
 * status change time (epoch ms; each 0 where none is given).
 */
export interface StatStamp {
  readonly mtime: number;
  readonly size: number;
  readonly ino: number;
  readonly ctime: number;
}

/** The part of Deno's namespace used here (the global exists only under Deno). */
interface DenoFileSystem {
  statSync(
    path: string,
  ): {
    mtime: Date | null;
    size: number;
    ino: number | null;
    ctime?: Date | null;
    isFile: boolean;
    isDirectory: boolean;
  };
  readDirSync(
    path: string,
  ): Iterable<{ name: string; isFile: boolean; isDirectory: boolean; isSymlink: boolean }>;
  readonly build?: { readonly os?: string };
}

/** Deno's own calls, where this runs under Deno. */
const deno = (() => {
  const global = (globalThis as { Deno?: Partial<DenoFileSystem> }).Deno;
  return typeof global?.statSync === "function" && typeof global.readDirSync === "function"
    ? global as DenoFileSystem
    : undefined;
})();

/**
 * A path's stamp, following links; throws (an error with a `code`:
 * `ENOENT`, `EACCES`, …) when it cannot be stat'ed. Synchronous: a listing
 * stats every file, and a thread hop each would cost more than the stat.
 *
 * @example
 * ```ts
 * import { statStamp } from "./file_system.ts";
 * statStamp("/site/content/docs/intro.md"); // { mtime: 1763700000000, size: 2048, ino: 1234567, ctime: … }
 * ```
 */
export const statStamp: (path: string) => StatStamp = deno
  ? denoStamp(deno)
  : (path) => stampOfStats(statSync(path));

/**
 * The stamp of what a `node:fs` stat gave (of a path, or of an open file).
 *
 * @example
 * ```ts
 * import { stampOfStats } from "./file_system.ts";
 * import { statSync } from "node:fs";
 * stampOfStats(statSync("/site/content/docs/intro.md")).size; // 2048
 * ```
 */
export function stampOfStats(
  info: { mtimeMs: number; size: number; ino: number; ctimeMs: number },
): StatStamp {
  return { mtime: info.mtimeMs, size: info.size, ino: info.ino, ctime: info.ctimeMs };
}

function denoStamp(deno: DenoFileSystem): (path: string) => StatStamp {
  return (path) => stampOfDeno(deno.statSync(path));
}

/** The stamp of what `Deno.statSync` gave. */
function stampOfDeno(info: ReturnType<DenoFileSystem["statSync"]>): StatStamp {
  // A file system without modification times gives none: NaN, as `node:fs` says it.
  return {
    mtime: info.mtime?.getTime() ?? NaN,
    size: info.size,
    ino: info.ino ?? 0,
    ctime: info.ctime?.getTime() ?? 0,
  };
}

/** An open file's stamp, and whether it is a regular file. */
export interface OpenFileStamp extends StatStamp {
  readonly isFile: boolean;
}

/**
 * The stamp of an open file (by its descriptor, from `node:fs`'s
 * `openSync`), as `fstat` gives it: the file opened, whatever its path
 * names by now. Under Deno on Linux, `Deno.statSync` of
 * `/proc/self/fd/<fd>`, the kernel's link to that same open file: `node:fs`'s
 * `fstatSync` builds a `Stats` object with four dates, and at 10,000
 * files a first start's reads took 196-312 ms with it against 95-173 ms
 * (`docs/performance.md`). Where that link cannot be stat'ed (no `/proc`,
 * a narrower `--allow-read`), `fstatSync`, from then on.
 *
 * @example
 * ```ts
 * import { openSync, closeSync } from "node:fs";
 * import { openFileStamp } from "./file_system.ts";
 * const fd = openSync("/site/content/docs/intro.md", "r");
 * openFileStamp(fd); // { isFile: true, mtime: 1763700000000, size: 2048, ino: 1234567, ctime: … }
 * closeSync(fd);
 * ```
 */
export function openFileStamp(fd: number): OpenFileStamp {
  if (procLinks && deno) {
    try {
      return denoFileStamp(deno.statSync(`/proc/self/fd/${fd}`));
    } catch {
      procLinks = false;
    }
  }
  const info = fstatSync(fd);
  return { isFile: info.isFile(), ...stampOfStats(info) };
}

/**
 * A path's stamp and whether it is a regular file, following links, as
 * {@link statStamp} takes it (Deno's own stat under Deno); throws (an
 * error with a `code`) when it cannot be stat'ed. For a read that stats
 * before it opens (`source/read_regular.ts`'s asynchronous one).
 *
 * @example
 * ```ts
 * import { fileStamp } from "./file_system.ts";
 * fileStamp("/site/content/docs/intro.md").isFile; // true
 * ```
 */
export const fileStamp: (path: string) => OpenFileStamp = deno
  ? (path) => denoFileStamp(deno.statSync(path))
  : (path) => {
    const info = statSync(path);
    return { isFile: info.isFile(), ...stampOfStats(info) };
  };

/** The stamp of what `Deno.statSync` gave, and whether it is a regular file. */
function denoFileStamp(info: ReturnType<DenoFileSystem["statSync"]>): OpenFileStamp {
  return { isFile: info.isFile, ...stampOfDeno(info) };
}

/** Whether `/proc/self/fd` is tried (Deno on Linux), until it fails once. */
let procLinks = deno?.build?.os === "linux";

/**
 * A folder's modification time (epoch ms), or -1 when the path is no
 * folder; throws (an error with a `code`) when it cannot be stat'ed. A
 * server stats every folder of its last listing each second (`live.ts`):
 * 7,000 of them at 100,000 files.
 *
 * @example
 * ```ts
 * import { folderTime } from "./file_system.ts";
 * folderTime("/site/content/docs"); // 1763700000000
 * ```
 */
export const folderTime: (path: string) => number = deno ? denoFolderTime(deno) : (path) => {
  const info = statSync(path);
  return info.isDirectory() ? info.mtimeMs : -1;
};

function denoFolderTime(deno: DenoFileSystem): (path: string) => number {
  return (path) => {
    const info = deno.statSync(path);
    return info.isDirectory ? info.mtime?.getTime() ?? NaN : -1;
  };
}

/**
 * A folder's entry as a listing reads it: its name and kind, as
 * `node:fs`'s `Dirent` tells them (Deno's tell files, folders and links
 * apart, and nothing else).
 */
export interface FolderEntry {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

/**
 * A folder's entries, in no particular order; throws (an error with a
 * `code`) when it cannot be read.
 *
 * @example
 * ```ts
 * import { readFolderSync } from "./file_system.ts";
 * readFolderSync("/site/content").map((entry) => entry.name); // ["docs", "blog", …]
 * ```
 */
export const readFolderSync: (path: string) => FolderEntry[] = deno
  ? denoFolder(deno)
  : (path) => readdirSync(path, { withFileTypes: true });

function denoFolder(deno: DenoFileSystem): (path: string) => FolderEntry[] {
  return (path) => {
    const out: FolderEntry[] = [];
    for (const entry of deno.readDirSync(path)) out.push(new DenoEntry(entry));
    return out;
  };
}

/** A Deno folder entry with `Dirent`'s methods. */
class DenoEntry implements FolderEntry {
  readonly name: string;
  readonly #kind: { isFile: boolean; isDirectory: boolean; isSymlink: boolean };
  constructor(entry: { name: string; isFile: boolean; isDirectory: boolean; isSymlink: boolean }) {
    this.name = entry.name;
    this.#kind = entry;
  }
  isFile(): boolean {
    return this.#kind.isFile;
  }
  isDirectory(): boolean {
    return this.#kind.isDirectory;
  }
  isSymbolicLink(): boolean {
    return this.#kind.isSymlink;
  }
  isFIFO(): boolean {
    return false;
  }
  isSocket(): boolean {
    return false;
  }
  isCharacterDevice(): boolean {
    return false;
  }
  isBlockDevice(): boolean {
    return false;
  }
}
