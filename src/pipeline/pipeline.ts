// The one composition of source → fields → index: the server, `check`,
// `snapshot` and the start-up worker all make their index here.
import type { ContentConfig } from "../config/types.ts";
import type { IndexedFile } from "../fields/indexed_file.ts";
import {
  buildIndexFrom,
  buildIndexInTurns,
  type Index,
  type IndexSettings,
  indexSettings,
} from "../index/build.ts";
import { type IndexChanges, indexChanges } from "../index/changes.ts";
import { type Loaded, NO_WORK } from "../source/loader.ts";
import {
  type ContentFilesOptions,
  createContentFilesLoader,
  currentFilesKey,
} from "./content_files.ts";
import { siteKey, vouchedContent } from "./restart_key.ts";
import { type Exclusions, exclusionsOf } from "./exclusions.ts";
import { type ResolvedSite, resolveSite } from "./site.ts";
import type { Warning } from "../source/parsed_file.ts";
import type { PluginsListing } from "../source/list_plugins.ts";
import { joinKeys } from "../source/stamps_key.ts";
import type { GitVouch } from "../source/git_vouch.ts";

/** Where a pipeline's files come from: the content folder, or a snapshot's files. */
export interface PipelineSource {
  /** Loads what changed (see `createLoader`): every file, with its fields. */
  load(paths?: readonly string[], reread?: boolean): Promise<Loaded<IndexedFile>>;
  /** Whether a folder of the last listing changed since. */
  foldersChanged(): boolean;
  /**
   * Writes what the loads changed to the state folder's derivation cache,
   * where there is one: at most `limit` files at once; whether more are left.
   */
  flush?(limit?: number): boolean;
  /** What the last load was made from (`ContentFilesLoader.restartKey`), where the source says. */
  restartKey?(): string | undefined;
}

/** What one build of a pipeline gives. */
export interface PipelineBuild {
  /**
   * The index: the previous one itself when the load found nothing changed,
   * so `generated` and every ETag stay put.
   */
  readonly index: Index;
  /** What changed against the previous index (the journal records these). */
  readonly changes: IndexChanges;
  /**
   * Every file left out and every item kept out of the feed, with why; what
   * the listing counted. Made on the first read.
   */
  readonly exclusions: Exclusions;
  /** The load the index was built from: its files, its warnings, whether it listed. */
  readonly loaded: Loaded<IndexedFile>;
}

/** Source → fields → index, again and again: each build reuses what the last one made. */
export interface Pipeline {
  /** What the indexes keep of the configuration. */
  readonly settings: IndexSettings;
  /**
   * Loads what changed and builds the index from it, reusing `previous`
   * (unchanged files keep their items, unchanged plugins their trees). With
   * `paths` (absolute), looks only at those files; with `reread`, reads them
   * though their size and modification time are the same.
   */
  build(previous?: Index, paths?: readonly string[], reread?: boolean): Promise<PipelineBuild>;
  /** Whether a folder of the last listing changed since: a listing is due. */
  foldersChanged(): boolean;
  /**
   * Writes what the builds since the last flush changed to the derivation
   * cache (SPEC 17), where the source keeps one: at most `limit` files at
   * once (default: all), and says whether more are left. A server calls it
   * once it serves, a part at a time.
   */
  flush(limit?: number): boolean;
  /**
   * What the last build was made from: the site's configuration as
   * resolved, every file's stamp, what git's dates were read from (SPEC
   * 17). A restart whose {@link currentRestartKey} is the same would build
   * the same index. `undefined` where that cannot be told (a snapshot's
   * pipeline, a file read within its stamp's resolution of a change).
   */
  restartKey(): string | undefined;
  /**
   * Whether the content is still what the last build was made from, by
   * {@link currentRestartKey} (a listing, a stat of every file, git's HEAD
   * and work tree; no content file read): `false` where that cannot be
   * told (a file read within its stamp's resolution of a change). Builds
   * nothing, so a stop may come while it runs; where the content changed,
   * its listing serves the next full load (`ContentLoader.offerListing`).
   * Absent where the source keeps no stamps.
   */
  unchangedSinceLoad?(): Promise<boolean>;
  /**
   * Drops the listing {@link Pipeline.unchangedSinceLoad} left for the next
   * full load, if not yet taken: for a reload that other asks joined (a
   * watcher's paths may have changed after that listing).
   */
  dropListing?(): void;
  /**
   * What git vouches for in the last build's content (`source/git_vouch.ts`),
   * with what else a restart must find the same (`content`: the site's
   * configuration as resolved, `vouchedContent` in `restart_key.ts`): a restart's check
   * then stats only the folders and the files git does not vouch for.
   * Absent or `undefined` where git vouches for nothing. Runs git to its
   * end: for a stopping server.
   */
  gitVouch?(): { content: string; vouch: GitVouch } | undefined;
  /**
   * Reads again the files the last build read near a change, so that
   * {@link Pipeline.restartKey} and {@link Pipeline.gitVouch} can vouch for
   * it (`ContentFilesLoader.settleRacy`); whether none is left. Absent where
   * the source keeps no stamps. For a stopping server, before its last flush.
   */
  settleRacy?(): boolean;
}

