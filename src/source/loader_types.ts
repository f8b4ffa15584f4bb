// What a content loader is: its options, and what one load gives.
import type { LeftOutFile, PluginsListing } from "./list_plugins.ts";
import type { ParsedFile, Warning } from "./parsed_file.ts";
import type { LoadWork } from "./load_work.ts";

export { type LoadWork, NO_WORK } from "./load_work.ts";

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
  /** What this load did, counted (SPEC 17: tests bound these, `check --json` shows them). */
  readonly work: LoadWork;
}

/** What one plugin's selection holds: `check`'s files seen and files skipped (SPEC 15). */
export interface PluginSelection {
  /** The plugin's name. */
  readonly plugin: string;
  /** The files it selects: read (into `files` or not), or left out by the listing. */
  readonly files: number;
  /** As of the last listing: files its include globs do not match, by extension (`.png`; `(none)`). */
  readonly skipped: Readonly<Record<string, number>>;
  /** As of the last listing: set when its folder could not be listed, the warning that names it. */
  readonly unlisted?: Warning;
}

/** Reads content folders and remembers what it read, so a reload reads only what changed. */
export interface ContentLoader<T> {
  /**
   * Lists every plugin folder and reads the files that are new or changed
   * since the last load; with `paths` (absolute, from a watcher), looks at
   * only those, and lists everything when one is not a plain file change.
   * With `reread`, the named files are read even when their size and
   * modification time did not change (a request found their bytes changed);
   * without `paths`, every file read within {@link RACY_MS} of a change to
   * it has its checksum compared, as its stamp may not show a write that
   * followed the read (a listing that catches up with what no watcher saw).
   */
  load(paths?: readonly string[], reread?: boolean): Promise<Loaded<T>>;
  /**
   * Whether a folder of the last listing changed since (an entry added,
   * removed or renamed in it, or the folder gone): a listing is due.
   */
  foldersChanged(): boolean;
  /**
   * A digest of what the last load holds: every file's stamp and the
   * listing's warnings (`stamps_key.ts`), as `listedStampsKey` gives it for
   * a listing of the same files. `undefined` before a first load, or when
   * some file must be looked at again whatever its stamp (read within its
   * stamp's resolution of a change, or not read).
   */
  stampsKey(): string | undefined;
  /**
   * What the last load read, stamped, and the last listing's folders (for
   * `git_vouch.ts`): `undefined` where {@link ContentLoader.stampsKey} is.
   */
  readStamps(): ReadStamps | undefined;
  /**
   * Reads again the files the last load read within their stamp's
   * resolution of a change, which {@link ContentLoader.stampsKey} refuses:
   * each whose stamp and checksum are still the ones read, and whose
   * modification time is now more than {@link RACY_MS} old, counts as read
   * now (a later write gives it a later time). At most `limit` files; none
   * when there are more. Returns whether no such file is left: then the
   * stamps vouch for the last load (a stopping server keeps its early check,
   * SPEC 17). A file that changed is left as it was, for the next load.
   */
  settleRacy(limit: number): boolean;
  /**
   * Where a listing begun now stands among the loads, for
   * {@link ContentLoader.offerListing}: `undefined` while a load runs.
   */
  listingMark(): number | undefined;
  /**
   * Hands a listing made after {@link ContentLoader.listingMark} gave
   * `mark` to the next load that lists in full, in place of a listing of
   * its own (as `LoaderOptions.listed` does for the first load): taken only
   * where no load began since the mark, else dropped. A service that lists
   * to find whether anything changed while no watch ran then reads what
   * changed without listing a second time (SPEC 10).
   */
  offerListing(listed: PluginsListing, mark: number): void;
  /**
   * Drops a listing offered and not yet taken: a watcher's paths joined the
   * reload that would take it, and may have changed after it.
   */
  dropListing(): void;
}

