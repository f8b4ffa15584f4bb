import type { Tuning } from "../http/settings.ts";
import { collectV8Garbage } from "./v8_collect.ts";
import type { Listening, ListenOptions } from "./listen.ts";

/**
 * Deno: a new `Response` copies the bytes it is given, a clone of one
 * shares them, so repeated answers are clones of one built per variant.
 * A first start's load is followed by a full collection (V8's `gc()`).
 *
 * @example
 * ```ts
 * import { denoTuning } from "./deno.ts";
 * denoTuning.cloneResponses; // true
 * ```
 */
export const denoTuning: Tuning = {
  cloneResponses: true,
  streamsKeepLength: true,
  collectAfterLoad: collectV8Garbage,
};

/** The part of Deno's namespace `listenDeno` uses (the global exists only under Deno). */
interface DenoServe {
  serve(
    options: {
      port: number;
      hostname: string;
      onListen: (address: { hostname: string; port: number }) => void;
    },
    handler: (request: Request) => Response | Promise<Response>,
  ): { shutdown(): Promise<void> };
}

/**
 * Serves a handler with `Deno.serve` and nothing between: the request goes
 * to the handler as Deno made it. Throws `AddrInUse` (as `Deno.serve`
 * does) when the port is taken.
 *
 * @example
 * ```ts
 * import { listenDeno } from "./deno.ts";
 * const server = listenDeno({ fetch: () => new Response("ok"), port: 0, hostname: "127.0.0.1" });
 * await server.ready();
 * console.log(server.url); // "http://127.0.0.1:…/"
 * await server.close();
 * ```
 */
export function listenDeno(options: ListenOptions): Listening {
  const deno = (globalThis as unknown as { Deno: DenoServe }).Deno;
  let url: string | undefined;
  let listening!: () => void;
  const ready = new Promise<void>((resolve) => listening = resolve);
  const server = deno.serve({
    port: options.port,
    hostname: options.hostname,
    onListen({ hostname, port }) {
      url = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}/`;
      listening();
    },
  }, options.fetch);
  return {
    get url() {
      return url;
    },
    ready: () => ready,
    close: () => server.shutdown(),
  };
}
