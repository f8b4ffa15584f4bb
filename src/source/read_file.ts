import { inLanes } from "../lanes.ts";
import { readBytes, readBytesSync, stampOf } from "./fs.ts";
import { sha256Hex } from "./hash.ts";
import { parseBody, parseFile } from "./parse.ts";
import type { ParsedFile, Warning } from "./parsed_file.ts";

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
}

/** What reading one file gave: the parsed file or a warning, and the mtime to remember. */
export interface ReadResult {
  readonly abs: string;
  readonly result: ParsedFile | Warning;
  /** Modification time, or `NaN` when the file could not be read (so it is never reused). */
  readonly mtime: number;
  readonly size: number;
}

/**
 * Reads, hashes and parses one content file; a file that cannot be read
 * becomes a warning, never an exception. The same function runs on the main
 * thread and in the start-up helper worker, so both give equal results.
 *
 * @param blocking read with the synchronous call (see {@link readBytesSync})
 *
 * @example
 * ```ts
 * import { readContentFile } from "./read_file.ts";
 * const { result } = await readContentFile({
 *   abs: "/site/content/docs/intro.md", plugin: "docs", path: "intro.md", shown: "docs/intro.md", mtime: 0,
 * });
 * ```
 */
export async function readContentFile(job: ReadJob, blocking = false): Promise<ReadResult> {
  const { abs } = job;
  let size = job.size ?? NaN;
  try {
    let mtime = job.mtime;
    if (mtime === undefined || job.size === undefined) ({ mtime, size } = stampOf(abs));
    const bytes = blocking ? readBytesSync(abs) : await readBytes(abs);
    const checksum = await sha256Hex(bytes);
    const meta = { plugin: job.plugin, path: job.path, checksum, mtime };
    return { abs, result: parseFile(bytes, meta, job.shown), mtime, size };
  } catch (error) {
    const code = (error as { code?: string }).code ?? "read error";
    // A permission fix does not change the mtime, so an unreadable file is never reused.
    const result = { file: job.shown, message: `cannot be read (${code}); left out` };
    return { abs, result, mtime: NaN, size };
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
 * const body = await readBody("/site/content/docs/intro.md", item.checksum);
 * ```
 */
export async function readBody(abs: string, checksum: string): Promise<string | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(abs);
  } catch {
    return undefined;
  }
  return await sha256Hex(bytes) === checksum ? parseBody(bytes) : undefined;
}

/**
 * Reads the jobs that `next` hands out until it returns `undefined`,
 * 32 at a time, calling `done` with each result and its job as it finishes.
 *
 * @param blocking read with the synchronous call (see {@link readBytesSync})
 *
 * @example
 * ```ts
 * import { readContentFiles } from "./read_file.ts";
 * let i = 0;
 * await readContentFiles(() => jobs[i++], (result, job) => console.log(job.shown, result.mtime));
 * ```
 */
export async function readContentFiles(
  next: () => ReadJob | undefined,
  done: (result: ReadResult, job: ReadJob) => void,
  blocking = false,
): Promise<void> {
  await inLanes(next, async (job) => done(await readContentFile(job, blocking), job));
}
