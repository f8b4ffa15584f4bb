import process from "node:process";
import { ConfigError } from "../config/types.ts";
import { currentRuntime, tuningFor } from "../adapters/mod.ts";
import { listen, type Listening } from "../adapters/listen.ts";
import { gracefulStop } from "../adapters/stop.ts";
import { type Service, type StartingService, startService } from "../service.ts";
import { warningLines } from "../log.ts";
import type { LoadWork } from "../source/load_work.ts";
import { unref } from "../util/unref.ts";

/**
 * A start-up that failed: one line naming the cause (SPEC 11), and the exit
 * code, 2 for a configuration error, 1 for anything else (a port in use).
 */
export class StartupError extends Error {
  override name = "StartupError";
  /** The process's exit code. */
  readonly exitCode: 1 | 2;
  constructor(message: string, exitCode: 1 | 2) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** What `content-feed serve` (and `main.ts`) start. */
export interface ServeOptions {
  /** The config file (default `content/services.yaml`). */
  readonly config?: string;
  readonly port: number;
  readonly hostname: string;
  /** The base URL when the config sets none (`BASE_URL`). */
  readonly baseUrl?: string;
}

/** A server that listens. */
export interface RunningServer {
  readonly url: string;
  readonly service: Service;
  /**
   * Stops accepting, lets the requests in flight finish (at most
   * {@link SHUTDOWN_GRACE_MS}), then stops watching and closes the journal.
   */
  close(): Promise<void>;
}

/** An error's message on one line, without colour codes or a stack. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // deno-lint-ignore no-control-regex -- colour codes are what it removes
  return text.replace(/\x1b\[[0-9;]*m/g, "").split("\n")[0].trim();
}

/** How long requests in flight may take to finish once a signal asks the server to stop, in ms. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** How often a server started by npm checks that its parent is still there, in ms. */
const PARENT_CHECK_MS = 500;

/**
 * Reads the config, listens, and loads the content while `/api/health`
 * answers `503` `{"status":"starting"}` (every other route a `503`
 * problem); then prints the start-up line (a URL that answers, and each
 * plugin's items) and the warnings, and keeps the index current (SPEC 10,
 * 11). SIGINT and SIGTERM stop it: it stops accepting, lets the requests in
 * flight finish (at most {@link SHUTDOWN_GRACE_MS}), closes the journal
 * (writing the derivation cache) and exits 0. Started by npm (`npx
 * content-feed serve`, a package.json script), whose shell does not pass a
 * signal on, it stops the same way when that shell is gone. Responses are
 * built the runtime's best way (`src/adapters/`), served by `Deno.serve`
 * under Deno and by srvx under Bun and Node (`src/adapters/listen.ts`).
 *
 * @throws {StartupError} a bad config (exit 2), a port in use or any other failure (exit 1)
 *
 * @example
 * ```ts
 * import { serveContent } from "./serve.ts";
 * const server = await serveContent({ port: 8000, hostname: "0.0.0.0" });
 * ```
 */
export async function serveContent(options: ServeOptions): Promise<RunningServer> {
  const { port, hostname } = options;
  // Warnings found while loading wait until the start-up line is out (SPEC 11).
  const held: string[] = [];
  let started = false;
  const logger = {
    info: (message: string) => console.log(message),
    warn: (message: string) => started ? console.error(message) : held.push(message),
    error: (message: string) => console.error(message),
  };
  let starting: StartingService;
  try {
    starting = await startService({
      logger,
      config: options.config,
      baseUrl: options.baseUrl,
      watch: true,
      // Bound to a loopback address, the MCP server refuses other hosts (SPEC 14).
      listenHostname: hostname,
      // A restart that finds the content as it was serves the kept full feed while it loads.
      early: true,
    }, tuningFor(currentRuntime()));
  } catch (error) {
    if (error instanceof ConfigError) throw new StartupError(error.message, 2);
    throw new StartupError(`start-up failed: ${oneLine(error)}`, 1);
  }
  const stopping = gracefulStop(currentRuntime(), starting.handle);
  let server: Listening;
  try {
    // Our own handlers below stop the server and exit 0.
    server = await listen(currentRuntime(), {
      fetch: stopping.fetch, // a ready answer without a promise
      port,
      hostname,
    });
    await server.ready();
  } catch (error) {
    // The first build goes on: its journal is let go once it ends.
    starting.ready.then((service) => service.api.close(), () => {});
    const code = (error as { code?: string }).code ?? (error as Error)?.name;
    const cause = code === "EADDRINUSE" || code === "AddrInUse" || /in use/i.test(oneLine(error))
      ? "the port is already in use"
      : oneLine(error);
    throw new StartupError(`cannot listen on ${hostname}:${port}: ${cause}`, 1);
  }
  const origin = reachableOrigin(server.url!);
  const basePath = starting.baseUrl ? new URL(starting.baseUrl).pathname.replace(/\/+$/, "") : "";
  console.log(
    `content-feed starting: loading the content; ${origin}${basePath}/api/health answers "starting" until it is served`,
  );
  /** Each plugin's items, as the start-up line says them. */
  const countsText = (counts: readonly { plugin: string; items: number; feed: number }[]) =>
    counts.map((c) => `${c.plugin} ${c.items} (${c.feed} in feed)`).join(", ") ||
    "no content plugins enabled";
  const listeningLine = (first: string, counts: string) =>
    `content-feed listening on ${origin}${basePath}${first} · ${counts}`;
  // A restart that found the content as the last server left it serves that server's full
  // feed while it loads (SPEC 17): its start-up line says so at once.
  if (starting.early) {
    const counts = countsText(starting.early.counts);
    console.log(
      `${
        listeningLine("/api/content.json", counts)
      } (kept from the last run; the rest is served once loaded)`,
    );
  }
  let service: Service | undefined;
  let closing: Promise<void> | undefined;
  let closeFailed: string | undefined;
  /** Stops accepting, lets the requests in flight finish (bounded), closes the journal. */
  const close = (): Promise<void> =>
    closing ??= (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finished = await Promise.race([
        stopping.stop(server).then(() => true, () => true),
        new Promise<false>((resolve) =>
          timer = setTimeout(() => resolve(false), SHUTDOWN_GRACE_MS)
        ),
      ]);
      clearTimeout(timer);
      if (!finished) {
        console.error(
          `content-feed: requests still in flight after ${SHUTDOWN_GRACE_MS / 1000} s were cut`,
        );
        server.close(true).catch(() => {});
      }
      // The journal is written as each index is swapped in: closing it lets the file go,
      // and writes what the derivation cache has not yet kept.
      try {
        service?.api.close();
      } catch (error) {
        closeFailed = oneLine(error);
      }
    })();
  const stop = async (why: string) => {
    if (closing) return; // a second signal while stopping changes nothing: the wait is bounded
    console.log(`content-feed stopping (${why}): finishing the requests in flight`);
    await close();
    if (closeFailed !== undefined) {
      console.error(`content-feed: closing the state folder failed: ${closeFailed}`);
      process.exit(1);
    }
    console.log(`content-feed stopped (${why})`);
    process.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stop(signal));
  watchParent(() => stop("its npm shell is gone"));
  try {
    service = await starting.ready;
  } catch (error) {
    // A signal came first: the process exits 0 once the server is closed.
    if (closing) return await new Promise<never>(() => {});
    await server.close(true).catch(() => {});
    if (error instanceof ConfigError) throw new StartupError(error.message, 2);
    throw new StartupError(`start-up failed: ${oneLine(error)}`, 1);
  }
  if (closing) return { url: server.url!, service, close };
  const counts = countsText(service.api.index.counts);
  const first = service.api.index.settings.api ? "/api/content.json" : "/";
  if (!starting.early) console.log(listeningLine(first, counts));
  // The counts said early are the kept feed's: said again when the index's are others.
  else if (counts === countsText(starting.early.counts)) {
    console.log(`content-feed serving every route on ${origin}${basePath}/`);
  } else console.log(`${listeningLine(first, counts)} (serving every route)`);
  console.log(loadLine(service.api.lastLoad));
  started = true;
  // A plugin folder that is not there (a typo in `path`): said, not fatal; made later, it is served.
  for (const line of warningLines(service.api.unlistedFolders)) console.error(line);
  for (const message of held) console.error(message);
  return { url: server.url!, service, close };
}

