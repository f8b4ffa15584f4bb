// What a content loader is: its options, and what one load gives.
import type { LeftOutFile } from "./list_plugins.ts";
import type { ParsedFile, Warning } from "./parsed_file.ts";

/** One load of the content folder: the files that parsed, and what went wrong. */
export interface Loaded<T> {
  /** What `prepare` made of every file that parsed. */
  readonly files: T[];
  readonly warnings: Warning[];
  /** How many files were read (not reused from the previous load). */
  readonly read: number;
  /** How many of those the helper worker read (0 without one). */
  readonly helped: number;
  /** Whether anything differs from the previous load (a file read, added or removed). */
  readonly changed: boolean;
  /** Whether every plugin folder was listed (not only named paths looked at). */
  readonly listed: boolean;
  /** Whether the last listing met a path that is not a regular file (a FIFO, a device). */
  readonly irregular: boolean;
  /**
   * Every selected file that is not in `files`, with why: what its read
   * said, or the last listing (SPEC 15; `check` counts them).
   */
  readonly leftOut: readonly LeftOutFile[];
  /** Per plugin, in config order: the files it selects and those its include globs skip. */
  readonly selection: readonly PluginSelection[];
}

/** What one plugin's selection holds: `check`'s files seen and files skipped (SPEC 15). */
export interface PluginSelection {
  /** The plugin's name. */
  readonly plugin: string;
  /** The files it selects: read (into `files` or not), or left out by the listing. */
  readonly files: number;
  /** As of the last listing: files its include globs do not match, by extension (`.png`; `(none)`). */
  readonly skipped: Readonly<Record<string, number>>;
}

/** Reads content folders and remembers what it read, so a reload reads only what changed. */
export interface ContentLoader<T> {
  /**
   * Lists every plugin folder and reads the files that are new or changed
   * since the last load; with `paths` (absolute, from a watcher), looks at
   * only those, and lists everything when one is not a plain file change.
   * With `reread`, the named files are read even when their size and
   * modification time did not change (a request found their bytes changed).
   */
  load(paths?: readonly string[], reread?: boolean): Promise<Loaded<T>>;
  /**
   * Whether a folder of the last listing changed since (an entry added,
   * removed or renamed in it, or the folder gone): a listing is due.
   */
  foldersChanged(): boolean;
}

/** The start-up helper: a Web Worker module that reads and prepares batches of files. */
export interface LoaderHelper<T> {
  /** The worker module: it answers each batch of files (`source/worker_pool.ts`) with their results. */
  readonly url: URL;
  /** Anything the worker needs to prepare files as `prepare` does (structured-cloneable). */
  readonly data: unknown;
  /** A load that reads at least this many files uses the helper. Default 1,000. */
  readonly from?: number;
  /** Turns what the worker posted back into what the loader keeps (shared objects, for example). */
  readonly adopt?: (value: T) => T;
}

/** How the loader turns files into what it keeps. */
export interface LoaderOptions<T> {
  /**
   * What to keep of a parsed file (the service derives its fields here): the
   * loader holds the result until the file changes, not the parsed file.
   *
   * @param shown the path printed in warnings (relative to the content root)
   */
  readonly prepare: (parsed: ParsedFile, shown: string, extra: unknown) => T;
  /**
   * What to attach to each file read (the service attaches its commit dates),
   * given to `prepare` with it, on this thread or the helper's.
   */
  readonly extraFor?: (shown: string) => unknown;
  /**
   * Changes (by `!==`) whenever what `extraFor` attaches may have changed
   * (a commit changed some file's dates, not its bytes). Then each file is
   * checked once: one that `extraFor` now gives another value (by `===`) is
   * read and prepared again though its size and modification time did not
   * change. While it stays the same, nothing is compared: a re-listing costs
   * what it costs without extras. Without it, extras are never compared.
   */
  readonly extraVersion?: () => unknown;
  /**
   * Awaited after listing and before any file is read: what `extraFor`
   * answers from may still be on its way (commit dates from a `git log`
   * that runs while the folders are listed).
   */
  readonly beforeRead?: () => Promise<unknown> | undefined;
  /**
   * A helper that shares a large first load with a second core, where the
   * runtime has `Worker` (Deno, Bun; Node reads on the main thread).
   */
  readonly helper?: LoaderHelper<T>;
  /**
   * Told how many of a load's files are read so far, and of how many (every
   * 256 files, and at the end): the progress a command shows on a terminal.
   */
  readonly progress?: (read: number, total: number) => void;
}

/** A read file as the loader keeps it: prepared, or the warning it gave. */
export interface Entry<T> {
  readonly abs: string;
  /** The plugin it was read for: a file that two plugins select is an entry of each. */
  readonly plugin: string;
  readonly result: T | Warning;
  /** Modification time, or `NaN` when the file could not be read (so it is never reused). */
  readonly mtime: number;
  readonly size: number;
  /** What `extraFor` attached when the file was read (`prepare` made `result` with it). */
  readonly extra?: unknown;
}
