import type { ContentConfig } from "../config/types.ts";
import { entryInfo, type Stamp } from "./fs.ts";
import { foldersChanged, type FoundFile } from "./list.ts";
import { listPlugins, pluginSelectors, type PluginsListing } from "./list_plugins.ts";
import {
  type ContentLoader,
  type Entry,
  type Loaded,
  type LoaderHelper,
  type LoaderOptions,
  type LoadWork,
  NO_WORK,
  type PluginSelection,
  RACY_MS,
  type ReadStamp,
} from "./loader_types.ts";
import { isWarning } from "./parse.ts";
import { runHelper } from "./worker_pool.ts";
import { type StampedFile, stampsKey, warningsKey } from "./stamps_key.ts";
import {
  isSameBytes,
  readContentFiles,
  type ReadJob,
  type ReadResult,
  sameChecksum,
  sameFileSync,
} from "./read_file.ts";
import { isContentPath } from "./select.ts";
import { sameStamp, stampOf } from "./stamp.ts";
import { contentPath } from "../util/path.ts";
import { textWork } from "../util/work_counts.ts";

// The loader's types live beside it; they are named here too, where the loader is.
export type {
  ContentLoader,
  Entry,
  Loaded,
  LoaderHelper,
  LoaderOptions,
  LoadWork,
  PluginSelection,
};
export { NO_WORK, RACY_MS };

/** A load's work as it is counted. */
type Counting = { -readonly [K in keyof LoadWork]: LoadWork[K] };

/** No extras compared yet: the first load compares every file's (a kept file's too). */
const UNCHECKED = Symbol("unchecked");

