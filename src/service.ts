import { resolveBaseUrl } from "./config/base_url.ts";
import { loadConfigFile, loadConfigObject } from "./config/load.ts";
import type { ContentConfig } from "./config/types.ts";
import { createNameInterner } from "./fields/name_interner.ts";
import type { Handler } from "./http/handler.ts";
import { createStartingHandler } from "./http/starting.ts";
import { QUIET_CAP_MS, QUIET_MOST_MS, QUIET_MS, quietMoment } from "./http/quiet.ts";
import type { Tuning } from "./http/settings.ts";
import { unref } from "./util/unref.ts";
import type { Index } from "./index/build.ts";
import {
  type EarlyCheck,
  earlyKey,
  feedFormatKey,
  type FeedImage,
  feedImageKey,
  type FeedImageMeta,
  feedItemKey,
  feedItemKeys,
} from "./pipeline/feed_image.ts";
import { createEarlyFeedHandler } from "./http/early_feed.ts";
import { type ResolvedSite, resolveSite } from "./pipeline/site.ts";
import type { PluginsListing } from "./source/list_plugins.ts";
import type { PreviousFeed } from "./feed/feed_bytes.ts";
import { codeVersion } from "./source/code_version.ts";
import type { KeptFeed } from "./http/answer_store.ts";
import { etagOfDigest } from "./http/representation.ts";
import { fileChecksum } from "./source/file_hash.ts";
import type { JournalState } from "./sync/state.ts";
import { dropFeedImage, keepFeedImage, readFeedImageSoon } from "./sync/feed_image_file.ts";
import type { Item } from "./index/item.ts";
import type { Reloaded } from "./live.ts";
import { createWarningLog } from "./log.ts";
import { nextTurn } from "./util/next_turn.ts";
import type { Snapshot } from "./snapshot.ts";
import { journalFromSnapshot } from "./sync/journal_document.ts";
import { createJournal, type Journal } from "./sync/journal.ts";
import { formatCursor } from "./sync/cursor.ts";
import type { Pipeline, PipelineBuild } from "./pipeline/pipeline.ts";
import { siteKey, vouchedContent } from "./pipeline/restart_key.ts";
import { readBody, readCheckedBytes } from "./source/read_file.ts";
import { stillVouched } from "./source/git_vouch.ts";
import { type LoadWork, NO_WORK } from "./source/load_work.ts";
import type { Warning } from "./source/parsed_file.ts";

/**
 * How long after the last build its changes are written to the derivation
 * cache, in ms: a start's first requests are answered first, and a burst of
 * changes is written once.
 */
const FLUSH_DELAY_MS = 1000;
/** Parts of the derivation cache (of 64) written in one transaction, between which requests are answered. */
const FLUSH_PART = 8;

/** A reload waiting for the one under way: what it will load, and its promise. */
interface WaitingReload {
  /** The paths it loads; `undefined`: a full listing. */
  paths: Set<string> | undefined;
  reread: boolean;
  done: Promise<Index>;
}

/** Where log lines go; defaults to `console`. */
export interface Logger {
  /** The start-up line and other news. */
  info(message: string): void;
  /** A warning about content (one line, control characters escaped). */
  warn(message: string): void;
  /** A failure the service recovered from (a reload, a 500), with its detail. */
  error(message: string): void;
}

