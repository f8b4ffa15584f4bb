import process from "node:process";
import { serve } from "srvx";
import { ConfigError } from "../config/types.ts";
import { currentRuntime, tuningFor } from "../adapters/mod.ts";
import { createService, type Service } from "../service.ts";
import { warningLines } from "../log.ts";
import type { LoadWork } from "../source/load_work.ts";

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
  /** Stops watching and listening. */
  close(): Promise<void>;
}

/** An error's message on one line, without colour codes or a stack. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // deno-lint-ignore no-control-regex -- colour codes are what it removes
  return text.replace(/\x1b\[[0-9;]*m/g, "").split("\n")[0].trim();
}

/**
 * Loads the content, listens, prints the start-up line (the URL and each
 * plugin's items) and then the warnings, and keeps the index current
 * (SPEC 10, 11); SIGINT and SIGTERM close it and exit 0. Responses are
 * built the runtime's best way (`src/adapters/`), served by srvx.
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
  let service: Service;
  try {
    service = await createService({
      logger,
      config: options.config,
      baseUrl: options.baseUrl,
      watch: true,
      // Bound to a loopback address, the MCP server refuses other hosts (SPEC 14).
      listenHostname: hostname,
    }, tuningFor(currentRuntime()));
  } catch (error) {
    if (error instanceof ConfigError) throw new StartupError(error.message, 2);
    throw new StartupError(`start-up failed: ${oneLine(error)}`, 1);
  }
  let server: ReturnType<typeof serve>;
  try {
    server = serve({
      fetch: service.handle, // a ready answer without a promise
      port,
      hostname,
      silent: true,
      gracefulShutdown: false, // our own handlers below close the server and exit 0
      bun: { development: false },
    });
    await server.ready();
  } catch (error) {
    service.api.close();
    const code = (error as { code?: string }).code ?? (error as Error)?.name;
    const cause = code === "EADDRINUSE" || code === "AddrInUse" || /in use/i.test(oneLine(error))
      ? "the port is already in use"
      : oneLine(error);
    throw new StartupError(`cannot listen on ${hostname}:${port}: ${cause}`, 1);
  }
  const close = async () => {
    service.api.close();
    await server.close();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, async () => {
      await close();
      process.exit(0);
    });
  }
  const counts =
    service.api.index.counts.map((c) => `${c.plugin} ${c.items} (${c.feed} in feed)`).join(", ") ||
    "no content plugins enabled";
  console.log(`content-feed listening on ${server.url} · ${counts}`);
  console.log(loadLine(service.api.lastLoad));
  started = true;
  // A plugin folder that is not there (a typo in `path`): said, not fatal; made later, it is served.
  for (const line of warningLines(service.api.unlistedFolders)) console.error(line);
  for (const message of held) console.error(message);
  return { url: server.url!, service, close };
}

/**
 * The start-up's second line: what loading the content did (SPEC 17), in
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