/**
 * Creates a loader for a configuration. A file is read again only when its
 * size, modification time or inode changed (or it changed too recently for
 * its stamp to be trusted: then its checksum is compared), or what
 * `extraFor` attaches to it (see `extraVersion`, `rebase`); otherwise what
 * `prepare` made of it is reused, in this process or, from `kept`, in the
 * previous one.
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
  const { prepare, helper, extraFor, extraVersion, extrasReady, progress, rebase, restamp, ready } =
    options;
  const sameExtra = options.sameExtra ?? ((a: unknown, b: unknown) => a === b);
  let cache = new Map<string, Entry<T>>();
  /** Entries a previous process kept, as they came (counted when reused). */
  const kept = new WeakSet<Entry<T>>();
  /** Kept entries the first load makes before it lists (`LoaderOptions.kept`). */
  let making = options.kept;
  /** What the last full listing said: its warnings, files left out and skipped. */
  let listing: Pick<PluginsListing, "warnings" | "leftOut" | "skipped" | "unlisted"> = {
    warnings: [],
    leftOut: [],
    skipped: new Map(),
    unlisted: new Map(),
  };
  let folderStamps = new Map<string, number>();
  /** When the listing that gave `folderStamps` began. */
  let listedAt = 0;
  /** The entries' names of its folders changed near it (`PluginsListing.recent`). */
  let recentNames = new Map<string, string>();
  let irregular = false;
  let listedOnce = false;
  /** Loads begun, and those running: a listing's mark (`listingMark`). */
  let loadsBegun = 0;
  let loadsRunning = 0;
  /**
   * A listing made for the next full load, and the mark it was begun at: the caller's before the
   * first load (`LoaderOptions.listed`), or one offered since (`offerListing`).
   */
  let offered: { listed: PluginsListing; mark: number } | undefined = options.listed &&
    { listed: options.listed, mark: 0 };
  /** The `extraVersion` every kept file was last checked against. */
  let checkedVersion: unknown = UNCHECKED;
  /** What the last load gave: a load of named paths that changes nothing gives it again. */
  let lastLoaded: Loaded<T> | undefined;
  const selectors = pluginSelectors(config);
  const folderOf = new Map(selectors.map((s) => [s.plugin.name, s]));
  const shownOf = (entry: Entry<T>) => {
    const selector = folderOf.get(entry.plugin)!;
    return contentPath(selector.plugin.path, entry.abs.slice(selector.folder.length));
  };
  /**
   * What to read of a found file. With `old`, its entry whose stamp changed:
   * bytes still of its checksum are not parsed (`ReadJob.known`), where
   * `restamp` can make its result again for the new modification time.
   */
  const job = (
    found: FoundFile & Partial<Stamp>,
    plugin: string,
    shown: string,
    old?: Entry<T>,
  ): ReadJob => ({
    known: restamp ? old?.checksum : undefined,
    abs: found.abs,
    plugin,
    path: found.path,
    shown,
    mtime: found.mtime,
    size: found.size,
    ino: found.ino,
    ctime: found.ctime,
    maxSize: config.maxFileSize,
    extra: extraFor?.(shown),
  });
  /**
   * Whether a file read before can be reused as it is (`yes`): the same
   * stamp (`stamp.ts`: size, modification time, inode, status change time).
   * One a previous process read, modified within {@link RACY_MS} of that
   * read or after it (a clock that moved back, a time in the future), is
   * `verify`: its checksum says, as the write that followed the read may
   * have left the stamp as it was. (In this process the watcher names such
   * a write, and a request that finds a file's bytes changed has it read
   * again.) With `racy`, one this process read near a change is `verify`
   * too: a listing that catches up with what no watcher saw.
   */
  const reusable = (
    old: Entry<T> | undefined,
    stamp: Stamp,
    racy = false,
  ): "yes" | "verify" | "no" => {
    if (old === undefined || !sameStamp(old, stamp)) return "no";
    if (
      old.checksum !== undefined && (racy || kept.has(old)) && stamp.mtime >= old.readAt - RACY_MS
    ) {
      return "verify";
    }
    return "yes";
  };

  /** The work of one load, counted as it goes. */
  const counter = () => {
    const work: Counting = { ...NO_WORK };
    const parsesBefore = textWork.parses;
    return {
      work,
      done: (): LoadWork => ({ ...work, parses: work.parses + textWork.parses - parsesBefore }),
    };
  };

  const finish = (
    next: Map<string, Entry<T>>,
    counts: { read: number; helped: number; changed: boolean; listed: boolean },
    work: LoadWork,
  ): Loaded<T> => {
    const previous = cache;
    cache = next;
    if (options.settled) {
      const changed: Entry<T>[] = [];
      const removed: Entry<T>[] = [];
      for (const [key, entry] of next) if (previous.get(key) !== entry) changed.push(entry);
      for (const [key, entry] of previous) if (!next.has(key)) removed.push(entry);
      if (changed.length > 0 || removed.length > 0) options.settled(changed, removed);
    }
    const warnings = [...listing.warnings];
    const files: T[] = [];
    const leftOut = [...listing.leftOut];
    const selected = new Map<string, number>();
    for (const { plugin, result } of next.values()) {
      selected.set(plugin, (selected.get(plugin) ?? 0) + 1);
      if (!isWarning(result)) files.push(result);
      else {
        warnings.push(result);
        // Every warning a read gives names its reason (read_file.ts).
        if (result.reason) leftOut.push({ plugin, file: result.file, reason: result.reason });
      }
    }
    const selection = selectors.map(({ plugin: { name } }) => {
      const unlisted = listing.unlisted.get(name);
      return {
        plugin: name,
        files: (selected.get(name) ?? 0) +
          listing.leftOut.filter((left) => left.plugin === name).length,
        skipped: listing.skipped.get(name) ?? {},
        ...(unlisted ? { unlisted } : {}),
      };
    });
    return lastLoaded = { files, warnings, irregular, leftOut, selection, work, ...counts };
  };

  /**
   * The entry `old` with the stamp of a read that found its bytes the same
   * (`ReadJob.known`): what was made of them kept, its dates made again for
   * the new modification time (`restamp`), counted as checked, not derived.
   */
  const restamped = (
    read: ReadResult,
    old: Entry<T>,
    shown: string,
    work: Counting,
  ): Entry<T> => {
    work.verified++;
    if (kept.has(old)) work.fromCache++;
    const { mtime, size, ino, ctime, readAt } = read;
    const result = isWarning(old.result)
      ? old.result
      : restamp!(old.result, mtime, old.extra, shown);
    return { ...old, mtime, size, ino, ctime, readAt, result };
  };

  /** Reads the jobs into `next`, sharing a large first load with the helper. */
  const readAll = async (
    todo: readonly ReadJob[],
    next: Map<string, Entry<T>>,
    blocking: boolean,
    work: Counting,
  ): Promise<number> => {
    if (todo.length === 0) return 0;
    await ready?.();
    let cursor = 0;
    let done = 0;
    const store = (entry: Entry<T>, derived = !isWarning(entry.result)) => {
      next.set(entryKey(entry.plugin, entry.abs), entry);
      if (derived) work.derived++;
      if (progress && (++done % 256 === 0 || done === todo.length)) progress(done, todo.length);
    };
    const readHere = (read: ReadResult, { shown, extra }: ReadJob) => {
      const result = read.result;
      if (isSameBytes(result)) {
        return store(
          restamped(read, cache.get(entryKey(read.plugin, read.abs))!, shown, work),
          false,
        );
      }
      store(
        isWarning(result)
          ? { ...read, result }
          : { ...read, result: prepare(result, shown, extra), extra },
      );
    };
    const one = () => cursor < todo.length ? todo[cursor++] : undefined;
    const take = (count: number) => todo.slice(cursor, cursor += count);
    const helped = helper && todo.length >= (helper.from ?? 1000) &&
      coreCount() >= (helper.cores ?? 4);
    const [, byHelper] = await Promise.all([
      readContentFiles(one, readHere, blocking),
      helped ? runHelper(helper, take, store, readHere) : { read: 0, parses: 0 },
    ]);
    work.parses += byHelper.parses;
    return byHelper.read;
  };

  /**
   * Once the extras have settled, every entry whose extra is another now
   * (when they moved since the last check): made again with it by `rebase`,
   * or read again. Returns how many entries changed their result.
   */
  const settleExtras = async (
    next: Map<string, Entry<T>>,
    blocking: boolean,
    work: Counting,
  ): Promise<{ changed: number; helped: number }> => {
    if (!extraFor) return { changed: 0, helped: 0 };
    await extrasReady?.();
    const version = extraVersion?.();
    if (extraVersion !== undefined && version === checkedVersion) return { changed: 0, helped: 0 };
    checkedVersion = extraVersion === undefined ? UNCHECKED : version;
    const again: ReadJob[] = [];
    let changed = 0;
    const moved = extraVersion === undefined ? undefined : options.movedExtras?.();
    for (const [key, entry] of moved === undefined ? next : entriesAt(moved, next)) {
      if (isWarning(entry.result)) continue;
      const shown = shownOf(entry);
      const extra = extraFor(shown);
      if (sameExtra(entry.extra, extra)) continue;
      if (rebase) {
        const result = rebase(entry.result, extra, shown);
        if (result !== entry.result) {
          changed++;
          work.rebased++;
        }
        next.set(key, { ...entry, result, extra });
      } else {
        const selector = folderOf.get(entry.plugin)!;
        again.push(
          job(
            { abs: entry.abs, path: entry.abs.slice(selector.folder.length) },
            entry.plugin,
            shown,
          ),
        );
      }
    }
    if (again.length === 0) return { changed, helped: 0 };
    work.read += again.length;
    const helped = await readAll(again, next, blocking, work);
    return { changed: changed + again.length, helped };
  };

  /**
   * The entries of `next` at the paths `shown` (relative to the content
   * root): each plugin's whose folder holds the path.
   */
  function* entriesAt(
    shown: ReadonlySet<string>,
    next: ReadonlyMap<string, Entry<T>>,
  ): Generator<[string, Entry<T>]> {
    for (const path of shown) {
      const abs = `${config.root}/${path}`;
      for (const { plugin, folder } of selectors) {
        if (!abs.startsWith(folder)) continue;
        const key = entryKey(plugin.name, abs);
        const entry = next.get(key);
        if (entry !== undefined) yield [key, entry];
      }
    }
  }

  /** Compares checksums of the files whose stamps are too recent to trust: those that differ are read. */
  const verifyAll = async (
    verify: readonly { key: string; old: Entry<T>; job: ReadJob }[],
    next: Map<string, Entry<T>>,
    todo: ReadJob[],
    blocking: boolean,
    work: Counting,
  ) => {
    for (const { key, old, job } of verify) {
      work.verified++;
      work.read++;
      const readAt = Date.now();
      if (await sameChecksum(old.abs, old.checksum!, config.maxFileSize, blocking)) {
        if (kept.has(old)) work.fromCache++;
        next.set(key, { ...old, readAt });
      } else todo.push(job);
    }
  };

  /** A listing of everything; with `racy`, files read near a change are compared by checksum. */
  const full = async (racy = false, given?: PluginsListing): Promise<Loaded<T>> => {
    if (making) {
      const make = making;
      making = undefined;
      for (const entry of await make()) {
        cache.set(entryKey(entry.plugin, entry.abs), entry);
        kept.add(entry);
      }
    }
    // The first load blocks on its I/O (nothing is served before it ends);
    // with nothing to compare with (no kept entries), each read stats its own file.
    const first = !listedOnce && options.blockingFirstLoad !== false;
    listedOnce = true;
    const { work, done } = counter();
    const next = new Map<string, Entry<T>>();
    const todo: ReadJob[] = [];
    const verify: { key: string; old: Entry<T>; job: ReadJob }[] = [];
    const stamp = !first || cache.size > 0;
    // The check's listing as it is: what changed since it (before the watch began) is found by
    // the service's catch-up, a listing once the first index is served (`live.ts`). The
    // catch-up's own listing, where it found a change, as it is too: the watch began before it.
    const listed = given ?? await listPlugins(config.root, selectors, { blocking: first, stamp });
    folderStamps = listed.folders;
    listedAt = listed.listedAt;
    recentNames = listed.recent;
    irregular = listed.irregular;
    for (const { selector: { plugin }, files } of listed.found) {
      if (stamp) work.stated += files.length;
      for (const file of files) {
        const key = entryKey(plugin.name, file.abs);
        const old = cache.get(key);
        const shown = () => contentPath(plugin.path, file.path);
        // Stamped by the listing, but on a first load with nothing kept (whose cache is empty).
        const reuse = stamp ? reusable(old, file as Stamp, racy) : "no";
        if (reuse === "yes") {
          next.set(key, old!);
          if (kept.has(old!)) work.fromCache++;
        } else if (reuse === "verify") {
          verify.push({ key, old: old!, job: job(file, plugin.name, shown()) });
        } else todo.push(job(file, plugin.name, shown(), old));
      }
    }
    await verifyAll(verify, next, todo, first, work);
    if (!stamp) work.stated += todo.length; // each read stats its own file
    work.read += todo.length;
    let helped = await readAll(todo, next, first, work);
    const extras = await settleExtras(next, first, work);
    helped += extras.helped;
    // A new listing warning (a bad link added) is a change too, so it gets logged.
    // Compared as sets: the folders are listed concurrently, so the order may differ between loads.
    const changed = todo.length > 0 || extras.changed > 0 || next.size !== cache.size ||
      warningsKey(listed.warnings) !== warningsKey(listing.warnings);
    listing = listed;
    return finish(next, { read: work.read, helped, changed, listed: true }, done());
  };

  /**
   * What the last load holds, when a restart may take every file as its
   * stamp says (`stampsKey`, `readStamps`): `undefined` before a first load,
   * or when a file was read within its stamp's resolution of a change, or
   * not read at all (the next load looks at it again).
   */
  const trustedEntries = () => {
    if (!listedOnce) return undefined;
    for (const entry of cache.values()) {
      if (!Number.isFinite(entry.mtime)) return undefined;
      if (entry.checksum !== undefined && entry.mtime >= entry.readAt - RACY_MS) return undefined;
    }
    return cache;
  };

  /** A load (`ContentLoader.load`). */
  const loadNow = async (
    paths: readonly string[] | undefined,
    reread = false,
    given?: PluginsListing,
  ): Promise<Loaded<T>> => {
    if (!paths || !listedOnce) return await full(reread && listedOnce, given);
    // Only the named paths: a changed, added or removed file costs one stat
    // and one read. Anything else (a folder, a link, a plugin folder or one
    // above it, a file that replaced a folder, something that is not a
    // regular file) is listed again in full, which reads only what changed.
    const { work, done } = counter();
    // The entries after this load: a copy of the last load's, made at the first change (a
    // watcher's event for a file a request already had read again changes nothing, and at
    // 100,000 files the copy and `finish` were 200 ms of such a load).
    let changes: Map<string, Entry<T>> | undefined;
    const entries = () => changes ?? cache;
    const todo: ReadJob[] = [];
    const verify: { key: string; old: Entry<T>; job: ReadJob }[] = [];
    let removed = false;
    for (const abs of new Set(paths)) {
      // Every plugin whose folder holds the path: their selections may overlap.
      const owners = selectors.filter((s) => abs.startsWith(s.folder));
      if (owners.length === 0) {
        if (selectors.some((s) => s.folder.startsWith(`${abs}/`))) return await full();
        continue; // outside every plugin folder (services.yaml, other files)
      }
      const info = await entryInfo(abs);
      work.stated++;
      for (const owner of owners) {
        const path = abs.slice(owner.folder.length);
        // Editors' swap files, `_drafts/`, `.git/`.
        if (!isContentPath(path, owner.plugin.generator)) continue;
        const key = entryKey(owner.plugin.name, abs);
        if (info.kind === "missing") {
          if (entries().has(key)) {
            (changes ??= new Map(cache)).delete(key);
            removed = true;
          } else if (holdsUnder(entries(), owner.plugin.name, abs)) return await full();
          continue;
        }
        if (info.kind !== "file" || holdsUnder(entries(), owner.plugin.name, abs)) {
          return await full();
        }
        if (!owner.select(path)) continue;
        const shown = contentPath(owner.plugin.path, path);
        const found = { path, abs, ...stampOf(info) };
        const old = entries().get(key);
        const reuse = reread ? "no" : reusable(old, info);
        if (reuse === "yes") continue;
        if (reuse === "verify") {
          verify.push({ key, old: old!, job: job(found, owner.plugin.name, shown) });
        } else todo.push(job(found, owner.plugin.name, shown, reread ? undefined : old));
      }
    }
    // Nothing to read, remove or check, and git's dates where they were: the last load again.
    const extrasStill = !extraFor ||
      (extraVersion !== undefined && extraVersion() === checkedVersion);
    if (
      lastLoaded && !removed && todo.length === 0 && verify.length === 0 && extrasStill
    ) {
      return { ...lastLoaded, read: 0, helped: 0, changed: false, listed: false, work: done() };
    }
    const next = changes ?? new Map(cache);
    await verifyAll(verify, next, todo, false, work);
    work.read += todo.length;
    let helped = await readAll(todo, next, false, work);
    const extras = await settleExtras(next, false, work);
    helped += extras.helped;
    const changed = todo.length > 0 || removed || extras.changed > 0;
    return finish(next, { read: work.read, helped, changed, listed: false }, done());
  };

  return {
    foldersChanged: () => foldersChanged(folderStamps),
    stampsKey() {
      const entries = trustedEntries();
      if (!entries) return undefined;
      const files: StampedFile[] = [];
      for (const [key, entry] of entries) {
        files.push({ key, ...stampOf(entry) });
      }
      return stampsKey(files, listing.warnings);
    },
    settleRacy(limit) {
      if (!listedOnce) return false;
      const racy: [string, Entry<T>][] = [];
      for (const [key, entry] of cache) {
        if (!Number.isFinite(entry.mtime)) return false;
        if (entry.checksum === undefined || entry.mtime < entry.readAt - RACY_MS) continue;
        if (racy.length === limit) return false;
        racy.push([key, entry]);
      }
      const settled: Entry<T>[] = [];
      for (const [key, entry] of racy) {
        // Taken before the read: a write after it gives a time after this one.
        const readAt = Date.now();
        // Still near its change (or stamped in the future): its stamp cannot tell a later write.
        if (entry.mtime >= readAt - RACY_MS) continue;
        if (!sameFileSync(entry, config.maxFileSize)) continue;
        const now = { ...entry, readAt };
        cache.set(key, now);
        settled.push(now);
      }
      // The derivation cache keeps the new reading times, for the next process.
      if (settled.length > 0) options.settled?.(settled, []);
      return settled.length === racy.length;
    },
    readStamps() {
      const entries = trustedEntries();
      if (!entries) return undefined;
      const files: ReadStamp[] = [];
      for (const entry of entries.values()) {
        files.push({ abs: entry.abs, ...stampOf(entry) });
      }
      return {
        folders: folderStamps,
        listedAt,
        recent: recentNames,
        warned: listing.warnings.length > 0 || listing.unlisted.size > 0,
        files,
      };
    },
    listingMark: () => loadsRunning === 0 ? loadsBegun : undefined,
    offerListing(listed, mark) {
      offered = { listed, mark };
    },
    dropListing() {
      offered = undefined;
    },
    async load(paths, reread) {
      // A listing offered before a load began since is older than what that load found; a load
      // of named paths (a watcher's: changes after the listing, perhaps) lists on its own.
      const given = paths === undefined && offered?.mark === loadsBegun
        ? offered.listed
        : undefined;
      offered = undefined;
      loadsBegun++;
      loadsRunning++;
      try {
        return await loadNow(paths, reread, given);
      } finally {
        loadsRunning--;
      }
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

/**
 * Lists a configuration's content with a stat of every file, as a load
 * does, and gives the digest {@link ContentLoader.stampsKey} gives for the
 * same files and stamps (SPEC 17: a restart that finds it equal to the one
 * kept at the stop knows no content file changed meanwhile), and the
 * listing (a loader's first load takes it: `LoaderOptions.listed`).
 * Blocking by default: for a start, before anything is served; a serving
 * server lists with `blocking` false.
 *
 * @example
 * ```ts
 * import { listedStampsKey } from "./loader.ts";
 * import { loadConfigFile } from "../config/load.ts";
 * const { key } = await listedStampsKey(await loadConfigFile("content/services.yaml"));
 * ```
 */
export async function listedStampsKey(
  config: ContentConfig,
  blocking = true,
): Promise<{ key: string | undefined; listed: PluginsListing }> {
  const listed = await listPlugins(config.root, pluginSelectors(config), { blocking, stamp: true });
  const files: StampedFile[] = [];
  for (const { selector: { plugin }, files: found } of listed.found) {
    for (const file of found) {
      const { mtime, size, ino, ctime } = file;
      if (mtime === undefined || size === undefined || ino === undefined || ctime === undefined) {
        return { key: undefined, listed };
      }
      files.push({ key: entryKey(plugin.name, file.abs), size, mtime, ino, ctime });
    }
  }
  return { key: stampsKey(files, listed.warnings), listed };
}

/** The cores the runtime says it may use (1 where it does not say). */
function coreCount(): number {
  return (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator
    ?.hardwareConcurrency ?? 1;
}