/** Options of {@link createContentApi}; every one is optional. */
export interface ContentApiOptions {
  /**
   * The service configuration: a file path (default `content/services.yaml`)
   * or the value of `service.content.config` as an object, whose `path`
   * resolves against the working folder.
   */
  readonly config?: string | Record<string, unknown>;
  /** Serve a snapshot (its path, or the parsed object) instead of reading content: no file access. */
  readonly snapshot?: string | Snapshot;
  /** Base URL when the config sets none (the `BASE_URL` variable); else each request's origin. */
  readonly baseUrl?: string;
  /** Send `Access-Control-Allow-Origin: *` (default `true`). */
  readonly cors?: boolean;
  /** `Cache-Control` of successful responses (default `public, max-age=60`). */
  readonly cacheControl?: string;
  /**
   * Bytes of cached responses to keep (default 64 MB, SPEC 9): pages, items
   * and other answers beyond the index's own full feed, least recently used
   * first out.
   */
  readonly cacheBytes?: number;
  /**
   * Bytes of tool results one `POST /api/mcp` response may hold, batch
   * included (default 8 MB): a call whose result would pass it is answered
   * with a tool error that says how to ask for less (SPEC 14).
   */
  readonly mcpAnswerBytes?: number;
  /**
   * The address the server that serves this API listens on (what you give
   * `Deno.serve`, `Bun.serve` or `node:http` as its hostname), when you know
   * it: on a loopback address (`127.0.0.1`, `::1`, `localhost`), `POST
   * /api/mcp` refuses requests whose `Host` or `Origin` names another host
   * than `localhost`, a loopback address, the base URL's host or one of
   * `mcp.allowed_origins` (DNS rebinding protection, SPEC 14). Unset, it is
   * treated as a public address: `allowed_origins`, when set, is the only
   * check. `content-feed serve` passes its `--host`.
   */
  readonly listenHostname?: string;
  /**
   * Serve the full feed the last server kept while the first index is built,
   * when nothing changed since (SPEC 17; `startService` only: a caller that
   * waits for the service gains nothing). `content-feed serve` turns it on.
   */
  readonly early?: boolean;
  /** Log lines (warnings about content go to `warn`). */
  readonly logger?: Logger;
  /**
   * Keep the index current (SPEC 10): watch the content root and rebuild
   * within a moment of a change, re-reading only changed files; poll every
   * `pollInterval` ms where the runtime cannot watch (or always, with
   * `"poll"`). Default `false` (`main.ts` turns it on).
   */
  readonly watch?: boolean | "poll";
  /** Polling period when watching is unavailable, in ms (default 1000). */
  readonly pollInterval?: number;
  /**
   * While watching, list every plugin folder again this often, in ms
   * (default 60,000; `0` turns it off): the safety net for lost watch
   * events. It stats files and reads only those whose size or modification
   * time changed.
   */
  readonly relistInterval?: number;
  /** The clock, for the index build time (default `Date.now`). */
  readonly now?: () => number;
}

/** The service: a `fetch` handler over an index that can be rebuilt. */
export interface ContentApi {
  /** Answers one request; hand it to `Deno.serve`, `Bun.serve`, srvx, Hono's `mount`, or `export default`. */
  fetch(request: Request): Promise<Response>;
  /** The index that requests are answered from now. */
  readonly index: Index;
  /** The change journal's position as of that index: the feed's `meta.cursor` (SPEC 12). */
  readonly cursor: string;
  /** The resolved configuration (`undefined` when serving a snapshot). */
  readonly config: ContentConfig | undefined;
  /**
   * What the last load did (SPEC 17): files stat'ed, read, derived, taken
   * from the state folder's cache, dated again, parser runs, git processes,
   * and how long it took (ms).
   */
  readonly lastLoad: LoadWork & { readonly files: number; readonly ms: number };
  /**
   * Plugin folders the last listing could not list (SPEC 15: a typo in a
   * plugin's `path`, a folder not made yet), each a warning that names the
   * folder. They are not content warnings: `content-feed serve` prints them
   * after its start-up line, `check` fails on them; a folder made later is
   * listed and served.
   */
  readonly unlistedFolders: readonly Warning[];
  /**
   * Re-reads what changed on disk and swaps in the new index atomically;
   * with `paths` (absolute), looks only at those files.
   */
  reload(paths?: readonly string[]): Promise<Index>;
  /** Stops watching; the index stays as it is. */
  close(): void;
}

/** A service with its handler as the runtime adapters use it (see `src/adapters/`). */
export interface Service {
  readonly api: ContentApi;
  /** The handler: a `Response` when the answer is ready, else a promise. */
  readonly handle: Handler;
}

/**
 * Loads the content once and returns the service (SPEC 1). A bad
 * configuration rejects with a `ConfigError` whose message is one line; a
 * bad content file only logs a warning naming it.
 *
 * @example
 * ```ts
 * import { createContentApi } from "./service.ts";
 * const api = await createContentApi({ config: "content/services.yaml" });
 * const response = await api.fetch(new Request("http://localhost:8000/api/content.json"));
 * ```
 */
export async function createContentApi(options: ContentApiOptions = {}): Promise<ContentApi> {
  return (await createService(options)).api;
}

/**
 * {@link createContentApi} with the runtime's tuning, for the adapters: the
 * API and its handler, which answers ready responses without a promise.
 *
 * @example
 * ```ts
 * import { createService } from "./service.ts";
 * const { api, handle } = await createService({ config: "content/services.yaml" }, {
 *   cloneResponses: true,
 * });
 * ```
 */
export async function createService(
  options: ContentApiOptions = {},
  tuning: Tuning = {},
): Promise<Service> {
  return await (await startService(options, tuning)).ready;
}

