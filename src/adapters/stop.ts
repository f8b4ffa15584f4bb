import type { Handler } from "../http/handler.ts";
import type { Listening } from "./listen.ts";
import type { Runtime } from "./mod.ts";

/** A server's way to stop on a signal: what it listens with, and how it stops. */
export interface GracefulStop {
  /** The handler the server listens with: it keeps count of what must finish first. */
  readonly fetch: Handler;
  /**
   * Stops accepting connections and resolves once the requests in flight
   * are answered and their responses written; the caller bounds the wait.
   */
  stop(server: Listening): Promise<void>;
}

/** A Node response, as srvx gives it beside the request. */
interface NodeResponse {
  readonly writableFinished: boolean;
  once(event: "close", listener: () => void): unknown;
  setHeader(name: string, value: string): unknown;
  readonly headersSent: boolean;
}

/** A Node http server, as srvx holds it. */
interface NodeServer {
  closeAllConnections(): void;
}

/**
 * How each runtime's server stops without cutting a request in flight
 * (SPEC 11), as measured:
 *
 * - Bun: `server.stop()` stops accepting and lets every request finish,
 *   its response written.
 * - Deno: `server.shutdown()` does the same for responses, but fails a
 *   request body still arriving ("Cannot read body as underlying resource
 *   unavailable"): the requests with a body (every method but `GET` and
 *   `HEAD`) are answered first, then it shuts down.
 * - Node: `http.Server.close()` also closes the connections it deems idle,
 *   among them one whose response was handed over whole (`res.end(bytes)`,
 *   srvx's way) but not yet written, so a large answer to a slow client was
 *   cut at what the socket had taken. Here the server stops listening
 *   alone, waits until every response in flight is written (or its client
 *   gone), answers meanwhile with `Connection: close`, then closes the
 *   connections left, all idle.
 *
 * @example
 * ```ts
 * import { gracefulStop } from "./stop.ts";
 * declare const handle: import("../http/handler.ts").Handler;
 * const stopping = gracefulStop("deno", handle);
 * // serve({ fetch: stopping.fetch, … }); on SIGTERM: await stopping.stop(server)
 * ```
 */
export function gracefulStop(runtime: Runtime, handle: Handler): GracefulStop {
  if (runtime === "bun") return { fetch: handle, stop: (server) => server.close() };
  let open = 0;
  let stopping = false;
  let wake: (() => void) | undefined;
  const done = () => {
    if (--open === 0) wake?.();
  };
  const settled = () => open === 0 ? Promise.resolve() : new Promise<void>((r) => wake = r);
  if (runtime === "deno") {
    return {
      fetch(request) {
        if (request.method === "GET" || request.method === "HEAD") return handle(request);
        open++;
        try {
          const answer = handle(request);
          if (answer instanceof Response) done();
          else answer.then(done, done);
          return answer;
        } catch (error) {
          done();
          throw error;
        }
      },
      async stop(server) {
        await settled();
        await server.close();
      },
    };
  }
  return {
    fetch(request) {
      const res = (request as { runtime?: { node?: { res?: NodeResponse } } }).runtime?.node?.res;
      if (res && !res.writableFinished) {
        open++;
        res.once("close", done); // written whole, or its client gone
        if (stopping && !res.headersSent) res.setHeader("Connection", "close");
      }
      return handle(request);
    },
    async stop(server) {
      stopping = true;
      const http = server.node?.server as object | undefined;
      if (!http) return await server.close();
      // net.Server's own close: stop listening, and leave the connections be.
      const { Server } = await import("node:net");
      await new Promise<void>((resolve) => {
        Server.prototype.close.call(http, () => resolve());
        // Resolves once every connection is gone: the idle ones are closed below.
        void settled().then(() => (http as unknown as NodeServer).closeAllConnections());
      });
    },
  };
}
