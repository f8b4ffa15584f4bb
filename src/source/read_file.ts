import { DEFAULT_MAX_FILE_SIZE } from "../config/types.ts";
import { forEachConcurrently } from "../util/concurrency.ts";
import { setImmediate } from "node:timers";
import { fileChecksum } from "./file_hash.ts";
import { formatSize } from "../util/size.ts";
import { type FileRead, readRegularFile, readRegularFileSync } from "./read_regular.ts";
import { sameStamp } from "./stamp.ts";
import type { Stamp } from "./fs.ts";
import { parseBody, parseFile } from "./parse.ts";
import type { LeftOutReason, LeftOutWarning, ParsedFile } from "./parsed_file.ts";

/** One content file to read: where it is and what the loader knows of it. */
export interface ReadJob {
  /** Absolute path to read. */
  readonly abs: string;
  /** Name of the content plugin that owns the file. */
  readonly plugin: string;
  /** Path relative to the plugin's folder. */
  readonly path: string;
  /** The path printed in warnings (relative to the content root). */
  readonly shown: string;
  /**
   * Modification time and size when the listing stat'ed the file (a reload
   * compares them with the last load); absent, the reader stats it, so a
   * cold start's stats run where the reads run, on both threads.
   */
  readonly mtime?: number;
  readonly size?: number;
  readonly ino?: number;
  readonly ctime?: number;
  /** Larger files are left out with a warning, unread (config `max_file_size`). */
  readonly maxSize: number;
  /** What the loader's owner attached to this file for `prepare` (its commit dates, say). */
  readonly extra?: unknown;
  /**
   * The checksum of the bytes the loader last made this file's entry from
   * (its stamp has changed since): bytes still the same are not parsed, and
   * the result says {@link SAME_BYTES}.
   */
  readonly known?: string;
}

/**
 * What a read gives for a file whose bytes are those of its job's `known`
 * checksum: nothing parsed, as the loader keeps what it made of those bytes
 * (a `touch`, a `chmod`, a fresh checkout, another runtime's stamps).
 */
export interface SameBytes {
  readonly sameBytes: true;
}

/** The one {@link SameBytes} (a worker's copy of it is equal in value). */
export const SAME_BYTES: SameBytes = Object.freeze({ sameBytes: true });

/**
 * Whether a read's result is {@link SAME_BYTES}.
 *
 * @example
 * ```ts
 * import { isSameBytes, SAME_BYTES } from "./read_file.ts";
 * isSameBytes(SAME_BYTES); // true
 * isSameBytes({ file: "a.md", message: "bad" }); // false
 * ```
 */
export function isSameBytes(value: object): value is SameBytes {
  return (value as Partial<SameBytes>).sameBytes === true;
}

/** What reading one file gave: the parsed file or a warning, and the mtime to remember. */
export interface ReadResult {
  readonly abs: string;
  /** The plugin the file was read for (a file two plugins select is read for each). */
  readonly plugin: string;
  /** The parsed file, or why it is left out, or {@link SAME_BYTES} (nothing parsed). */
  readonly result: ParsedFile | LeftOutWarning | SameBytes;
  /** Modification time, or `NaN` when the file could not be read (so it is never reused). */
  readonly mtime: number;
  readonly size: number;
  /** Inode number (0 where the file system gives none, or the file could not be read). */
  readonly ino: number;
  /** Status change time (0 where the file system gives none, or the file could not be read). */
  readonly ctime: number;
  /** SHA-256 of the bytes read (none when they were not read). */
  readonly checksum?: string;
  /** When the read began (epoch ms): a file modified since may show the same stamp. */
  readonly readAt: number;
}

/**
 * Reads, hashes and parses one content file without blocking; a file that
 * cannot be read becomes a warning, never an exception. Its blocking twin,
 * {@link readContentFileSync}, gives the same result (both end in
 * `resultOf`), on the main thread and in the start-up helper worker.
 *
 * @example
 * ```ts
 * import { readContentFile } from "./read_file.ts";
 * const { result } = await readContentFile({
 *   abs: "/site/content/docs/intro.md", plugin: "docs", path: "intro.md", shown: "docs/intro.md",
 *   maxSize: 10 * 1024 * 1024,
 * });
 * ```
 */