/** A service whose configuration is read and whose first index is being built. */
export interface StartingService {
  /**
   * Answers every request: until the first index is served, `503` (with
   * `GET /api/health` saying `{"status":"starting"}`), then as the service.
   */
  readonly handle: Handler;
  /** The service, once its first index is served; rejects as {@link createService} does. */
  readonly ready: Promise<Service>;
  /** The base URL the config or the options set (`undefined`: each request's origin). */
  readonly baseUrl: string | undefined;
  /**
   * Set when the start serves the last server's full feed while it loads
   * (SPEC 17): the counts that server's start-up line said, which are this
   * start's too; and how the content was found as it was: by `git` (a stat
   * per folder and per file git does not vouch for, and `git status`), or
   * by `stamps` (a listing with a stat of every file).
   */
  readonly early?: { readonly counts: EarlyCheck["counts"]; readonly checked: "git" | "stamps" };
}

/**
 * Starts a service in two steps (SPEC 11): resolves once the configuration
 * is read and valid (a bad one rejects with a `ConfigError`, before
 * anything listens), with a handler that a server can listen with at once,
 * while the first index is built; `ready` resolves with the service when
 * it is served.
 *
 * @example
 * ```ts
 * import { startService } from "./service.ts";
 * const starting = await startService({ config: "content/services.yaml" });
 * // listen with starting.handle: /api/health says "starting", then "ok"
 * const { api } = await starting.ready;
 * ```
 */
export async function startService(
  options: ContentApiOptions = {},
  tuning: Tuning = {},
): Promise<StartingService> {
  const logger = options.logger ?? console;
  const now = options.now ?? Date.now;
  let config: ContentConfig | undefined;
  /** The pipeline, or its making (after the server listens, when the kept feed is served). */
  let pipeline: Pipeline | Promise<Pipeline>;
  let settingsUrl: string | undefined;
  let journal: Journal;
  /**
   * The full feed the last server kept, read from the state folder: handed on once and let go
   * (this scope lives as long as `handle`).
   */
  const given: { image?: FeedImage } = {};
  /** Set when it is served while the first index is built. */
  let early:
    | { image: FeedImage; counts: EarlyCheck["counts"]; checked: "git" | "stamps" }
    | undefined;
  /** Told when the kept feed is answered, with when its body was taken (the first load waits). */
  let answered = (_sent: Promise<void>) => {};
  const logWarning = (message: string) => logger.warn(`warning: ${message}`);
  if (options.snapshot !== undefined) {
    // Loaded when a snapshot is served: a server of files never needs it.
    const { readSnapshotFile, snapshotFiles, snapshotSettings } = await import("./snapshot.ts");
    const { createPipeline, fixedSource } = await import("./pipeline/pipeline.ts");
    const snapshot = typeof options.snapshot === "string"
      ? await readSnapshotFile(options.snapshot)
      : options.snapshot;
    const settings = snapshotSettings(snapshot);
    // Every replica of one snapshot answers alike: its build time, its journal's cursors.
    pipeline = createPipeline(
      settings,
      fixedSource(snapshotFiles(snapshot)),
      () => snapshot.builtAt,
    );
    settingsUrl = settings.url;
    journal = createJournal({
      initial: journalFromSnapshot(snapshot.journal),
      retentionDays: Infinity,
      warn: logWarning,
    });
  } else {
    const read = typeof options.config === "object" && options.config !== null
      ? await loadConfigObject(options.config)
      : await loadConfigFile(options.config ?? "content/services.yaml");
    config = read;
    // The state folder's database holds the journal and the derivation cache (SPEC 12, 17).
    const opened = journal = createJournal({
      folder: read.state,
      retentionDays: read.retention,
      warn: logWarning,
    });
    try {
      const site = await resolveSite(read);
      settingsUrl = site.config.url;
      const base = resolveBaseUrl(settingsUrl, options.baseUrl);
      // What the last server kept when it stopped, and whether the content is still what it
      // was made from (SPEC 17): then it is served while the index is built.
      // Its meta at once; its parts (85 MB at 100,000 files) are read while the check lists.
      const kept = readImage(read, opened, (meta) => base === undefined || base === meta.base);
      /** The check's listing: the first load takes it, so a start that builds first lists once. */
      let listed: PluginsListing | undefined;
      let counts: EarlyCheck["counts"] | undefined;
      let checked: "git" | "stamps" = "stamps";
      if (kept && options.early) {
        try {
          const found = await checkEarly(kept.meta, site, base, opened);
          listed = found.listed;
          counts = found.counts;
          if (found.byGit) checked = "git";
        } catch {
          // a check that failed: the start builds first, as without it
        }
      }
      const image = given.image = await kept?.image;
      if (image && counts) early = { image, counts, checked };
      // Read now: `early` is let go before the pipeline is made.
      const servesEarly = early !== undefined;
      // The server keeps each file's fields, not its text: a body is read
      // again when a request needs it.
      const make = async () =>
        (await import("./pipeline/pipeline.ts")).contentPipeline(read, {
          keepBody: false,
          shareNames: createNameInterner(),
          now,
          cache: opened.cache,
          notice: logWarning,
          site,
          listed,
          collectAfterLoad: tuning.collectAfterLoad,
          // Requests for the kept feed are answered while the first load runs.
          ...(servesEarly ? { blockingFirstLoad: false } : {}),
        });
      // With the kept feed to serve, the server listens first: the cache is opened after.
      pipeline = early
        ? new Promise<void>((resolve) => {
          // The load begins once the kept feed's first answer was written, or after a moment
          // with no request: its parts (the cache's rows, the index) hold the thread, and a
          // response's bytes are written on it. A slow client holds it back a bounded time.
          const timer = setTimeout(resolve, EARLY_ALONE_MS);
          answered = (sent) => {
            answered = () => {};
            clearTimeout(timer);
            const bound = setTimeout(resolve, EARLY_SENDING_MS);
            sent.then(() => {
              clearTimeout(bound);
              setTimeout(resolve, 0);
            });
          };
        }).then(make)
        : await make();
    } catch (error) {
      opened.close();
      throw error;
    }
  }
  const baseUrl = resolveBaseUrl(settingsUrl, options.baseUrl);
  const settings = {
    cors: options.cors ?? true,
    cacheControl: options.cacheControl ?? "public, max-age=60",
    tuning,
  };
  const basePath = baseUrl ? new URL(baseUrl).pathname.replace(/\/+$/, "") : "";
  const starting = createStartingHandler(settings, basePath);
  let current: Handler = early
    ? createEarlyFeedHandler(early.image, settings, basePath, starting, (sent) => answered(sent))
    : starting;
  const quiet = quietMoment({
    quietMs: QUIET_MS,
    mostMs: QUIET_MOST_MS,
    capMs: QUIET_CAP_MS,
    slices: tuning.streamsKeepLength === true,
  });
  const opened = {
    config,
    journal,
    baseUrl,
    logger,
    now,
    logWarning,
    takeImage: () => {
      const taken = given.image;
      given.image = undefined;
      return taken;
    },
    earlyJournal: early !== undefined ? journal.cursor.id : undefined,
    quiet: quiet.done,
  };
  const earlyFound = early && { counts: early.counts, checked: early.checked };
  early = undefined;
  const ready = Promise.resolve(pipeline).then(
    (made) => serveFirstIndex(options, settings, { ...opened, pipeline: made }),
    (error) => {
      journal.close();
      throw error;
    },
  ).then((service) => {
    // Requests are counted until the first moments of quiet, when the first load's watch
    // begins (`live.ts`), then answered as they come.
    current = (request) => quiet.track(request, () => service.handle(request));
    quiet.begin();
    quiet.done.then(() => current = service.handle);
    return service;
  });
  return {
    handle: (request) => current(request),
    ready,
    baseUrl,
    ...(earlyFound ? { early: earlyFound } : {}),
  };
}

