import type { ContentConfig } from "../config/types.ts";
import { entryInfo, type Stamp } from "./fs.ts";
import { foldersChanged, type FoundFile } from "./list.ts";
import { listPlugins, pluginSelectors, type PluginsListing } from "./list_plugins.ts";
import type {
  ContentLoader,
  Entry,
  Loaded,
  LoaderHelper,
  LoaderOptions,
  PluginSelection,
} from "./loader_types.ts";
import { isWarning } from "./parse.ts";
import type { Warning } from "./parsed_file.ts";
import { runHelper } from "./worker_pool.ts";
import { readContentFiles, type ReadJob, type ReadResult } from "./read_file.ts";
import { isContentPath } from "./select.ts";
import { contentPath } from "../util/path.ts";

// The loader's types live beside it; they are named here too, where the loader is.
export type { ContentLoader, Entry, Loaded, LoaderHelper, LoaderOptions, PluginSelection };

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
  /** What the last full listing said: its warnings, files left out and skipped. */
  let listing: Pick<PluginsListing, "warnings" | "leftOut" | "skipped"> = {
    warnings: [],
    leftOut: [],
    skipped: new Map(),
  };
  let folderStamps = new Map<string, number>();
  let irregular = false;
  let listedOnce = false;
  /** The `extraVersion` every kept file was last checked against (or read under). */
  let checkedVersion: unknown;
  const selectors = pluginSelectors(config);
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
    counts: { read: number; helped: number; changed: boolean; listed: boolean },
  ): Loaded<T> => {
    cache = next;
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
    const selection = selectors.map(({ plugin: { name } }) => ({
      plugin: name,
      files: (selected.get(name) ?? 0) +
        listing.leftOut.filter((left) => left.plugin === name).length,
      skipped: listing.skipped.get(name) ?? {},
    }));
    return { files, warnings, irregular, leftOut, selection, ...counts };
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
    const todo: ReadJob[] = [];
    const listed = await listPlugins(config.root, selectors, first);
    folderStamps = listed.folders;
    irregular = listed.irregular;
    await beforeRead?.();
    const checkExtra = extrasMoved();
    for (const { selector: { plugin }, files } of listed.found) {
      const shown = (path: string) => contentPath(plugin.path, path);
      for (const file of files) {
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
      key(listed.warnings) !== key(listing.warnings);
    listing = listed;
    return finish(next, { read: todo.length, helped, changed, listed: true });
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
          // Editors' swap files, `_drafts/`, `.git/`.
          if (!isContentPath(path, owner.plugin.generator)) continue;
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
      return finish(next, { read: todo.length, helped, changed, listed: false });
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
