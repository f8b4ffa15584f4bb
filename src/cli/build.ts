// `content-feed build <dir>` (issue 28): what the routes answer without
// query parameters, written as static files for a host without a server
// (GitHub Pages, Netlify, a bucket). The same pipeline as the server's
// (bodies read again from the files, checked against their checksums), the
// routes' own plans, and a folder replaced whole or not at all.
import { resolve } from "node:path";
import { isHttpUrl, resolveBaseUrl } from "../config/base_url.ts";
import { loadConfigFile, loadConfigObject } from "../config/load.ts";
import { ConfigError, type ContentConfig } from "../config/types.ts";
import { type FeedBytes, renderFullFeed } from "../feed/feed_bytes.ts";
import { createItemTexts } from "../feed/item_text.ts";
import type { Making, Plan } from "../feed/plan.ts";
import type { Item } from "../index/item.ts";
import { contentPipeline } from "../pipeline/pipeline.ts";
import { type SitemapLimits, staticFiles } from "../routes/static_files.ts";
import { cwd as workingDirectory } from "../source/fs.ts";
import { checkOutFolder, stageFolder } from "../source/out_folder.ts";
import type { Warning } from "../source/parsed_file.ts";
import { readBody, readCheckedBytes } from "../source/read_file.ts";
import { formatCursor } from "../sync/cursor.ts";
import { createJournal } from "../sync/journal.ts";
import { contentJournalId } from "../sync/state.ts";
import { quoteValue } from "../util/quote.ts";

/** Files made and written at once: enough to keep both cores and the disk busy. */
const FILES_AT_ONCE = 16;
const encoder = new TextEncoder();

/** Options of {@link buildStaticSite}. */
export interface StaticBuildOptions {
  /** The service configuration: a file path (default `content/services.yaml`) or its value. */
  readonly config?: string | Record<string, unknown>;
  /** The folder to write: replaced whole (see `src/source/out_folder.ts` for which it may be). */
  readonly out: string;
  /** The base URL of the links, over the config's `url` (`--base-url`). */
  readonly baseUrl?: string;
  /** The base URL where neither `baseUrl` nor the config's `url` gives one (`BASE_URL`). */
  readonly fallbackBaseUrl?: string;
  /** Replace a folder that exists and is not a previous build (`--force`). */
  readonly force?: boolean;
  /** The build time, epoch ms: `meta.generated` (default now; the CLI reads `SOURCE_DATE_EPOCH`). */
  readonly now?: number;
  /** The working directory a relative `out` must stay in (default the process's). */
  readonly cwd?: string;
  /** Told how many files are read (content) or written (the build) so far, and of how many. */
  readonly progress?: (done: number, total: number, phase: "read" | "wrote") => void;
  /** Smaller sitemap parts than the sitemaps.org limits (tests). */
  readonly sitemapLimits?: SitemapLimits;
}

/** What a build wrote. */
export interface StaticBuild {
  /** The folder, absolute. */
  readonly out: string;
  /** The base URL the links are on. */
  readonly base: string;
  /** Files written (the two marker files aside), and their bytes. */
  readonly files: number;
  readonly bytes: number;
  /** Items the item routes serve (each a `.json` and a `.md`), and those in the feed. */
  readonly items: number;
  readonly feed: number;
  /** The feed's `meta.cursor` (see `contentJournalId`). */
  readonly cursor: string;
  /** What the content's load and index said of it (as `serve` would log it). */
  readonly warnings: readonly Warning[];
}

/** A content file changed while the build read it: the build stops, and nothing is replaced. */
export class ContentChanged extends Error {
  override name = "ContentChanged";
}

/**
 * Builds the static site of a configuration into `out` (issue 28): every
 * file `routes/static_files.ts` lists, each holding what its route answers
 * a `GET` without query parameters, links on the base URL (`baseUrl`, else
 * the config's `url`, else `fallbackBaseUrl`; a build without one is a
 * `ConfigError`), plus `.nojekyll` (GitHub Pages then serves the `.md`
 * files as they are) and the build's marker. The files are written into a
 * staging folder beside `out` and renamed into place at the end: a build
 * that fails (a file that changed while it was read, a full disk) leaves
 * `out` as it was. No state folder is used or made: `meta.cursor` names the
 * content (`contentJournalId`), so two builds of the same content at the
 * same `now` give the same bytes.
 *
 * @throws {ConfigError} a bad configuration, or no base URL
 * @throws {OutFolderRefused} `out` is a folder the build may not replace
 * @throws {ContentChanged} a content file changed while the build read it
 *
 * @example
 * ```ts
 * import { buildStaticSite } from "./build.ts";
 * const built = await buildStaticSite({
 *   config: "content/services.yaml", out: "public", baseUrl: "https://docs.example.com",
 * });
 * built.files; // 109 for the sample site
 * ```
 */