/**
 * The origin a client on this machine can open for a server's address:
 * `localhost` for the wildcard addresses (`0.0.0.0`, `::`), which no client
 * can connect to by name.
 *
 * @example
 * ```ts
 * import { reachableOrigin } from "./serve.ts";
 * reachableOrigin("http://0.0.0.0:8000/"); // "http://localhost:8000"
 * reachableOrigin("http://127.0.0.1:8000/"); // "http://127.0.0.1:8000"
 * ```
 */
export function reachableOrigin(listening: string): string {
  const url = new URL(listening);
  if (url.hostname === "0.0.0.0" || url.hostname === "[::]") url.hostname = "localhost";
  return url.origin;
}

/**
 * Under npm (`npx content-feed serve`, `npm run`, `npm exec`: npm sets
 * `npm_lifecycle_event`), the command runs in `sh -c`, and npm passes
 * SIGTERM and SIGINT to that shell, which ends without passing them on:
 * the server would be left running with no parent. So a server started by
 * npm checks twice a second that its parent is the one it started with, and
 * stops as on SIGTERM when it is not.
 */
function watchParent(stop: () => void): void {
  if (!process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const timer = unref(setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      stop();
    }
  }, PARENT_CHECK_MS));
}

/**
 * The start-up line after the one with the URL: what loading the content did (SPEC 17), in
 * counts a reader can compare between starts.
 *
 * @example
 * ```ts
 * import { loadLine } from "./serve.ts";
 * loadLine({ files: 3, ms: 40, stated: 3, read: 1, derived: 1, verified: 0, rebased: 0,
 *   fromCache: 2, parses: 1, git: 2 });
 * // "loaded 3 files in 40 ms: 2 from the state folder's cache, 1 read (1 derived, 0 checked), 0 dated again; 3 stat'ed, 1 parser run, 2 git processes"
 * ```
 */
