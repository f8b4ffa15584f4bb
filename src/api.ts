import { ConfigError, type ContentConfig } from "./config.ts";
import { buildIndex, type Index, type IndexSettings } from "./index/build.ts";
import { createHandler } from "./http/router.ts";
import { loadConfigFile, loadConfigObject } from "./load_config.ts";
import { createLoader } from "./source/loader.ts";
import type { Warning } from "./source/parsed_file.ts";
import { readSnapshotFile, type Snapshot, snapshotSettings } from "./snapshot.ts";

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
  /** Log lines (warnings about content go to `warn`). */
  readonly logger?: Logger;
  /** The clock, for the index build time (default `Date.now`). */
  readonly now?: () => number;
}

/** The service: a `fetch` handler over an index that can be rebuilt. */
export interface ContentApi {
  /** Answers one request; hand it to `Deno.serve`, `Bun.serve`, srvx, Hono's `mount`, or `export default`. */
  fetch(request: Request): Promise<Response>;
  /** The index that requests are answered from now. */
  readonly index: Index;
  /** The resolved configuration (`undefined` when serving a snapshot). */
  readonly config: ContentConfig | undefined;
  /** Re-reads what changed on disk and swaps in the new index atomically. */
  reload(): Promise<Index>;
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
  if (baseUrl !== undefined && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(baseUrl)) {
    throw new ConfigError(
      `BASE_URL: expected an absolute http(s) URL, got ${JSON.stringify(options.baseUrl)}`,
    );
  }
  let config: ContentConfig | undefined;
  let settings: IndexSettings;
  let load: () => Promise<{ files: Snapshot["files"]; warnings: Warning[] }>;
  if (options.snapshot !== undefined) {
    const snapshot = typeof options.snapshot === "string"
      ? await readSnapshotFile(options.snapshot)
      : options.snapshot;
    settings = snapshotSettings(snapshot);
    load = () => Promise.resolve({ files: snapshot.files, warnings: [] });
  } else {
    config = typeof options.config === "object" && options.config !== null
      ? await loadConfigObject(options.config)
      : await loadConfigFile(options.config ?? "content/services.yaml");
    const { title, url, api, sitemap } = config;
    settings = {
      title,
      url,
      api,
      sitemap,
      plugins: config.plugins.map(({ name, path }) => ({ name, path })),
    };
    const loader = createLoader(config);
    load = () => loader.load();
  }
  baseUrl = settings.url ?? baseUrl;

  let logged = new Set<string>();
  const build = async () => {
    const { files, warnings } = await load();
    const next = buildIndex(files, settings, now(), warnings);
    // Each warning once per file per content version: a reload repeats none that still stand.
    const lines = new Set(next.warnings.map((w) => `${w.file}: ${w.message}`));
    for (const line of lines) if (!logged.has(line)) logger.warn(`warning: ${line}`);
    logged = lines;
    return next;
  };
  let index = await build();
  let pending: Promise<Index> | undefined;
  const handler = createHandler({
    index: () => index,
    baseUrl,
    cors: options.cors ?? true,
    cacheControl: options.cacheControl ?? "public, max-age=60",
    Response: options.Response,
    logError: (message) => logger.error(message),
  });
  return {
    fetch: handler,
    get index() {
      return index;
    },
    config,
    reload() {
      // Reloads queue behind each other; the swap is one assignment.
      pending = (pending ?? Promise.resolve(index)).then(build, build).then((
        next,
      ) => (index = next));
      return pending;
    },
  };
}
