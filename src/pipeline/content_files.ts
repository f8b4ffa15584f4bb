import type { ContentConfig } from "../config/types.ts";
import type { PageContext } from "../fields/page.ts";
import { type IndexedFile, redateFile, restampFile, withNames } from "../fields/indexed_file.ts";
import type { NameSlug } from "../fields/names.ts";
import type { ReadWorkerData } from "./read_worker.ts";
import { codeVersion } from "../source/code_version.ts";
import { nextTurn } from "../util/next_turn.ts";
import {
  type CommitDates,
  createGitTracker,
  type GitRefresh,
  gitStateKey,
  type GitTracker,
  inWorkTree,
} from "../source/git.ts";
import { createLoader, type Entry, listedStampsKey, type Loaded } from "../source/loader.ts";
import type { PluginsListing } from "../source/list_plugins.ts";
import { joinKeys } from "../source/stamps_key.ts";
import { type GitVouch, vouchAtStop } from "../source/git_vouch.ts";
import {
  type CachedFileRow,
  type CacheWrite,
  type DerivationCache,
  entryOf,
  partOf,
  pluginFingerprint,
  rowOf,
} from "./derivation_cache.ts";

/** A loader of a configuration's content, its fields derived: the pipeline's source (`pipeline.ts`). */
export interface ContentFilesLoader {
  /** Loads what changed (see `createLoader`), with commit dates where the content is in git. */
  load(paths?: readonly string[], reread?: boolean): Promise<Loaded<IndexedFile>>;
  /** Whether a folder of the last listing changed since. */
  foldersChanged(): boolean;
  /**
   * Writes what the loads since the last flush changed to the derivation
   * cache, if there is one: at most `limit` files (default: all) in one
   * transaction. Returns whether more are left to write.
   */
  flush(limit?: number): boolean;
  /**
   * What the last load was made from, for a restart to compare with
   * {@link currentFilesKey} (SPEC 17): every file's stamp, the listing's
   * warnings, and what git's dates were read from. `undefined` when some
   * file must be looked at again whatever its stamp.
   */
  restartKey(): string | undefined;
  /**
   * What git vouches for in the last load's content (`git_vouch.ts`), for a
   * restart's check that stats only what git does not vouch for; `undefined`
   * without git, while a refresh is under way, or where git vouches for nothing.
   * Runs git's processes to their end: called once, as the server stops.
   */
  gitVouch(): GitVouch | undefined;
  /**
   * Reads again the files the last load read near a change, so that their
   * stamps vouch for it (`ContentLoader.settleRacy`): at most `limit` (default
   * {@link RACY_SETTLE_LIMIT}). Returns whether none is left. For a stopping
   * server, before its last flush (the cache keeps their new reading times).
   */
  settleRacy(limit?: number): boolean;
  /** Where a listing begun now stands among the loads (`ContentLoader.listingMark`). */
  listingMark(): number | undefined;
  /** A listing for the next full load, begun at `mark` (`ContentLoader.offerListing`). */
  offerListing(listed: PluginsListing, mark: number): void;
  /** Drops a listing offered and not yet taken (`ContentLoader.dropListing`). */
  dropListing(): void;
}

/**
 * The most files read near a change that a stopping server reads again (about
 * a tenth of a second): a checkout or a pull just before a start leaves tens or
 * hundreds of them, and without the reading the next start cannot serve the
 * kept feed before its index (SPEC 17).
 */
export const RACY_SETTLE_LIMIT = 1000;

/** How {@link createContentFilesLoader} keeps files. */
export interface ContentFilesOptions {
  /** Keep each file's body (a snapshot) or let it go (a server, which reads it again). */
  readonly keepBody: boolean;
  /** Shares author and tag objects between files. */
  readonly shareNames?: (list: readonly NameSlug[]) => readonly NameSlug[];
  /** Told how many files of a load are read so far, and of how many. */
  readonly progress?: (read: number, total: number) => void;
  /** What each plugin's generator and variant say of its files' pages (SPEC 16), by plugin name. */
  readonly pages?: Readonly<Record<string, PageContext>>;
  /**
   * The state folder's derivation cache (SPEC 17): a first load starts
   * from what it kept, and each load's changes are written to it (by
   * `flush`). Without it every start derives every file.
   */
  readonly cache?: DerivationCache;
  /** Where news of the cache and of git's history goes (a cache rebuilt, a history read again). */
  readonly notice?: (message: string) => void;
  /** The cores a first load needs to share its files with the helper (see `LoaderHelper.cores`). */
  readonly helperCores?: number;
  /** Whether the first load blocks on its I/O (see `LoaderOptions.blockingFirstLoad`). */
  readonly blockingFirstLoad?: boolean;
  /** A listing made just before, for the first load (see `LoaderOptions.listed`). */
  readonly listed?: PluginsListing;
}