export async function readContentFile(job: ReadJob): Promise<ReadResult> {
  const readAt = Date.now();
  let read: FileRead | { readonly error: unknown };
  try {
    read = await readRegularFile(job.abs, job.maxSize);
  } catch (error) {
    read = { error };
  }
  return resultOf(job, read, readAt);
}

/**
 * {@link readContentFile} with blocking calls (see {@link readRegularFileSync}),
 * and no promise: a blocking load's loop calls it for each of a first
 * start's files.
 *
 * @example
 * ```ts
 * import { readContentFileSync } from "./read_file.ts";
 * const { result } = readContentFileSync({
 *   abs: "/site/content/docs/intro.md", plugin: "docs", path: "intro.md", shown: "docs/intro.md",
 *   maxSize: 10 * 1024 * 1024,
 * });
 * ```
 */
export function readContentFileSync(job: ReadJob): ReadResult {
  const readAt = Date.now();
  let read: FileRead | { readonly error: unknown };
  try {
    read = readRegularFileSync(job.abs, job.maxSize);
  } catch (error) {
    read = { error };
  }
  return resultOf(job, read, readAt);
}

/** What a read gave, hashed and parsed: the file, a warning, or {@link SAME_BYTES}. */
function resultOf(
  job: ReadJob,
  read: FileRead | { readonly error: unknown },
  readAt: number,
): ReadResult {
  const { abs, plugin } = job;
  const warning = (message: string, reason: LeftOutReason) => ({
    file: job.shown,
    message,
    reason,
  });
  if ("error" in read) {
    const error = read.error;
    const code = (error as { code?: string }).code ?? "read error";
    // A permission fix does not change the mtime, so an unreadable file is never reused.
    return {
      abs,
      plugin,
      result: warning(`cannot be read (${code}); left out`, "unreadable"),
      mtime: NaN,
      size: NaN,
      ino: 0,
      ctime: 0,
      readAt,
    };
  }
  if (read.kind === "not a regular file") {
    return {
      abs,
      plugin,
      result: warning(`not a regular file (${read.what}); left out`, "not a regular file"),
      mtime: NaN,
      size: NaN,
      ino: 0,
      ctime: 0,
      readAt,
    };
  }
  // The listing's stamp when there is one: what the next listing compares with.
  const mtime = job.mtime ?? read.mtime;
  const size = job.size ?? read.size;
  const ino = job.ino ?? read.ino;
  const ctime = job.ctime ?? read.ctime;
  if (read.kind === "too large") {
    const message = `${formatSize(read.size)}, larger than max_file_size (${
      formatSize(job.maxSize)
    }); left out`;
    return { abs, plugin, result: warning(message, "too large"), mtime, size, ino, ctime, readAt };
  }
  const checksum = fileChecksum(read.bytes);
  if (checksum === job.known) {
    return { abs, plugin, result: SAME_BYTES, mtime, size, ino, ctime, checksum, readAt };
  }
  const meta = { plugin: job.plugin, path: job.path, checksum, mtime };
  const result = parseFile(read.bytes, meta, job.shown);
  return { abs, plugin, result, mtime, size, ino, ctime, checksum, readAt };
}

/**
 * Whether a file's bytes are still those of `checksum` (a file whose stamp
 * did not change, read within the stamp's resolution of a change): `true`,
 * `false` when they differ or it cannot be read as a regular file.
 *
 * @param blocking read with blocking calls (see {@link readRegularFileSync})
 *
 * @example
 * ```ts
 * import { sameChecksum } from "./read_file.ts";
 * await sameChecksum("/site/content/docs/intro.md", "9f2c…", 10 * 1024 * 1024, false);
 * ```
 */
export async function sameChecksum(
  abs: string,
  checksum: string,
  maxSize: number,
  blocking: boolean,
): Promise<boolean> {
  try {
    const read = blocking ? readRegularFileSync(abs, maxSize) : await readRegularFile(abs, maxSize);
    return read.kind === "file" && fileChecksum(read.bytes) === checksum;
  } catch {
    return false;
  }
}

