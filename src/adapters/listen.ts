import type { Handler } from "../http/handler.ts";
import { listenDeno } from "./deno.ts";
import type { Runtime } from "./mod.ts";

/**
 * A server listening for the handler: what `content-feed serve` needs of
 * one, whichever serves it (srvx's server has this shape).
 */
export interface Listening {
  /** `http://host:port/` once listening (an IPv6 host in brackets). */
  readonly url?: string;
  /** Resolves once the server listens; rejects when it cannot (a port in use). */
  ready(): Promise<unknown>;
  /** Stops accepting and resolves once the requests in flight are answered. */
  close(closeAll?: boolean): Promise<void>;
  /** Node's `http.Server`, under Node (srvx's). */
  readonly node?: { readonly server?: unknown };
}

/** Where and what to serve. */
export interface ListenOptions {
  readonly fetch: Handler;
  readonly port: number;
  readonly hostname: string;
}

/**
 * Serves `fetch` on this runtime: `Deno.serve` itself under Deno (srvx's
 * wrapper of it defines three properties on every request and runs a
 * middleware chain, which halved the requests a second of a `304`), srvx
 * under Bun and Node (loaded only there).
 *
 * @example
 * ```ts
 * import { listen } from "./listen.ts";
 * const server = await listen("deno", {
 *   fetch: () => new Response("ok"),
 *   port: 0,
 *   hostname: "127.0.0.1",
 * });
 * await server.ready();
 * await server.close();
 * ```
 */
export async function listen(runtime: Runtime, options: ListenOptions): Promise<Listening> {
  if (runtime === "deno") return listenDeno(options);
  const { serve } = await import("srvx");
  return serve({
    fetch: options.fetch,
    port: options.port,
    hostname: options.hostname,
    silent: true,
    gracefulShutdown: false, // the caller's own signal handlers stop the server
    bun: { development: false },
  });
}