export async function buildStaticSite(options: StaticBuildOptions): Promise<StaticBuild> {
  const cwd = options.cwd ?? workingDirectory();
  const config = typeof options.config === "object" && options.config !== null
    ? await loadConfigObject(options.config)
    : await loadConfigFile(options.config ?? "content/services.yaml");
  const base = baseUrlOf(config, options);
  const builtAt = options.now ?? Date.now();
  const pipeline = await contentPipeline(config, {
    keepBody: false,
    now: () => builtAt,
    progress: options.progress && ((read, total) => options.progress!(read, total, "read")),
  });
  // Refused before the content is read: a wrong folder costs nothing.
  const target = await checkOutFolder(options.out, {
    cwd,
    force: options.force ?? false,
    keep: [
      { path: config.root, what: "the content root" },
      ...(typeof options.config === "object"
        ? []
        : [{ path: resolve(cwd, config.source, ".."), what: "the config's folder" }]),
      { path: config.state, what: "the state folder" },
    ],
    read: pipeline.settings.plugins.map((plugin) => ({
      path: resolve(config.root, plugin.path),
      what: `the ${plugin.name} plugin's folder`,
    })),
  });
  const { index } = await pipeline.build();

  // A journal of this index alone, named by what it recorded (no state folder).
  const recorded = createJournal({ retentionDays: config.retention, warn: () => {} })
    .record(index, builtAt);
  const journal = { ...recorded, id: contentJournalId(recorded) };
  const cursor = formatCursor(journal.id, journal.head);

  const warnings: Warning[] = [...index.warnings];
  const fileOf = (item: Item) => `${config.root}/${item.file}`;
  const texts = createItemTexts(
    (item) => readBody(fileOf(item), item.checksum, config.maxFileSize),
    undefined,
    (item) => readCheckedBytes(fileOf(item), item.checksum, config.maxFileSize),
    // Its warnings start with the file they are about (a body with too many sections).
    (message) => {
      const at = message.indexOf(": ");
      warnings.push(
        at < 0
          ? { file: "", message }
          : { file: message.slice(0, at), message: message.slice(at + 2) },
      );
    },
  );
  let full: FeedBytes | undefined;
  const making: Making = {
    gather: texts.gather,
    fullFeed: () => full ??= renderFullFeed(index, base, cursor),
  };
  const bytesOf = async (path: string, plan: Plan): Promise<Uint8Array> => {
    if (plan.kind === "problem") {
      throw new Error(`${path}: the route answered ${plan.status} (${plan.detail})`);
    }
    const made = await plan.make(making);
    if (made.stale) {
      throw new ContentChanged(
        `${made.stale[0].file} changed while the build read it; nothing was replaced: build again`,
      );
    }
    return typeof made.body === "string" ? encoder.encode(made.body) : made.body;
  };

  const files = staticFiles({ index, journal, base }, options.sitemapLimits);
  const staged = await stageFolder(target);
  let bytes = 0;
  let written = 0;
  let failure: { readonly error: unknown } | undefined;
  let next = 0;
  /** Makes and writes files until none is left or one failed (then the others stop too). */
  const worker = async () => {
    while (failure === undefined && next < files.length) {
      const file = files[next++];
      try {
        const body = await bytesOf(file.path, await file.plan());
        await staged.write(file.path, body);
        bytes += body.length;
        options.progress?.(++written, files.length, "wrote");
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  try {
    // GitHub Pages runs Jekyll on a branch without it, which turns `.md` files into pages.
    await staged.write(".nojekyll", "");
    // Every worker has stopped before the staging folder is removed or renamed.
    await Promise.all(Array.from({ length: FILES_AT_ONCE }, worker));
    if (failure) throw failure.error;
    await staged.commit();
  } catch (error) {
    await staged.discard();
    throw error;
  }
  return {
    out: target,
    base,
    files: files.length,
    bytes,
    items: index.items.length,
    feed: index.feed.length,
    cursor,
    warnings,
  };
}

/** The base URL of a build's links: `--base-url`, else the config's `url`, else `BASE_URL`. */
function baseUrlOf(config: ContentConfig, options: StaticBuildOptions): string {
  if (options.baseUrl !== undefined) {
    const given = options.baseUrl.replace(/\/+$/, "");
    if (!isHttpUrl(given)) {
      throw new ConfigError(
        `--base-url: expected an absolute http(s) URL, got ${quoteValue(options.baseUrl)}`,
      );
    }
    return given;
  }
  const base = resolveBaseUrl(config.url, options.fallbackBaseUrl);
  if (base === undefined) {
    throw new ConfigError(
      `${config.source}: a build writes absolute links and needs a base URL: set url in the config, BASE_URL, or --base-url`,
    );
  }
  return base;
}