export function loadLine(load: LoadWork & { readonly files: number; readonly ms: number }): string {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return `loaded ${
    plural(load.files, "file", "files")
  } in ${load.ms} ms: ${load.fromCache} from the state folder's cache, ${load.read} read (${load.derived} derived, ${load.verified} checked), ${load.rebased} dated again; ${load.stated} stat'ed, ${
    plural(load.parses, "parser run", "parser runs")
  }, ${plural(load.git, "git process", "git processes")}`;
}

/**
 * The serve options the environment gives (SPEC 11): `PORT` (default
 * 8000), `HOST` (default `0.0.0.0`; never `HOSTNAME`, which shells set to
 * the machine's name), `CONTENT_CONFIG`, `BASE_URL`.
 *
 * @throws {StartupError} a `PORT` that is not a port (exit 2)
 *
 * @example
 * ```ts
 * import { serveOptionsFromEnv } from "./serve.ts";
 * serveOptionsFromEnv({ PORT: "9000" }); // { port: 9000, hostname: "0.0.0.0", … }
 * ```
 */
export function serveOptionsFromEnv(env: Record<string, string | undefined>): ServeOptions {
  const port = Number(env.PORT || 8000);
  if (!/^\d*$/.test(env.PORT ?? "") || !Number.isInteger(port) || port > 65535) {
    throw new StartupError(
      `PORT: expected an integer from 0 to 65535, got ${JSON.stringify(env.PORT)}`,
      2,
    );
  }
  return {
    port,
    hostname: env.HOST || "0.0.0.0",
    config: env.CONTENT_CONFIG || undefined,
    baseUrl: env.BASE_URL || undefined,
  };
}