/** Options of {@link contentPipeline}: how files are kept, and the clock. */
export interface PipelineOptions extends ContentFilesOptions {
  /** The build time of each new index (default `Date.now`). */
  readonly now?: () => number;
  /** The site as `currentRestartKey` resolved it already (it is resolved here otherwise). */
  readonly site?: ResolvedSite;
  /** A full collection of the heap, asked for after a cold load ({@link isColdLoad}). */
  readonly collectAfterLoad?: () => void;
}

/**
 * The pipeline of a configuration's content folder: files listed, read and
 * their fields derived (on a second core at a large start, where the
 * runtime has workers), with their commit dates, then indexed.
 *
 * @example
 * ```ts
 * import { contentPipeline } from "./pipeline.ts";
 * import { loadConfigFile } from "../config/load.ts";
 * const pipeline = await contentPipeline(await loadConfigFile("content/services.yaml"), {
 *   keepBody: false,
 * });
 * const { index, exclusions } = await pipeline.build();
 * const next = await pipeline.build(index); // `index` itself when nothing changed
 * ```
 */
export async function contentPipeline(
  config: ContentConfig,
  options: PipelineOptions,
): Promise<Pipeline> {
  // What the site's generator says; a plugin with other locales or versions is a
  // plugin per folder from here on (SPEC 16.3).
  const site = options.site ?? await resolveSite(config);
  const source = createContentFilesLoader(site.config, { ...options, pages: site.pages });
  const pipeline = createPipeline(
    indexSettings(site.config),
    withWarnings(source, site.warnings),
    options.now ?? Date.now,
    { collectAfterLoad: options.collectAfterLoad, blockingFirstBuild: options.blockingFirstLoad },
  );
  const keyOfSite = siteKey(site, options.keepBody);
  const restartKey = () => joinKeys(keyOfSite, source.restartKey());
  return {
    ...pipeline,
    restartKey,
    async unchangedSinceLoad() {
      const mark = source.listingMark();
      const { key, listed } = await currentRestartKey(site, keyOfSite, false);
      // The last build's key once the listing is done: a reload meanwhile moved it on.
      const built = restartKey();
      const same = key !== undefined && built !== undefined && key === built;
      // Something changed: the next full load reads it from this listing, without listing
      // again (at 100,000 files a listing took seconds), unless a load began since the mark.
      if (!same && mark !== undefined) source.offerListing(listed, mark);
      return same;
    },
    dropListing: () => source.dropListing(),
    settleRacy: () => source.settleRacy(),
    gitVouch: () => {
      const vouch = source.gitVouch();
      return vouch && { content: vouchedContent(keyOfSite), vouch };
    },
  };
}

/**
 * What {@link Pipeline.restartKey} of a server's pipeline on `site` would
 * say of the content as it is now, read without reading a content file (a
 * listing, a stat of each file, two git processes): `key` is `undefined`
 * when git failed; `listed` is the listing, for the pipeline's first load
 * (`PipelineOptions.listed`: a start that builds first lists once).
 *
 * @param keyOfSite the site's key (`siteKey` in `restart_key.ts`), made once by a check that
 *   asks git first
 * @param blocking list with blocking calls (a start, before anything is served)
 *
 * @example
 * ```ts
 * import { currentRestartKey } from "./pipeline.ts";
 * import { siteKey } from "./restart_key.ts";
 * import { resolveSite } from "./site.ts";
 * import { loadConfigFile } from "../config/load.ts";
 * const site = await resolveSite(await loadConfigFile("content/services.yaml"));
 * const { key } = await currentRestartKey(site, siteKey(site, false));
 * ```
 */
export async function currentRestartKey(
  site: ResolvedSite,
  keyOfSite: string,
  blocking = true,
): Promise<{ key: string | undefined; listed: PluginsListing }> {
  const { key: files, listed } = await currentFilesKey(site.config, blocking);
  return { key: joinKeys(keyOfSite, files), listed };
}

/** A source whose every load says the site's own warnings (a data config file that does not parse). */
function withWarnings(source: PipelineSource, warnings: readonly Warning[]): PipelineSource {
  if (warnings.length === 0) return source;
  return {
    foldersChanged: () => source.foldersChanged(),
    flush: (limit) => source.flush?.(limit) ?? false,
    restartKey: () => source.restartKey?.(),
    load: async (paths, reread) => {
      const loaded = await source.load(paths, reread);
      return { ...loaded, warnings: [...warnings, ...loaded.warnings] };
    },
  };
}