/**
 * A loader that derives each file's fields as it reads it (on this thread or
 * the start-up helper's), with the plugin's authors file and the file's
 * commit dates (SPEC 4): git's history is read while the files are, and a
 * file is dated once it has answered, without being read again; later loads
 * ask git only for the commits since and what changed in the work tree
 * (config `git: false` turns it off). A file whose dates changed is dated
 * again though its bytes did not change (a commit, an amend). A shallow
 * clone gives no first-commit dates, and one warning. With a derivation
 * cache, a first load reads and derives only the files that changed since
 * the cache was written, and git answers only for the commits since.
 *
 * @example
 * ```ts
 * import { createContentFilesLoader } from "./content_files.ts";
 * import { loadConfigFile } from "../config/load.ts";
 * const loader = createContentFilesLoader(await loadConfigFile("content/services.yaml"), {
 *   keepBody: false,
 * });
 * const { files } = await loader.load();
 * ```
 */
export function createContentFilesLoader(
  config: ContentConfig,
  options: ContentFilesOptions,
): ContentFilesLoader {
  const { keepBody, shareNames, progress, pages } = options;
  const notice = options.notice ?? (() => {});
  const authorNames = Object.fromEntries(
    config.plugins.flatMap((p) => p.authorNames ? [[p.name, p.authorNames]] : []),
  );
  const root = `${config.root}/`;
  let cache = options.cache;
  let opened;
  if (cache) {
    try {
      const plugins = Object.fromEntries(config.plugins.map((plugin) => [
        plugin.name,
        pluginFingerprint(plugin, pages?.[plugin.name], {
          keepBody,
          maxFileSize: config.maxFileSize,
        }),
      ]));
      opened = cache.open({ version: codeVersion(), root: config.root, plugins });
      if (opened.dropped) {
        notice(`the derivation cache was rebuilt: ${opened.dropped}; every file is derived again`);
      }
    } catch (error) {
      cache = undefined;
      notice(
        `the derivation cache cannot be read (${
          (error as Error).message
        }); every file is derived, and none is kept`,
      );
    }
  }
  const tracker: GitTracker | undefined = config.git
    ? createGitTracker(config.root, opened?.git)
    : undefined;
  /** The refresh of git's dates under way for the load under way. */
  let refreshing: Promise<GitRefresh> | undefined;
  /**
   * The files whose dates the refreshes since the loader last asked may
   * have moved (`LoaderOptions.movedExtras`); `undefined`: any (before the
   * first, and after a refresh that read the whole history).
   */
  let moved: Set<string> | undefined;
  /** A refresh whose files are noted as moved once it answers, before the loader compares. */
  const refreshed = (refresh: Promise<GitRefresh>) =>
    refresh.then((found) => {
      if (found.changed === "all") moved = undefined;
      else if (moved) { for (const path of found.changed) moved.add(path); }
      return found;
    });
  const prefixOf = new Map(config.plugins.map((plugin) => [plugin.name, plugin.path]));
  const keptParts = opened?.parts ?? [];
  // Made on the first load, a part at a time; a start that serves its kept feed meanwhile
  // answers the requests that came between parts (made at once, the rows held the thread
  // 50-70 ms at 10,000 files, and their parsing 100-250 ms more).
  const kept = keptParts.length === 0 ? undefined : async () => {
    const entries: Entry<IndexedFile>[] = [];
    for (const part of keptParts) {
      for (const row of part()) {
        const entry = entryOf(row, config.root, prefixOf);
        if (entry) entries.push(adopt(entry));
      }
      if (options.blockingFirstLoad === false) await nextTurn();
    }
    return entries;
  };
  function adopt(entry: Entry<IndexedFile>): Entry<IndexedFile> {
    const result = entry.result;
    if (!shareNames || !("fields" in result)) return entry;
    return { ...entry, result: withNames(result, shareNames) };
  }

  // What the loads since the last flush changed: entries by key (`null`: removed), made rows
  // only when flushed (after the first response), and git's history.
  const rows = new Map<string, Entry<IndexedFile> | null>();
  let gitWrite: true | undefined;
  let writtenHistory = opened?.git;

  /**
   * The deriving code (the Markdown parser, the generators' rules): loaded
   * at the first file to derive, so a start that takes every file from the
   * cache never loads it (SPEC 17).
   */
  let derive: typeof import("../fields/index_file.ts") | undefined;
  const loader = createLoader<IndexedFile>(config, {
    ready: async () => {
      derive ??= await import("../fields/index_file.ts");
    },
    prepare: (parsed, shown, extra) =>
      derive!.indexFile(parsed, shown, {
        keepBody,
        shareNames,
        context: {
          authorNames: authorNames[parsed.plugin],
          git: extra as CommitDates | undefined,
          ...pages?.[parsed.plugin],
        },
      }),
    extraFor: tracker ? (shown) => tracker.dates(shown) : undefined,
    // A commit, amend, rebase or checkout changes a file's dates, not its
    // bytes: such a file is dated again (SPEC 10, convergence).
    extraVersion: tracker ? () => tracker.version : undefined,
    extrasReady: () => refreshing,
    movedExtras: () => {
      const taken = moved;
      moved = new Set();
      return taken;
    },
    sameExtra: (a, b) => {
      const x = a as CommitDates | undefined, y = b as CommitDates | undefined;
      return x === y || (x !== undefined && y !== undefined && x.first === y.first &&
        x.last === y.last);
    },
    rebase: (file, extra, shown) =>
      redateFile(
        file,
        extra as CommitDates | undefined,
        shown,
        pages?.[file.plugin],
        derive?.withPage,
      ),
    restamp: (file, mtime, extra, shown) =>
      restampFile(
        file,
        mtime,
        extra as CommitDates | undefined,
        shown,
        pages?.[file.plugin],
        derive?.withPage,
      ),
    kept,
    blockingFirstLoad: options.blockingFirstLoad,
    listed: options.listed,
    settled: cache
      ? (changed, removed) => {
        for (const entry of changed) {
          rows.set(`${entry.plugin}\n${entry.abs.slice(root.length)}`, entry);
        }
        for (const entry of removed) {
          rows.set(`${entry.plugin}\n${entry.abs.slice(root.length)}`, null);
        }
      }
      : undefined,
    progress,
    helper: {
      // Beside this module: `.ts` in the source, `.js` in the npm package's build.
      url: new URL(
        `./read_worker.${import.meta.url.endsWith(".ts") ? "ts" : "js"}`,
        import.meta.url,
      ),
      data: { keepBody, authorNames, pages } satisfies ReadWorkerData,
      adopt: (file) => withNames(file, shareNames),
      ...(options.helperCores === undefined ? {} : { cores: options.helperCores }),
    },
  });

  /** Notes what a refresh of git's dates changed in the history, for the next flush. */
  const noteHistory = () => {
    if (!cache || !tracker) return;
    if (tracker.history() !== writtenHistory) gitWrite = true;
  };

  return {
    foldersChanged: () => loader.foldersChanged(),
    restartKey() {
      return joinKeys(loader.stampsKey(), tracker ? tracker.stateKey() : GIT_OFF);
    },
    settleRacy: (limit = RACY_SETTLE_LIMIT) => loader.settleRacy(limit),
    listingMark: () => loader.listingMark(),
    offerListing: (listed, mark) => loader.offerListing(listed, mark),
    dropListing: () => loader.dropListing(),
    gitVouch() {
      if (!tracker || refreshing || !inWorkTree(config.root)) return undefined;
      const read = loader.readStamps();
      return read && vouchAtStop(config.root, read, tracker.stateKey(), (path) => {
        const dates = tracker.dates(path);
        return dates?.first !== undefined && dates.last !== undefined;
      });
    },
    flush(limit = Infinity) {
      if (!cache || (rows.size === 0 && gitWrite === undefined)) return false;
      // The pending entries by part; `limit` parts are written, each once.
      const parts = new Map<number, { upsert: CachedFileRow[]; remove: string[] }>();
      for (const [key, entry] of rows) {
        const at = key.indexOf("\n");
        const plugin = key.slice(0, at);
        const file = key.slice(at + 1);
        const part = partOf(plugin, file);
        let changes = parts.get(part);
        if (!changes) {
          if (parts.size >= limit) continue;
          parts.set(part, changes = { upsert: [], remove: [] });
        }
        rows.delete(key);
        // An entry the cache does not keep (unreadable; a page made again from its front matter) is removed.
        const row = entry && rowOf(entry, file);
        if (row) changes.upsert.push(row);
        else changes.remove.push(key);
      }
      // Git's history goes with the last of the files.
      const last = rows.size === 0;
      const change: CacheWrite = {
        parts,
        ...(last && gitWrite && tracker ? { git: { history: tracker.history() } } : {}),
      };
      if (last) {
        gitWrite = undefined;
        writtenHistory = tracker?.history();
      }
      try {
        cache.write(change);
      } catch (error) {
        cache = undefined;
        notice(
          `the derivation cache cannot be written (${
            (error as Error).message
          }); the next start derives every file again`,
        );
        return false;
      }
      return !last;
    },
    async load(paths, reread) {
      const before = tracker?.processes ?? 0;
      let loaded: Loaded<IndexedFile>;
      let refresh: GitRefresh | undefined;
      if (!tracker) loaded = await loader.load(paths, reread);
      else if (paths === undefined) {
        // git reads its history while the loader lists and reads the files, which
        // are dated once it has answered (SPEC 17).
        refreshing = refreshed(tracker.refresh());
        loaded = await loader.load(undefined, reread);
        refresh = await refreshing;
      } else {
        // A watcher's paths: whether those changed in the work tree, and what
        // the commits since touched when HEAD moved (then read too).
        const named = paths.filter((p) => p.startsWith(root)).map((p) => p.slice(root.length));
        refreshing = refreshed(tracker.refresh(named));
        refresh = await refreshing;
        loaded = refresh.changed === "all"
          ? await loader.load(undefined, reread)
          : await loader.load(
            refresh.changed.size === 0
              ? paths
              : [...new Set([...paths, ...[...refresh.changed].map((p) => root + p)])],
            reread,
          );
      }
      refreshing = undefined;
      if (refresh) {
        noteHistory();
        if (refresh.note) notice(refresh.note);
      }
      const work = { ...loaded.work, git: (tracker?.processes ?? 0) - before };
      if (!tracker?.shallow) return { ...loaded, work };
      const warning = {
        file: ".",
        informational: true,
        message:
          "the content's git clone is shallow, so first-commit dates are unknown: a file without a date falls back to its modification time",
      };
      return { ...loaded, work, warnings: [warning, ...loaded.warnings] };
    },
  };
}

/** The git part of a restart key where the configuration turns git's dates off. */
const GIT_OFF = "git off";

/**
 * What {@link ContentFilesLoader.restartKey} would say of a load of the
 * content as it is now: a listing with a stat of every file, and HEAD and
 * the work tree's changes asked of git (beside the listing). Reads no
 * content file. `key` is `undefined` when git failed; `listed` is the
 * listing, for the first load (`ContentFilesOptions.listed`). Blocking
 * unless `blocking` is false (a serving server's).
 *
 * @example
 * ```ts
 * import { currentFilesKey } from "./content_files.ts";
 * import { loadConfigFile } from "../config/load.ts";
 * const { key } = await currentFilesKey(await loadConfigFile("content/services.yaml"));
 * ```
 */
export async function currentFilesKey(
  config: ContentConfig,
  blocking = true,
): Promise<{ key: string | undefined; listed: PluginsListing }> {
  const git = config.git ? gitStateKey(config.root) : Promise.resolve(GIT_OFF);
  const { key: files, listed } = await listedStampsKey(config, blocking);
  return { key: joinKeys(files, await git), listed };
}