/** How many items' change keys a start serving its kept feed makes between two turns. */
const KEYS_PART = 2000;

/** How long a start that serves the kept feed waits for its first request before it loads. */
const EARLY_ALONE_MS = 50;
/**
 * How long it waits, at most, for that request's body to be taken whole: a
 * client reading 15 MB slowly must not keep every other route at 503.
 */
const EARLY_SENDING_MS = 2000;

/**
 * Whether this start may serve `image` before its index is built (SPEC 17),
 * with what the start-up line then says (`counts`): the stopping server
 * said what its content was made of, and the code, the base URL, the
 * journal's cursor, the site's configuration, every content file's stamp
 * and git's HEAD and work tree are as it left them (a listing and two git
 * processes; no content file read). With the listing, which the first load
 * takes either way: a start that builds first lists once.
 */
async function checkEarly(
  image: FeedImageMeta,
  site: ResolvedSite,
  base: string | undefined,
  journal: Journal,
): Promise<{ counts?: EarlyCheck["counts"]; listed?: PluginsListing; byGit?: boolean }> {
  const check = image.early;
  if (!check || base === undefined || base !== image.base) return {};
  const cursor = formatCursor(journal.cursor.id, journal.cursor.head);
  // What git vouched for as the last server stopped: a stat per folder and per file it did not
  // vouch for, and one `git status`, where the full check stats every file. Its `git status`
  // starts first: it runs on the other core while this one stats and hashes the code's version.
  const keyOfSite = siteKey(site, false);
  if (check.git && site.config.git) {
    const vouched = stillVouched(site.config.root, check.git.vouch);
    const content = vouchedContent(keyOfSite);
    if (earlyKey({ version: codeVersion(), base, cursor, content }) === check.git.key) {
      if (await vouched) return { counts: check.counts, byGit: true };
    } else vouched.catch(() => {}); // other code or configuration: git's answer is not asked for
  }
  const version = codeVersion();
  // The listing and a stat of every file: the pipeline's modules, which a start loads anyway.
  const { currentRestartKey } = await import("./pipeline/pipeline.ts");
  const { key: content, listed } = await currentRestartKey(site, keyOfSite);
  if (content === undefined) return { listed };
  const key = earlyKey({ version, base, cursor, content });
  return key === check.key ? { counts: check.counts, listed } : { listed };
}