/**
 * A pipeline over any source of files (a snapshot's, for one): each build
 * indexes the load, unless nothing changed since `previous`.
 *
 * @param builtAt the clock of each new index's build time
 * @param options when builds give the thread back, and a collection after
 *   a cold load ({@link BuildTurns})
 *
 * @example
 * ```ts
 * import { createPipeline, fixedSource } from "./pipeline.ts";
 * const settings = { title: undefined, url: undefined, api: true, sitemap: false, plugins: [] };
 * const { index } = await createPipeline(settings, fixedSource([]), () => 0).build();
 * index.items.length; // 0
 * ```
 */
export function createPipeline(
  settings: IndexSettings,
  source: PipelineSource,
  builtAt: () => number,
  options: BuildTurns = {},
): Pipeline {
  const { collectAfterLoad, blockingFirstBuild = true } = options;
  return {
    settings,
    foldersChanged: () => source.foldersChanged(),
    flush: (limit) => source.flush?.(limit) ?? false,
    restartKey: () => undefined,
    async build(previous, paths, reread) {
      const loaded = await source.load(paths, reread);
      if (collectAfterLoad && isColdLoad(loaded)) collectAfterLoad();
      // A server answers requests while it builds, but for a first build that blocks (nothing
      // to serve yet): the index is built a part at a time then, with the same result.
      const inTurns = previous !== undefined || !blockingFirstBuild;
      const index = previous && !loaded.changed
        ? previous
        : await (inTurns ? buildIndexInTurns : buildIndexFrom)(loaded.files, settings, builtAt(), {
          previous,
          warnings: loaded.warnings,
        });
      let exclusions: Exclusions | undefined;
      return {
        index,
        changes: indexChanges(previous, index),
        // Made on their first read: a server never reads them, `check` does.
        get exclusions() {
          return exclusions ??= exclusionsOf(loaded, index);
        },
        loaded,
      };
    },
  };
}

/** How the builds of {@link createPipeline} treat the thread and the heap. */
export interface BuildTurns {
  /** A full collection of the heap, asked for after a cold load ({@link isColdLoad}), before the index is built. */
  readonly collectAfterLoad?: () => void;
  /**
   * Whether the first build holds the thread to its end (default `true`: a
   * start with nothing to serve, `check`, `build`). Every later build, and
   * a first one that does not block, builds its index a part at a time
   * (`buildIndexInTurns`).
   */
  readonly blockingFirstBuild?: boolean;
}

/** The fewest files a load derives for {@link isColdLoad} to call it cold. */
export const COLD_LOAD_FILES = 1000;

/**
 * Whether a load derived most of its files, and at least
 * {@link COLD_LOAD_FILES} (a first start, a cache another version made, a
 * reload after a checkout that changed most files):
 * its parse left garbage several times the fields it kept, most of the
 * heap. A full collection then, before the index is built, keeps the heap
 * from growing past it, and a second after the first index is served
 * (`service.ts`) clears the build's and the journal's garbage before a
 * request writes the full feed: at 10,000 files under Deno, a first
 * start's peak resident memory went from 150–160 MB to 136–138 MB, and
 * the start took 12% longer (`docs/spec.md`, section 10). A load from the
 * cache, or an edit's, makes little garbage, and a collection of the
 * whole heap would cost it more than it saves.
 *
 * @example
 * ```ts
 * import { isColdLoad } from "./pipeline.ts";
 * isColdLoad({ files: new Array(10_000), work: { derived: 10_000 } }); // true
 * isColdLoad({ files: new Array(10_000), work: { derived: 100 } }); // false
 * ```
 */
export function isColdLoad(
  loaded: { readonly files: readonly unknown[]; readonly work: { readonly derived: number } },
): boolean {
  const { derived } = loaded.work;
  return derived >= COLD_LOAD_FILES && derived * 2 >= loaded.files.length;
}

/**
 * A source that always gives the same files, and says nothing changed: a
 * snapshot's (its fields come with it, not from front matter).
 *
 * @example
 * ```ts
 * import { fixedSource } from "./pipeline.ts";
 * const { files, changed } = await fixedSource([]).load();
 * ```
 */
export function fixedSource(files: IndexedFile[]): PipelineSource {
  const loaded: Loaded<IndexedFile> = {
    files,
    warnings: [],
    read: 0,
    helped: 0,
    work: NO_WORK,
    changed: false,
    listed: true,
    irregular: false,
    leftOut: [],
    selection: [],
  };
  return { load: () => Promise.resolve(loaded), foldersChanged: () => false };
}