/** The start-up helper: a Web Worker module that reads and prepares batches of files. */
export interface LoaderHelper<T> {
  /** The worker module: it answers each batch of files (`source/worker_pool.ts`) with their results. */
  readonly url: URL;
  /** Anything the worker needs to prepare files as `prepare` does (structured-cloneable). */
  readonly data: unknown;
  /** A load that reads at least this many files uses the helper. Default 1,000. */
  readonly from?: number;
  /**
   * The helper is used only where the runtime reports at least this many
   * cores (`navigator.hardwareConcurrency`). Default 4: on two cores it
   * took longer and more memory than none (docs/performance.md).
   */
  readonly cores?: number;
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
   * The files (relative to the content root) whose extra may have changed
   * since the last call, `undefined` for any: asked when `extraVersion`
   * changed, so that only those are compared (a commit re-dates the files it
   * touched, not every file). Without it, every file is compared.
   */
  readonly movedExtras?: () => ReadonlySet<string> | undefined;
  /**
   * Awaited after the files are read, before their extras are compared:
   * what `extraFor` answers from may still be on its way (commit dates from
   * a `git log` that runs while the folders are listed and the files read).
   * A file read before it settled was prepared with the extra then known;
   * one whose extra is another now is given to `rebase` (or read again).
   */
  readonly extrasReady?: () => Promise<unknown> | undefined;
  /**
   * Whether two extras are the same (default `===`): extras kept from
   * another process are copies, equal in value.
   */
  readonly sameExtra?: (a: unknown, b: unknown) => boolean;
  /**
   * What a prepared file becomes with another extra, without reading it
   * again (the service re-dates a file for new commit dates). Without it, a
   * file whose extra changed is read and prepared again.
   *
   * @param shown the path printed in warnings
   */
  readonly rebase?: (result: T, extra: unknown, shown: string) => T;
  /**
   * What a prepared file becomes with another modification time, its bytes
   * the same (a `touch`, a fresh checkout, another runtime's stamps): with
   * it, a file whose stamp changed is read and its checksum compared, and
   * bytes that are the same are not parsed again. `extra` is what `result`
   * was prepared with. Without it, such a file is prepared again.
   *
   * @param shown the path printed in warnings
   */
  readonly restamp?: (result: T, mtime: number, extra: unknown, shown: string) => T;
  /**
   * Awaited before a load's first read: what `prepare` needs may load
   * lazily (the service's deriving code: a start that reads nothing never
   * loads it).
   */
  readonly ready?: () => Promise<unknown>;
  /**
   * What a previous process kept (the state folder's derivation cache,
   * SPEC 17): the entries the first load starts from. A kept entry is
   * reused while its file's size, modification time and inode are the same
   * (and the file was not modified within {@link RACY_MS} of its read, else
   * its checksum is compared first). Made on the first load, before it
   * lists: a caller may make them a part at a time, letting requests be
   * answered between parts.
   */
  readonly kept?: () => Promise<readonly Entry<T>[]>;
  /**
   * Whether the first load blocks on its I/O, as it may when nothing is
   * served before it ends. Default `true`; `false` for a start that
   * answers requests meanwhile (SPEC 17: the kept full feed).
   */
  readonly blockingFirstLoad?: boolean;
  /**
   * A listing of every plugin folder with a stat of each file, made just
   * before (by `listedStampsKey`, for a restart's check): the first load
   * takes it as it is instead of listing again. A file edited in place since
   * is found by the listing that catches up once the watch has begun
   * (`live.ts`, `Pipeline.unchangedSinceLoad`), as one edited during the load.
   */
  readonly listed?: PluginsListing;
  /**
   * Told after each load what changed in the loader's entries: those made
   * or changed, and those gone (the service keeps them in its state folder).
   */
  readonly settled?: (changed: readonly Entry<T>[], removed: readonly Entry<T>[]) => void;
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
  /** Inode number (0 where none is known: then it is not compared). */
  readonly ino: number;
  /**
   * Status change time (epoch ms; 0 where none is known: then it is not
   * compared): a write sets it, whatever the modification time is put back to.
   */
  readonly ctime: number;
  /** SHA-256 of the bytes `result` was made from, where they were read. */
  readonly checksum?: string;
  /** When the read began (epoch ms): see {@link RACY_MS}. */
  readonly readAt: number;
  /** What `extraFor` attached when the file was read (`prepare` made `result` with it). */
  readonly extra?: unknown;
}

/**
 * A file modified less than this before it was read (or after) may change
 * again without its stamp changing (a file system that keeps whole or even
 * seconds, a write in the same tick), so its stamp alone is not trusted:
 * its checksum is compared (git's "racily clean" entries, SPEC 17).
 */
export const RACY_MS = 2000;

/** A file as the stopping server read it: its path and stamp. */
export interface ReadStamp {
  readonly abs: string;
  readonly size: number;
  readonly mtime: number;
  readonly ino: number;
  readonly ctime: number;
}

/** What a stopping server's content was read from, as a loader tells it. */
export interface ReadStamps {
  /** Every folder of the last listing, with its modification time then. */
  readonly folders: ReadonlyMap<string, number>;
  /** When that listing began (epoch ms): a folder changed near it says nothing by its time. */
  readonly listedAt: number;
  /** The entries' names of the folders changed near that listing (`PluginsListing.recent`). */
  readonly recent: ReadonlyMap<string, string>;
  /**
   * Whether that listing had warnings (a broken link, a folder it could not
   * read): what they name may change with no folder's time.
   */
  readonly warned: boolean;
  /** Every content file as it was read. */
  readonly files: readonly ReadStamp[];
}