/**
 * Whether a file read before is still the one read: the same stamp
 * (`stamp.ts`) on the open file, and the same checksum. Blocking: for a stopping server, on the few files read
 * near a change (`ContentLoader.settleRacy`).
 *
 * @example
 * ```ts
 * import { sameFileSync } from "./read_file.ts";
 * sameFileSync({ abs: "/site/content/docs/intro.md", size: 2048, mtime: 1763700000000, ino: 42,
 *   ctime: 1763700000000, checksum: "9f2c…" }, 10 * 1024 * 1024); // false: another checksum
 * ```
 */
export function sameFileSync(
  file: Stamp & { readonly abs: string; readonly checksum?: string },
  maxSize: number,
): boolean {
  if (file.checksum === undefined) return false;
  try {
    const read = readRegularFileSync(file.abs, maxSize);
    return read.kind === "file" && sameStamp(read, file) &&
      fileChecksum(read.bytes) === file.checksum;
  } catch {
    return false;
  }
}

/**
 * A content file's body, read again for a request (the server's index does
 * not hold bodies): `undefined` when the file is gone or its bytes are no
 * longer the ones the index was built from (another SHA-256), so a caller
 * never pairs one version's body with another version's fields.
 *
 * @example
 * ```ts
 * import { readBody } from "./read_file.ts";
 * const checksum = "9f2c…"; // the SHA-256 the index holds for the file
 * const body = await readBody("/site/content/docs/intro.md", checksum, 10 * 1024 * 1024);
 * ```
 */
export async function readBody(
  abs: string,
  checksum: string,
  maxSize: number = DEFAULT_MAX_FILE_SIZE,
): Promise<string | undefined> {
  const bytes = await readCheckedBytes(abs, checksum, maxSize);
  return bytes === undefined ? undefined : parseBody(bytes);
}

/**
 * A content file's bytes, read again, when they are still the ones with
 * `checksum` (the index's SHA-256 for it); `undefined` when the file is gone
 * or changed. What {@link readBody} decodes; a response that writes the body
 * as JSON takes the bytes (`feed/json_bytes.ts`) and decodes nothing.
 *
 * @example
 * ```ts
 * import { readCheckedBytes } from "./read_file.ts";
 * const bytes = await readCheckedBytes("/site/content/docs/intro.md", "9f2c…", 10 * 1024 * 1024);
 * ```
 */
export async function readCheckedBytes(
  abs: string,
  checksum: string,
  maxSize: number = DEFAULT_MAX_FILE_SIZE,
): Promise<Uint8Array | undefined> {
  let read: FileRead;
  try {
    read = await readRegularFile(abs, maxSize);
  } catch {
    return undefined;
  }
  if (read.kind !== "file") return undefined;
  return fileChecksum(read.bytes) === checksum ? read.bytes : undefined;
}

/**
 * Reads the jobs that `next` hands out until it returns `undefined`,
 * 32 at a time, calling `done` with each result and its job as it finishes.
 *
 * @param blocking read with blocking calls (see {@link readRegularFileSync})
 *
 * @example
 * ```ts
 * import { readContentFiles, type ReadJob } from "./read_file.ts";
 * const jobs: ReadJob[] = [{
 *   abs: "/site/content/docs/intro.md", plugin: "docs", path: "intro.md", shown: "docs/intro.md",
 *   maxSize: 10 * 1024 * 1024,
 * }];
 * let i = 0;
 * await readContentFiles(() => jobs[i++], (result, job) => console.log(job.shown, result.mtime));
 * ```
 */
export async function readContentFiles(
  next: () => ReadJob | undefined,
  done: (result: ReadResult, job: ReadJob) => void,
  blocking = false,
): Promise<void> {
  if (!blocking) {
    await forEachConcurrently(next, async (job) => done(await readContentFile(job), job));
    return;
  }
  // Blocking reads never wait on anything, so nothing else would run until
  // the last file: every few milliseconds, let the event loop deliver what
  // the start-up helper sent (its results, and its asking for the next
  // batch), a signal, a health check. By time, not by count: a turn every
  // 16 files was 625 turns at 10,000 files, about 100 ms between the files
  // under Deno (some of it V8's own work, which runs elsewhere now); turns
  // every 4 ms take 16–21 ms.
  let turned = performance.now();
  for (let job = next(); job !== undefined; job = next()) {
    done(readContentFileSync(job), job);
    if (performance.now() - turned >= YIELD_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      turned = performance.now();
    }
  }
}

/** How long a blocking load reads before it gives the event loop a turn (ms). */
const YIELD_MS = 4;
