import type { ContentConfig } from "../config/types.ts";
import { PLUGINS } from "../plugins.ts";
import { entryInfo, type Stamp, stampAll } from "./fs.ts";
import { foldersChanged, folderStamp, type FoundFile, listFiles } from "./list.ts";
import { isWarning } from "./parse.ts";
import type { ParsedFile, Warning } from "./parsed_file.ts";
import { runHelper } from "./worker_pool.ts";
import { readContentFiles, type ReadJob, type ReadResult } from "./read_file.ts";
import { fileSelector, isContentPath, isSkippedName } from "./select.ts";
import { contentPath } from "../util/path.ts";

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
  /** The worker module: it answers each batch of files (`source/helper.ts`) with their results. */
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

/**
 * Creates a loader for a configuration. A file is read again only when its
 * modification time or size changed, or what `extraFor` attaches to it
 * (see `extraVersion`); otherwise what `prepare` made of it is reused.
 *
 * @example
 * ```ts
 * import { createLoader } from "./loader.ts";
 * import { validateConfig } from "../config/validate.ts";
 * const config = validateConfig({ plugins: { docs: null } }, "/site/content");
 * const loader = createLoader(config, { prepare: (parsed) => parsed });
 * const { files, warnings } = await loader.load();
 * ```
 */
export function createLoader<T extends object>(
  config: ContentConfig,
  options: LoaderOptions<T>,
): ContentLoader<T> {
  const { prepare, helper, extraFor, extraVersion, beforeRead, progress } = options;
  let cache = new Map<string, Entry<T>>();
  let listingWarnings: Warning[] = [];
  let folderStamps = new Map<string, number>();
  let irregular = false;
  let listedOnce = false;
  /** The `extraVersion` every kept file was last checked against (or read under). */
  let checkedVersion: unknown;
  const selectors = config.plugins.map((plugin) => ({
    plugin,
    folder: plugin.path ? `${config.root}/${plugin.path}/` : `${config.root}/`,
    select: fileSelector(PLUGINS[plugin.name], plugin),
  }));
  const job = (found: FoundFile & Partial<Stamp>, plugin: string, shown: string): ReadJob => ({
    abs: found.abs,
    plugin,
    path: found.path,
    shown,
    mtime: found.mtime,
    size: found.size,
    maxSize: config.maxFileSize,
    extra: extraFor?.(shown),
  });
  /**
   * Whether a file read before can be reused as it is: same size and
   * modification time, and (when `checkExtra`, the extras' version having
   * changed) prepared with what would be attached to it now.
   */
  const reusable = (
    old: Entry<T> | undefined,
    stamp: Stamp,
    checkExtra: boolean,
    shown: () => string,
  ) =>
    old !== undefined && old.mtime === stamp.mtime && old.size === stamp.size &&
    (!checkExtra || isWarning(old.result) || old.extra === extraFor?.(shown()));
  /** Whether the extras may have changed since every kept file was checked against them. */
  const extrasMoved = () => extraVersion !== undefined && extraVersion() !== checkedVersion;

  const finish = (
    next: Map<string, Entry<T>>,
    listing: Warning[],
    counts: { read: number; helped: number; changed: boolean; listed: boolean },
  ): Loaded<T> => {
    cache = next;
    listingWarnings = listing;
    const warnings = [...listing];
    const files: T[] = [];
    for (const { result } of next.values()) {
      if (isWarning(result)) warnings.push(result);
      else files.push(result);
    }
    return { files, warnings, irregular, ...counts };
  };

  /** Reads the jobs into `next`, sharing a large first load with the helper. */
  const readAll = async (
    todo: readonly ReadJob[],
    next: Map<string, Entry<T>>,
    blocking: boolean,
  ): Promise<number> => {
    let cursor = 0;
    let done = 0;
    const store = (entry: Entry<T>) => {
      next.set(entryKey(entry.plugin, entry.abs), entry);
      if (progress && (++done % 256 === 0 || done === todo.length)) progress(done, todo.length);
    };
    const readHere = (read: ReadResult, { shown, extra }: ReadJob) =>
      store(
        isWarning(read.result)
          ? read as Entry<T>
          : { ...read, result: prepare(read.result, shown, extra), extra },
      );
    const one = () => cursor < todo.length ? todo[cursor++] : undefined;
    const take = (count: number) => todo.slice(cursor, cursor += count);
    const helped = helper && todo.length >= (helper.from ?? 1000);
    const [, byHelper] = await Promise.all([
      readContentFiles(one, readHere, blocking),
      helped ? runHelper(helper, take, store, readHere) : 0,
    ]);
    return byHelper;
  };

  const full = async (): Promise<Loaded<T>> => {
    // The first load blocks on its I/O (nothing is served before it ends) and
    // has nothing to compare with, so each read stats its own file.
    const first = !listedOnce;
    listedOnce = true;
    const next = new Map<string, Entry<T>>();
    const warned: Warning[] = [];
    const todo: ReadJob[] = [];
    const listed = await Promise.all(selectors.map(async ({ plugin, folder, select }) => {
      const shown = (path: string) => contentPath(plugin.path, path);
      const onLeftOut = (path: string, reason: string) =>
        warned.push({
          file: shown(path),
          message: `${reason}; left out`,
          reason: reason.startsWith("not a regular file") ? "not a regular file" : "unreadable",
        });
      const listing = await listFiles(config.root, folder.slice(0, -1), {
        keep: select,
        skipName: isSkippedName,
        onLeftOut,
        blocking: first,
      });
      const found: (FoundFile & Partial<Stamp>)[] = first
        ? listing.files
        : await stampAll(listing.files, (file, code) => onLeftOut(file.path, code));
      return { plugin, shown, found, listing };
    }));
    folderStamps = new Map(listed.flatMap(({ listing }) => [...listing.folders]));
    // The folders on the way to each plugin folder, so one created, removed
    // or renamed there shows too, however far from the root.
    for (const { folder } of selectors) {
      for (
        let at = folder.length - 1;
        at >= config.root.length;
        at = folder.lastIndexOf("/", at - 1)
      ) {
        const path = folder.slice(0, at);
        if (!folderStamps.has(path)) folderStamps.set(path, folderStamp(path));
      }
    }
    irregular = listed.some(({ listing }) => listing.irregular);
    await beforeRead?.();
    const checkExtra = extrasMoved();
    for (const { plugin, shown, found } of listed) {
      for (const file of found) {
        const key = entryKey(plugin.name, file.abs);
        const old = cache.get(key);
        // Stamped by the listing, but on the first load (whose cache is empty).
        if (reusable(old, file as Stamp, checkExtra, () => shown(file.path))) next.set(key, old!);
        else todo.push(job(file, plugin.name, shown(file.path)));
      }
    }
    checkedVersion = extraVersion?.(); // every file kept was checked, every other is read now
    const helped = await readAll(todo, next, first);
    // A new listing warning (a bad link added) is a change too, so it gets logged.
    // Compared as sets: the folders are listed concurrently, so the order may differ between loads.
    const key = (list: Warning[]) => list.map((w) => `${w.file}\n${w.message}`).sort().join("\n");
    const changed = todo.length > 0 || next.size !== cache.size ||
      key(warned) !== key(listingWarnings);
    return finish(next, warned, { read: todo.length, helped, changed, listed: true });
  };

  return {
    foldersChanged: () => foldersChanged(folderStamps),
    async load(paths, reread = false) {
      if (!paths || !listedOnce) return await full();
      // Only the named paths: a changed, added or removed file costs one stat
      // and one read. Anything else (a folder, a link, a plugin folder or one
      // above it, a file that replaced a folder, something that is not a
      // regular file) is listed again in full, which reads only what changed.
      await beforeRead?.();
      const checkExtra = extrasMoved();
      const next = new Map(cache);
      const todo: ReadJob[] = [];
      let removed = false;
      for (const abs of new Set(paths)) {
        // Every plugin whose folder holds the path: their selections may overlap.
        const owners = selectors.filter((s) => abs.startsWith(s.folder));
        if (owners.length === 0) {
          if (selectors.some((s) => s.folder.startsWith(`${abs}/`))) return await full();
          continue; // outside every plugin folder (services.yaml, other files)
        }
        const info = await entryInfo(abs);
        for (const owner of owners) {
          const path = abs.slice(owner.folder.length);
          if (!isContentPath(path)) continue; // editors' swap files, `_drafts/`, `.git/`
          const key = entryKey(owner.plugin.name, abs);
          if (info.kind === "missing") {
            if (next.delete(key)) removed = true;
            else if (holdsUnder(next, owner.plugin.name, abs)) return await full();
            continue;
          }
          if (info.kind !== "file" || holdsUnder(next, owner.plugin.name, abs)) {
            return await full();
          }
          if (!owner.select(path)) continue;
          const shown = contentPath(owner.plugin.path, path);
          if (!reread && reusable(next.get(key), info, checkExtra, () => shown)) continue;
          const found = { path, abs, mtime: info.mtime, size: info.size };
          todo.push(job(found, owner.plugin.name, shown));
        }
      }
      const helped = await readAll(todo, next, false);
      const changed = todo.length > 0 || removed;
      return finish(next, listingWarnings, { read: todo.length, helped, changed, listed: false });
    },
  };
}

/** Whether the loader holds a file of `plugin` below `folder` (a folder that is gone, or now a file). */
function holdsUnder(
  entries: ReadonlyMap<string, unknown>,
  plugin: string,
  folder: string,
): boolean {
  const prefix = entryKey(plugin, `${folder}/`);
  for (const key of entries.keys()) if (key.startsWith(prefix)) return true;
  return false;
}

/**
 * What the loader keeps a file under: its plugin and its path. A file that
 * two plugins select (`pages: { path: . }` beside `docs`) is content of
 * each, read once for each, so which plugin serves it never depends on
 * which read came last.
 */
function entryKey(plugin: string, abs: string): string {
  return `${plugin}\n${abs}`;
}
