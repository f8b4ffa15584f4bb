import type { ContentConfig } from "../config.ts";
import { fileSelector, isContentPath } from "../index/tree.ts";
import { PLUGINS } from "../plugins.ts";
import {
  entryInfo,
  foldersChanged,
  folderStamp,
  type FoundFile,
  listFiles,
  type Stamp,
  stampAll,
} from "./fs.ts";
import { isWarning } from "./parse.ts";
import type { IndexedFile, Warning } from "./parsed_file.ts";
import { readContentFiles, type ReadJob, type ReadResult } from "./read_file.ts";
import type { HelperBatch, HelperReply } from "./read_worker.ts";
import { rememberDerived, textless } from "../item/derived.ts";

/** One load of the content folder: the files that parsed, and what went wrong. */
export interface Loaded {
  /** Parsed files, or with `keepText: false` the files without their text (fields derived). */
  readonly files: IndexedFile[];
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
export interface ContentLoader {
  /**
   * Lists every plugin folder and reads the files that are new or changed
   * since the last load; with `paths` (absolute, from a watcher), looks at
   * only those, falling back to the full listing for folders and links.
   * With `reread`, the named files are read even when their size and
   * modification time did not change (a request found their bytes changed).
   */
  load(paths?: readonly string[], reread?: boolean): Promise<Loaded>;
  /**
   * Whether a folder of the last listing changed since (an entry added,
   * removed or renamed in it, or the folder gone): a listing is due.
   */
  foldersChanged(): boolean;
}

/** How the loader reads; the defaults suit a server. */
export interface LoaderOptions {
  /**
   * A load that reads at least this many files shares them with a helper
   * Web Worker (a second core), where the runtime has `Worker` (Deno, Bun;
   * not Node, which reads on the main thread). Default 1,000.
   */
  readonly helperFrom?: number;
  /**
   * Keep each file's front matter and body (`true`, a `ParsedFile`),
   * or derive the file's fields as it is read and keep only what the index
   * needs (`false`, an {@link IndexedFile}): the text of every file is most
   * of what an index would hold, and a server reads a body again when a
   * request needs it. Default `true`.
   */
  readonly keepText?: boolean;
}

/** Files a message to the helper carries: large enough that messaging is a small share. */
const BATCH = 128;

/**
 * Creates a loader for a configuration. A file is read again only when its
 * modification time or size changed; otherwise its parsed form is reused.
 *
 * @example
 * ```ts
 * import { createLoader } from "./loader.ts";
 * import { loadConfigFile } from "../load_config.ts";
 * const loader = createLoader(await loadConfigFile("content/services.yaml"));
 * const { files, warnings } = await loader.load();
 * ```
 */
export function createLoader(config: ContentConfig, options: LoaderOptions = {}): ContentLoader {
  const helperFrom = options.helperFrom ?? 1000;
  const keepText = options.keepText ?? true;
  let cache = new Map<string, Entry>();
  let listingWarnings: Warning[] = [];
  let folderStamps = new Map<string, number>();
  let irregular = false;
  const selectors = config.plugins.map((plugin) => ({
    plugin,
    folder: `${config.root}/${plugin.path}/`,
    select: fileSelector(PLUGINS[plugin.name], plugin),
  }));

  const finish = (
    next: Map<string, Entry>,
    listing: Warning[],
    read: number,
    helped: number,
    changed: boolean,
    listed: boolean,
  ): Loaded => {
    cache = next;
    listingWarnings = listing;
    const warnings = [...listing];
    const files: IndexedFile[] = [];
    for (const { result } of next.values()) {
      if (isWarning(result)) warnings.push(result);
      else files.push(result);
    }
    return { files, warnings, read, helped, changed, listed, irregular };
  };

  let listedOnce = false;
  const full = async (): Promise<Loaded> => {
    // The first load blocks on its I/O (nothing is served before it ends) and
    // has nothing to compare with, so each read stats its own file.
    const first = !listedOnce;
    listedOnce = true;
    const next = new Map<string, Entry>();
    const warned: Warning[] = [];
    const todo: ReadJob[] = [];
    const listed = await Promise.all(selectors.map(async ({ plugin, folder, select }) => {
      const shown = (path: string) => `${plugin.path}/${path}`;
      const left = (path: string, reason: string) =>
        warned.push({ file: shown(path), message: `${reason}; left out` });
      const listing = await listFiles(config.root, folder.slice(0, -1), select, left, first);
      const found: (FoundFile & Partial<Stamp>)[] = first
        ? listing.files
        : await stampAll(listing.files, (file, code) => left(file.path, code));
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
    for (const { plugin, shown, found } of listed) {
      for (const file of found) {
        const old = cache.get(file.abs);
        if (old && old.mtime === file.mtime && old.size === file.size) next.set(file.abs, old);
        else todo.push(job(file, plugin.name, shown(file.path), config.maxFileSize));
      }
    }
    const helped = await readAll(todo, next, todo.length >= helperFrom, first, keepText);
    // A new listing warning (a bad link added) is a change too, so it gets logged.
    // Compared as sets: the folders are listed concurrently, so the order may differ between loads.
    const key = (list: Warning[]) => list.map((w) => `${w.file}\n${w.message}`).sort().join("\n");
    const changed = todo.length > 0 || next.size !== cache.size ||
      key(warned) !== key(listingWarnings);
    return finish(next, warned, todo.length, helped, changed, true);
  };

  return {
    foldersChanged: () => foldersChanged(folderStamps),
    async load(paths, reread = false) {
      if (!paths || !listedOnce) return await full();
      // Only the named paths: a changed, added or removed file costs one stat
      // and one read. Anything else (a folder, a link, a plugin folder or one
      // above it, a file that replaced a folder, something that is not a
      // regular file) is listed again in full, which reads only what changed.
      const next = new Map(cache);
      const todo: ReadJob[] = [];
      let removed = false;
      for (const abs of new Set(paths)) {
        const owner = selectors.find((s) => abs.startsWith(s.folder));
        if (!owner) {
          if (selectors.some((s) => s.folder.startsWith(`${abs}/`))) return await full();
          continue; // outside every plugin folder (services.yaml, other files)
        }
        const path = abs.slice(owner.folder.length);
        if (!isContentPath(path)) continue; // editors' swap files, `_drafts/`, `.git/`
        const info = await entryInfo(abs);
        if (info.kind === "missing") {
          if (next.delete(abs)) removed = true;
          else if (holdsUnder(next, abs)) return await full();
          continue;
        }
        if (info.kind !== "file" || holdsUnder(next, abs)) return await full();
        if (!owner.select(path)) continue;
        const old = next.get(abs);
        if (!reread && old && old.mtime === info.mtime && old.size === info.size) continue;
        const found = { path, abs, mtime: info.mtime, size: info.size };
        todo.push(
          job(found, owner.plugin.name, `${owner.plugin.path}/${path}`, config.maxFileSize),
        );
      }
      const helped = await readAll(todo, next, todo.length >= helperFrom, false, keepText);
      const changed = todo.length > 0 || removed;
      return finish(next, listingWarnings, todo.length, helped, changed, false);
    },
  };
}

/** Whether the loader holds a file below `folder` (a folder that is gone, or now a file). */
function holdsUnder(entries: ReadonlyMap<string, unknown>, folder: string): boolean {
  const prefix = `${folder}/`;
  for (const abs of entries.keys()) if (abs.startsWith(prefix)) return true;
  return false;
}

/** A read file as the loader keeps it: with its text, or without (`keepText: false`). */
type Entry = Omit<ReadResult, "result"> & { readonly result: IndexedFile | Warning };

const job = (
  found: FoundFile & Partial<Stamp>,
  plugin: string,
  shown: string,
  maxSize: number,
): ReadJob => ({
  abs: found.abs,
  plugin,
  path: found.path,
  shown,
  mtime: found.mtime,
  size: found.size,
  maxSize,
});

/**
 * Reads, hashes and parses files into `next`: 32 at a time on this thread
 * and, when `helped`, in batches on a helper worker that takes them from the
 * same queue, so each side does as much as it gets through.
 *
 * Resolves with how many files the helper read.
 *
 * @param blocking read with blocking calls on this thread too (nothing is served yet)
 */
async function readAll(
  todo: readonly ReadJob[],
  next: Map<string, Entry>,
  helped: boolean,
  blocking: boolean,
  keepText: boolean,
): Promise<number> {
  let cursor = 0;
  const store = (entry: Entry) => next.set(entry.abs, entry);
  const read = (result: ReadResult, job: ReadJob) =>
    store(
      keepText || isWarning(result.result)
        ? result
        : { ...result, result: textless(result.result, job.shown) },
    );
  const take = (count: number) => todo.slice(cursor, cursor += count);
  const one = () => cursor < todo.length ? todo[cursor++] : undefined;
  const [, byHelper] = await Promise.all([
    readContentFiles(one, read, blocking),
    helped ? helper(take, store, read, keepText) : 0,
  ]);
  return byHelper;
}

/**
 * Runs batches from `take` on a helper Web Worker until `take` runs dry,
 * two in flight so the worker never waits on this thread, and resolves with
 * how many files it read. Without `Worker` it does nothing; if the worker
 * fails, its batches in flight are read here. The worker ends with the
 * load: it holds nothing between loads.
 */
function helper(
  take: (count: number) => readonly ReadJob[],
  store: (entry: Entry) => void,
  readHere: (result: ReadResult, job: ReadJob) => void,
  keepText: boolean,
): Promise<number> {
  let worker: Worker;
  try {
    worker = new Worker(new URL("./read_worker.ts", import.meta.url), { type: "module" });
  } catch {
    return Promise.resolve(0); // no Worker here (Node), or it may not start one (an edge runtime)
  }
  let read = 0;
  return new Promise((resolve) => {
    const pending = new Map<number, readonly ReadJob[]>();
    let id = 0;
    const send = () => {
      const jobs = take(BATCH);
      if (jobs.length === 0) return;
      pending.set(++id, jobs);
      worker.postMessage({ id, jobs, keepText } satisfies HelperBatch);
    };
    const end = () => {
      worker.terminate();
      resolve(read);
    };
    worker.onmessage = ({ data }: MessageEvent<HelperReply>) => {
      pending.delete(data.id);
      for (const { derived, ...result } of data.results) {
        if (derived) rememberDerived(result.result as IndexedFile, derived);
        store(result);
      }
      read += data.results.length;
      send();
      if (pending.size === 0) end();
    };
    worker.onerror = worker.onmessageerror = (event: Event) => {
      event.preventDefault();
      worker.terminate();
      const left = [...pending.values()].flat();
      pending.clear();
      let i = 0;
      readContentFiles(() => left[i++], readHere).then(() => resolve(read));
    };
    send();
    send();
    if (pending.size === 0) end();
  });
}