/** What {@link startService} read before the first build. */
interface Opened {
  readonly config: ContentConfig | undefined;
  readonly pipeline: Pipeline;
  readonly journal: Journal;
  readonly baseUrl: string | undefined;
  readonly logger: Logger;
  readonly now: () => number;
  readonly logWarning: (message: string) => void;
  /** The full feed the last server kept, read at the start (`readImage`): given once. */
  readonly takeImage: () => FeedImage | undefined;
  /**
   * Set when the kept feed is served while the first index is built (its key is checked once it
   * is): the id of the journal the early key was checked with. A damaged journal begun again
   * since explains the kept feed's other cursor, and its own warning says so.
   */
  readonly earlyJournal?: string;
  /**
   * Settles at the first moment of quiet after the first index is served (`quietMoment`): the
   * first load's watch begins then.
   */
  readonly quiet?: Promise<void>;
}

/**
 * The full feed the last server on this state folder kept when it stopped
 * (SPEC 17), if there is a whole one that `wanted`: its meta at once, its
 * parts read beside what the start does next (`readFeedImageSoon`); the file is removed
 * once the first index is served (an image is used by one start), so a
 * server stopped before that leaves it to the next. Only a server that
 * holds the state folder (its journal on disk) reads or keeps one: a
 * second server on the folder leaves the first's alone.
 */
function readImage(
  config: ContentConfig | undefined,
  journal: Journal,
  wanted: (meta: FeedImageMeta) => boolean,
): { meta: FeedImageMeta; image: Promise<FeedImage | undefined> } | undefined {
  if (!config || !journal.durable) return undefined;
  return readFeedImageSoon(config.state, wanted);
}

/**
 * Keeps the full feed of a stopping server's index for the next start (SPEC
 * 17): its bytes, offsets, ETag and encodings, under the key of what they
 * were made of. The feed as served, else written now (`feed`); a journal
 * not on disk, or no base URL known, keeps nothing.
 *
 * @param content what the served index was made from (`Pipeline.restartKey`),
 *   for the next start's early check; `undefined` keeps no early check
 */
function keepImage(
  config: ContentConfig | undefined,
  journal: Journal,
  feed: () => KeptFeed | undefined,
  index: Index,
  state: JournalState,
  warn: (message: string) => void,
  content: string | undefined,
  gitVouch: () => ReturnType<NonNullable<Pipeline["gitVouch"]>>,
): void {
  if (!config || !journal.durable) return;
  try {
    const served = feed();
    if (!served) return;
    const version = codeVersion();
    const items = feedItemKeys(index, journal.keyOf);
    const cursor = formatCursor(state.id, state.head);
    // Asked only where the full check's key is kept: git's vouch is a shorter way to the same.
    let vouched: ReturnType<typeof gitVouch>;
    try {
      vouched = content === undefined ? undefined : gitVouch();
    } catch {
      // git's word is a shortcut: without it the next start makes the full check.
    }
    keepFeedImage(config.state, {
      ...(content === undefined ? {} : {
        early: {
          key: earlyKey({ version, base: served.base, cursor, content }),
          counts: index.counts.map(({ plugin, items, feed }) => ({ plugin, items, feed })),
          ...(vouched
            ? {
              git: {
                key: earlyKey({ version, base: served.base, cursor, content: vouched.content }),
                vouch: vouched.vouch,
              },
            }
            : {}),
        },
      }),
      key: feedImageKey({
        version,
        base: served.base,
        cursor: formatCursor(state.id, state.head),
        index,
        items,
      }),
      format: feedFormatKey(version, index, served.base),
      items,
      builtAt: index.builtAt,
      base: served.base,
      type: served.type,
      bytes: served.full.bytes,
      starts: served.full.starts,
      etag: served.etag,
      encoded: served.encoded,
    });
  } catch (error) {
    warn(`the full feed cannot be kept for the next start (${(error as Error).message})`);
  }
}

