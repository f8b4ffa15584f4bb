// Reading content files: only regular files, never more than a size limit,
// and never a read that waits (SPEC 3, 10).
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFile as readFileCallback,
  readSync,
  type Stats,
  statSync,
} from "node:fs";
import { direntKind } from "./list.ts";
import { fileStamp, openFileStamp, stampOfStats, type StatStamp } from "../adapters/file_system.ts";
import { stampOf } from "./stamp.ts";

/**
 * Reads a file's bytes, whatever the file is: the benchmark's I/O floor, not
 * for content (see {@link readRegularFile}).
 *
 * @example
 * ```ts
 * import { readBytes } from "./read_regular.ts";
 * const bytes = await readBytes("/site/content/docs/intro.md");
 * ```
 */
export function readBytes(path: string): Promise<Uint8Array> {
  // The callback form: under Deno cheaper per file than the promise form.
  return new Promise((resolve, reject) =>
    readFileCallback(path, (error, bytes) => error ? reject(error) : resolve(bytes))
  );
}

/**
 * What reading a content file found: its bytes, or why they were not read.
 * Only regular files are read (SPEC 3): a FIFO, a socket or a device is
 * never read from, and a file over the size limit is not read at all.
 */
export type FileRead =
  | {
    readonly kind: "file";
    readonly bytes: Uint8Array;
    readonly mtime: number;
    readonly size: number;
    /** The file's inode number (0 where the file system gives none). */
    readonly ino: number;
    /** Its status change time (epoch ms). */
    readonly ctime: number;
  }
  | {
    readonly kind: "too large";
    readonly mtime: number;
    readonly size: number;
    readonly ino: number;
    readonly ctime: number;
  }
  | { readonly kind: "not a regular file"; readonly what: string };

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer,
// holding a thread of the runtime's I/O pool (or the main thread) forever.
// Opened this way, nothing waits, and fstat on the open file tells what it
// is before any byte is read, with no window for it to be swapped between a
// stat and the read.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What a path that is not a regular file is, for the warning that names it. */
function whatIs(info: Stats): string {
  return info.isDirectory() ? "a folder" : direntKind(info);
}

function classify(info: Stats, maxSize: number): FileRead | undefined {
  if (!info.isFile()) return { kind: "not a regular file", what: whatIs(info) };
  if (info.size > maxSize) {
    return { kind: "too large", ...stampOfStats(info) };
  }
  return undefined;
}

/**
 * Reads a regular file of at most `maxSize` bytes with blocking calls: for
 * a thread that has nothing else to do meanwhile (the start-up helper, or the
 * first load, before anything is served). A FIFO or device is opened without
 * waiting and closed unread; a larger file is closed unread. Throws an error
 * with a `code` when the file cannot be opened.
 *
 * @example
 * ```ts
 * import { readRegularFileSync } from "./read_regular.ts";
 * const read = readRegularFileSync("/site/content/docs/intro.md", 10 * 1024 * 1024);
 * if (read.kind === "file") console.log(read.bytes.length);
 * ```
 */
export function readRegularFileSync(path: string, maxSize: number): FileRead {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    // The open file's own stamp (no window for the path to be swapped between the stat and
    // the read), in the runtime's cheapest form; `fstatSync` says what anything else is.
    const info = openFileStamp(fd);
    if (!info.isFile) {
      const skipped = classify(fstatSync(fd), maxSize);
      if (skipped) return skipped;
    }
    if (info.size > maxSize) {
      return { kind: "too large", ...stampOf(info) };
    }
    // At most the size fstat gave: a file that grows while it is read is read as it was.
    const bytes = new Uint8Array(info.size);
    let at = 0;
    while (at < bytes.length) {
      const got = readSync(fd, bytes, at, bytes.length - at, at);
      if (got === 0) break;
      at += got;
    }
    const read = at === bytes.length ? bytes : bytes.subarray(0, at);
    return { kind: "file", bytes: read, ...stampOf(info) };
  } finally {
    closeSync(fd);
  }
}

/**
 * {@link readRegularFileSync} without blocking the thread: for reloads and
 * requests, while the server answers others. A stat tells a regular file
 * and its size first; the read itself opens with `O_NONBLOCK` too, so a
 * file swapped for a FIFO in between cannot make it wait either.
 *
 * @example
 * ```ts
 * import { readRegularFile } from "./read_regular.ts";
 * const read = await readRegularFile("/site/content/docs/intro.md", 10 * 1024 * 1024);
 * ```
 */
export function readRegularFile(path: string, maxSize: number): Promise<FileRead> {
  // A blocking stat (a stat never waits on a FIFO) and one callback read:
  // under Deno each asynchronous call is a round trip, and a first search
  // reads every body this way (bench/reads.ts).
  let info: StatStamp;
  try {
    const stamp = fileStamp(path);
    if (stamp.isFile) info = stamp;
    else {
      // What it is, for the warning: `node:fs`'s stat names every kind.
      const full = statSync(path);
      const skipped = classify(full, maxSize);
      if (skipped) return Promise.resolve(skipped);
      info = stampOfStats(full);
    }
  } catch (error) {
    return Promise.reject(error);
  }
  if (info.size > maxSize) return Promise.resolve({ kind: "too large", ...stampOf(info) });
  return new Promise((resolve, reject) => {
    readFileCallback(path, { flag: OPEN_FLAGS }, (error, bytes) => {
      if (error) return reject(error);
      if (bytes.length > maxSize) {
        return resolve({ kind: "too large", ...stampOf(info), size: bytes.length });
      }
      resolve({ kind: "file", bytes, ...stampOf(info) });
    });
  });
}
