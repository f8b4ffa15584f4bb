import { ConfigError, type ContentConfig, isHttpUrl } from "./config.ts";
import { buildIndex, type Index, type IndexSettings, indexSettings } from "./index/build.ts";
import { createHandler } from "./http/router.ts";
import type { Item } from "./index/item.ts";
import { loadConfigFile, loadConfigObject } from "./load_config.ts";
import { keepLive } from "./live.ts";
import { type ContentLoader, createLoader } from "./source/loader.ts";
import { readBody } from "./source/read_file.ts";
import type { IndexedFile, Warning } from "./source/parsed_file.ts";
import { readSnapshotFile, type Snapshot, snapshotFiles, snapshotSettings } from "./snapshot.ts";
import { warningLines } from "./warnings_log.ts";

/** Where log lines go; defaults to `console`. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
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
  /** The `Response` class (srvx's `FastResponse` on Node); default the global `Response`. */
  readonly Response?: typeof Response;
  /**
   * Answer repeated requests with clones of one `Response` built per
   * representation: no copy of the body per request under Deno and Bun
   * (`main.ts` turns it on there). Leave it off under Node, whose web
   * `Response` tees a clone's stream. Default `false`.
   */
  readonly cloneResponses?: boolean;
  /**
   * Bytes of cached responses to keep (default 64 MB, SPEC 9): pages, items
   * and other answers beyond the index's own full feed, least recently used
   * first out.
   */
  readonly cacheBytes?: number;
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
  /**
   * `fetch` for servers that take a `Response` or a promise of one
   * (`Deno.serve`, `Bun.serve`, srvx): a request the response cache answers
   * (a repeated GET or HEAD, a 304) gets its `Response` without a promise.
   */
  respond(request: Request): Response | Promise<Response>;
  /** The index that requests are answered from now. */
  readonly index: Index;
  /** The resolved configuration (`undefined` when serving a snapshot). */
  readonly config: ContentConfig | undefined;
  /**
   * Re-reads what changed on disk and swaps in the new index atomically;
   * with `paths` (absolute), looks only at those files.
   */
  reload(paths?: readonly string[]): Promise<Index>;
  /** Stops watching; the index stays as it is. */
  close(): void;
}

/**
 * Loads the content once and returns the service (SPEC 1). A bad
 * configuration rejects with a {@link ConfigError} whose message is one line;
 * a bad content file only logs a warning naming it.
 *
 * @example
 * ```ts
 * import { createContentApi } from "../mod.ts";
 * const api = await createContentApi({ config: "content/services.yaml" });
 * const response = await api.fetch(new Request("http://localhost:8000/api/content.json"));
 * ```
 */
export async function createContentApi(options: ContentApiOptions = {}): Promise<ContentApi> {
  const logger = options.logger ?? console;
  const now = options.now ?? Date.now;
  let baseUrl = options.baseUrl?.replace(/\/+$/, "") || undefined;
  if (baseUrl !== undefined && !isHttpUrl(baseUrl)) {
    throw new ConfigError(
      `BASE_URL: expected an absolute http(s) URL, got ${JSON.stringify(options.baseUrl)}`,
    );
  }
  let config: ContentConfig | undefined;
  let loader: ContentLoader | undefined;
  let settings: IndexSettings;
  let load: (
    paths?: readonly string[],
    reread?: boolean,
  ) => Promise<
    {
      files: readonly IndexedFile[];
      warnings: Warning[];
      changed: boolean;
      listed: boolean;
      irregular: boolean;
    }
  >;
  if (options.snapshot !== undefined) {
    const snapshot = typeof options.snapshot === "string"
      ? await readSnapshotFile(options.snapshot)
      : options.snapshot;
    settings = snapshotSettings(snapshot);
    const files = snapshotFiles(snapshot);
    load = () =>
      Promise.resolve({ files, warnings: [], changed: false, listed: true, irregular: false });
  } else {
    config = typeof options.config === "object" && options.config !== null
      ? await loadConfigObject(options.config)
      : await loadConfigFile(options.config ?? "content/services.yaml");
    settings = indexSettings(config);
    loader = createLoader(config, { keepText: false });
    load = (paths, reread) => loader!.load(paths, reread);
  }
  baseUrl = settings.url ?? baseUrl;

  let logged = new Set<string>();
  /** What the last load said of the content (the live loop adapts to it). */
  let reloaded = { listed: true, irregular: false };
  const build = async (previous?: Index, paths?: readonly string[], reread?: boolean) => {
    const loaded = await load(paths, reread);
    reloaded = { listed: loaded.listed, irregular: loaded.irregular };
    // Unchanged content keeps its index, so `generated` and every ETag stay put.
    if (previous && !loaded.changed) return previous;
    const next = buildIndex(loaded.files, settings, now(), loaded.warnings);
    // Each warning once per file per content version: a reload repeats none that still stand.
    const key = (w: Warning) => `${w.file}\n${w.message}`;
    const standing = new Map(next.warnings.map((w) => [key(w), w]));
    const fresh = [...standing].filter(([k]) => !logged.has(k)).map(([, w]) => w);
    for (const line of warningLines(fresh)) logger.warn(line);
    logged = new Set(standing.keys());
    return next;
  };
  let index = await build();
  let pending: Promise<Index> | undefined;
  const root = config?.root;
  const fileOf = (item: Item) => `${root}/${item.file}`;
  const handler = createHandler({
    index: () => index,
    baseUrl,
    cors: options.cors ?? true,
    cacheControl: options.cacheControl ?? "public, max-age=60",
    Response: options.Response,
    cloneResponses: options.cloneResponses,
    cacheBytes: options.cacheBytes,
    logError: (message) => logger.error(message),
    // The server's index holds no bodies (a snapshot's does): they are read
    // again, and checked against the indexed checksum, when a request needs one.
    readBody: config === undefined
      ? undefined
      : (item) => readBody(fileOf(item), item.checksum, config!.maxFileSize),
    // Re-read even if its size and mtime are the same: its bytes are not.
    refresh: root === undefined ? undefined : (items) => reload(items.map(fileOf), true),
  });

  // Reloads queue behind each other; the swap is one assignment, so a request
  // sees the old index or the new one, never a half-built one.
  function reload(paths?: readonly string[], reread = false): Promise<Index> {
    const run = () => build(index, paths, reread).then((next) => (index = next));
    pending = (pending ?? Promise.resolve(index)).then(run, run);
    return pending;
  }
  const reloadLogged = (paths?: readonly string[]) =>
    reload(paths).catch((error) =>
      logger.error(`content reload failed; still serving the previous index: ${error}`)
    );

  const stopLive = options.watch && config
    ? keepLive({
      root: config.root,
      mode: options.watch,
      pollInterval: options.pollInterval ?? 1000,
      relistInterval: options.relistInterval ?? 60_000,
      reload: (paths) => reloadLogged(paths).then(() => reloaded),
      foldersChanged: () => loader!.foldersChanged(),
      initial: reloaded,
      warn: (message) => logger.warn(message),
    })
    : undefined;

  return {
    fetch: handler,
    respond: handler.respond,
    get index() {
      return index;
    },
    config,
    reload,
    close() {
      stopLive?.();
    },
  };
}