/** Builds the first index and returns the service that answers from it, kept current. */
async function serveFirstIndex(
  options: ContentApiOptions,
  settings: { cors: boolean; cacheControl: string; tuning: Tuning },
  opened: Opened,
): Promise<Service> {
  const { config, pipeline, journal, baseUrl, logger, now, logWarning } = opened;
  // The routes and the watcher load here, not with the service: a restart that serves its kept
  // feed answers before them (the index's modules came with the pipeline's).
  const [{ createHandler }, { keepLive }, { withBuiltAt }, { isColdLoad }] = await Promise.all([
    import("./http/handler.ts"),
    import("./live.ts"),
    import("./index/build.ts"),
    import("./pipeline/pipeline.ts"),
  ]);
  /**
   * Builds under way: while one is, the pipeline may have loaded content the
   * served index was not built from, so a stop keeps no early check.
   */
  let building = 0;
  /** Whether the kept feed is served while this first index is built (the build gives turns). */
  const servedMeanwhile = opened.earlyJournal !== undefined;
  /** Whether a build failed: then no stop of this server keeps an early check either. */
  let failedBuild = false;

  const log = createWarningLog((line) => logger.warn(line));
  /** What the last load said of the content (the live loop adapts to it). */
  let reloaded: Reloaded = { listed: true, irregular: false };
  let lastLoad: ContentApi["lastLoad"] = { ...NO_WORK, files: 0, ms: 0 };
  let unlistedFolders: readonly Warning[] = [];
  const build = async (previous?: Index, paths?: readonly string[], reread?: boolean) => {
    const began = Date.now();
    building++;
    const built = await pipeline.build(previous, paths, reread).catch((error) => {
      // A load that failed part way may have taken some of what it read (git's dates, files):
      // from now on the pipeline's state is not known to be the served index's.
      failedBuild = true;
      throw error;
    }).finally(() => building--);
    reloaded = { listed: built.loaded.listed, irregular: built.loaded.irregular };
    lastLoad = { ...built.loaded.work, files: built.loaded.files.length, ms: Date.now() - began };
    unlistedFolders = built.loaded.selection.flatMap(({ unlisted }) => unlisted ?? []);
    // Unchanged content keeps its index (and its warnings, logged when it was new).
    if (built.index !== previous) log(built.index.warnings);
    return built;
  };
  /**
   * Swaps in a new index with its journal: the journal is written first
   * (SPEC 12), then both are assigned in one step, so no request sees an
   * index without its journal or a cursor for a change not yet durable.
   */
  const swap = ({ index: next, changes }: PipelineBuild) => {
    scheduleFlush();
    if (next === index) return next;
    const state = options.snapshot === undefined
      ? journal.record(next, now(), changes)
      : journal.state;
    index = next;
    journalState = state;
    return next;
  };
  let index: Index | undefined;
  let journalState = journal.state;
  /** Set once the service is closed. */
  let stopped = false;
  /**
   * What the builds changed goes to the derivation cache a moment after
   * they are served (SPEC 17): never before the first moment of quiet (the
   * first responses' bytes are sent first: at 100,000 files a restart after
   * 1% changed rewrote the cache's parts for 2.3 s of the main thread, which
   * also writes the responses), and once for a burst of changes.
   */
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  let quietYet = opened.quiet === undefined;
  let flushWaits = false;
  opened.quiet?.then(() => {
    quietYet = true;
    if (flushWaits) scheduleFlush();
  });
  const scheduleFlush = (delay = FLUSH_DELAY_MS) => {
    if (stopped) return; // closing wrote everything
    if (!quietYet) {
      flushWaits = true;
      return;
    }
    clearTimeout(flushTimer);
    flushTimer = unref(setTimeout(() => {
      flushTimer = undefined;
      // A part at a time, requests answered between the parts.
      if (pipeline.flush(FLUSH_PART)) scheduleFlush(0);
    }, delay));
  };
  /** What the first load found, once its index is served: the watcher's reloads wait for it. */
  let firstServed!: (found: Reloaded) => void;
  let firstFailed!: (error: unknown) => void;
  const first = new Promise<Reloaded>((resolve, reject) => {
    firstServed = resolve;
    firstFailed = reject;
  });
  let firstDone = false;
  first.then(() => firstDone = true, () => {});
  /** A reload for the live loop: a failure is logged, and the previous index served on. */
  const reloadLogged = (paths?: readonly string[], reread?: boolean) =>
    reload(paths, reread).then(() => reloaded, (error) => {
      logger.error(`content reload failed; still serving the previous index: ${error}`);
      return reloaded;
    });
  // Watching begins after the first load, at the first quiet moment once its index is served, and
  // a listing then catches up with what changed since the load (or a restart's check) listed
  // (SPEC 10; `live.ts`): a watch begun before would cost the load's critical path its start (the
  // folders' watches) and a second stat of every file the check listed, and under Deno an event
  // for each file a first start reads.
  const stopLive = options.watch && config
    ? keepLive({
      root: config.root,
      mode: options.watch,
      pollInterval: options.pollInterval ?? 1000,
      relistInterval: options.relistInterval ?? 60_000,
      git: config.git,
      reload: (paths, reread) => first.then(() => reloadLogged(paths, reread), () => reloaded),
      // The last listing's folders: none until the first load's is served.
      foldersChanged: () => firstDone && pipeline.foldersChanged(),
      warn: (message) => logger.warn(message),
      initial: first,
      // What changed meanwhile is found by the key a restart's check compares (a listing and
      // stats, no build), and read by a listing that compares the files read near a change by
      // checksum.
      watchAfterInitial: true,
      startAfter: opened.quiet,
      catchUp: async () => {
        // A server stopped meanwhile reloads nothing.
        if (await pipeline.unchangedSinceLoad?.().catch(() => false) || stopped) return reloaded;
        return await reloadLogged(undefined, true);
      },
      ignored: [config.state],
    })
    : undefined;
  /** The full feed the last server kept when it stopped, when this start serves the same one. */
  let keptFeed: KeptFeed | undefined;
  /** The full feed the last server kept, when this start's differs: its items' bytes. */
  let previousFeed: PreviousFeed & { readonly base: string } | undefined;
  try {
    const built = await build();
    if (servedMeanwhile) {
      // Served while it loads: the items' change keys, which the image's check and the
      // journal's record below read (a pass over every item), are made a part at a time.
      let keyed = 0;
      for (const item of built.index.items) {
        journal.keyOf(item);
        if (++keyed % KEYS_PART === 0) await nextTurn();
      }
    }
    const version = codeVersion();
    const cursor = formatCursor(journal.state.id, journal.state.head);
    /** This start's own key for the image's base URL, once the image says which it is. */
    let ownKey: string | undefined;
    const wanted = (meta: FeedImageMeta) => {
      if (baseUrl !== undefined && baseUrl !== meta.base) return false;
      const items = feedItemKeys(built.index, journal.keyOf);
      ownKey = feedImageKey({ version, base: meta.base, cursor, index: built.index, items });
      return meta.key === ownKey || meta.format === feedFormatKey(version, built.index, meta.base);
    };
    const image = opened.takeImage();
    const kept = image && wanted(image) ? image : undefined;
    // Used once its first index is served: a server stopped before leaves it to the next start.
    if (config && journal.durable) dropFeedImage(config.state);
    // The same content as the stopped server's: its build time, so its bytes and ETags.
    const same = kept !== undefined && kept.key === ownKey;
    const differs = () => {
      // Not served early, or a journal begun again since the check: a new cursor, not other content.
      if (opened.earlyJournal !== journal.state.id) return;
      logWarning(
        "the full feed the last server kept was served while the content loaded, but the content differs from it; the current feed is served now",
      );
    };
    // The checks before the build said nothing changed, and the build says otherwise.
    if (!same) differs();
    index = swap(same ? { ...built, index: withBuiltAt(built.index, kept.builtAt) } : built);
    // The index build's and the journal's garbage, before the first request writes the full feed.
    if (isColdLoad(built.loaded)) settings.tuning.collectAfterLoad?.();
    if (kept && same && formatCursor(journalState.id, journalState.head) === cursor) {
      // Recording it changed nothing (the same items), unless the journal went its own way.
      const { base, type, bytes, starts, etag, encoded } = kept;
      keptFeed = { base, type, full: { bytes, starts }, etag, encoded };
    } else if (kept) {
      // The journal began again as it recorded the start (another cursor): not the kept feed.
      if (same) differs();
      // Other content, written with the same code and base URL: the items it holds as they
      // were are copied from it when the full feed is first written (SPEC 17).
      let places: Map<string, number> | undefined;
      previousFeed = {
        base: kept.base,
        full: { bytes: kept.bytes, starts: kept.starts },
        placeOf: (item) =>
          (places ??= new Map(kept.items.map((key, i) => [key, i])))
            .get(feedItemKey(item, journal.keyOf)),
      };
    }
  } catch (error) {
    // A start that fails lets the journal go: the next start (in this process too) can hold it.
    stopLive?.();
    firstFailed(error);
    journal.close();
    throw error;
  }
  // Served while it loads: the handler is made after a turn of its own.
  if (servedMeanwhile) await nextTurn();
  let pending: Promise<Index> | undefined;
  const root = config?.root;
  const fileOf = (item: Item) => `${root}/${item.file}`;
  const handle = createHandler({
    index: () => index!,
    journal: () => journalState,
    baseUrl,
    ...settings,
    cacheBytes: options.cacheBytes,
    mcpAnswerBytes: options.mcpAnswerBytes,
    listenHostname: options.listenHostname,
    logError: (message) => logger.error(message),
    warn: logWarning,
    // The server's index holds no bodies (a snapshot's does): they are read
    // again, and checked against the indexed checksum, when a request needs one.
    readBody: config === undefined
      ? undefined
      : (item) => readBody(fileOf(item), item.checksum, config!.maxFileSize),
    readBytes: config === undefined
      ? undefined
      : (item) => readCheckedBytes(fileOf(item), item.checksum, config!.maxFileSize),
    // A request found files changed since the index was built: they are re-read in the
    // background, once however many requests found them (no request waits for a reload),
    // even if their size and mtime are the same (their bytes are not).
    stale: root === undefined ? undefined : (items) => {
      const paths = items.map(fileOf).filter((path) => !rereading.has(path));
      if (paths.length === 0) return;
      for (const path of paths) rereading.add(path);
      reload(paths, true).catch((error) =>
        logger.error(`re-indexing ${paths.join(", ")} failed: ${error}`)
      ).finally(() => {
        for (const path of paths) rereading.delete(path);
      });
    },
  });
  // The kept feed goes to the handler, which lets it go with its index.
  if (keptFeed) handle.seedFeed(keptFeed);
  else if (previousFeed) handle.seedPrevious(previousFeed);
  keptFeed = previousFeed = undefined;
  /** Files a request found changed, being re-read now. */
  const rereading = new Set<string>();

  /**
   * The reload waiting for the one under way, if any: later asks join it
   * (their paths added; a full listing if any asks for one), so a poll that
   * ticks faster than a reload runs on a loaded machine queues one reload,
   * never one per tick.
   */
  let waiting: WaitingReload | undefined;
  // Reloads run one after another; the swap is one assignment, so a request
  // sees the old index or the new one, never a half-built one.
  function reload(paths?: readonly string[], reread = false): Promise<Index> {
    if (waiting) {
      // Asks joined into one reload: the catch-up's listing may be older than a watcher's
      // change among them, so the reload lists on its own.
      pipeline.dropListing?.();
      if (paths === undefined) waiting.paths = undefined;
      else for (const path of paths) waiting.paths?.add(path);
      waiting.reread ||= reread;
      return waiting.done;
    }
    const next: WaitingReload = {
      paths: paths && new Set(paths),
      reread,
      done: undefined as unknown as Promise<Index>,
    };
    const run = () => {
      if (waiting === next) waiting = undefined;
      return build(index, next.paths && [...next.paths], next.reread).then(swap);
    };
    waiting = next;
    next.done = pending = (pending ?? Promise.resolve(index)).then(run, run);
    return next.done;
  }
  // What the watcher saw while the first index was built is reloaded from now on.
  firstServed(reloaded);

  const api: ContentApi = {
    fetch: (request) => Promise.resolve(handle(request)),
    get index() {
      return index!;
    },
    get cursor() {
      return formatCursor(journalState.id, journalState.head);
    },
    config,
    get lastLoad() {
      return lastLoad;
    },
    get unlistedFolders() {
      return unlistedFolders;
    },
    reload,
    close() {
      stopped = true;
      stopLive?.();
      clearTimeout(flushTimer);
      flushTimer = undefined;
      // The pipeline's state is the served index's: no build under way, waiting, or failed.
      const asServed = building === 0 && waiting === undefined && !failedBuild;
      // Files read near a change are read again, so that their stamps vouch for the next start.
      if (asServed) pipeline.settleRacy?.();
      pipeline.flush();
      // What the served index was made from, when the pipeline can still tell.
      const content = asServed ? pipeline.restartKey() : undefined;
      keepImage(
        config,
        journal,
        // Served or not: a server whose clients only asked for pages and changes keeps it too.
        () => handle.feedToKeep((bytes) => etagOfDigest(fileChecksum(bytes))),
        index!,
        journalState,
        logWarning,
        content,
        () => pipeline.gitVouch?.(),
      );
      journal.close();
    },
  };
  return { api, handle };
}
