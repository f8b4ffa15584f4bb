// The bridge from node:http's request and response objects to the service's
// `fetch(Request)`: for node:http, Express and Fastify. It imports nothing
// from Node (the shapes below are structural), so it type-checks and loads
// under Deno and Bun too, and no type of node:http reaches the package's
// declarations; `main.ts` never loads it (srvx serves there).
import { mountedAt } from "../http/mount.ts";
import type { ContentApi } from "../service.ts";

/**
 * What {@link toNodeListener} reads of a request: node:http's
 * `IncomingMessage`, and what Express adds to it (`originalUrl`, `baseUrl`,
 * `protocol`, and `body` when a body parser read the stream first).
 */
export interface NodeRequest {
  /** The request's method (`GET` when absent). */
  readonly method?: string;
  /** The path and query (Express: after its mount path). */
  readonly url?: string;
  /** The headers, by lower-case name. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The headers as received, name and value in turn (keeps repeated ones apart). */
  readonly rawHeaders?: readonly string[];
  /** The connection (a TLS socket has `encrypted: true`). */
  readonly socket?: unknown;
  /** Whether the body was read to its end (by a body parser). */
  readonly readableEnded?: boolean;
  /** Express: the whole path and query, its mount path included. */
  readonly originalUrl?: string;
  /** Express: the path the app mounted the listener under (`/feed`). */
  readonly baseUrl?: string;
  /** Express: `http` or `https` (its `trust proxy` setting decides whether a proxy's word counts). */
  readonly protocol?: string;
  /** Express: what a body parser read, when one ran first. */
  readonly body?: unknown;
  /** A chunk of the body. */
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  /** The end of the body. */
  on(event: "end", listener: () => void): unknown;
  /** A failure while the body was received. */
  on(event: "error", listener: (error: Error) => void): unknown;
  /** Stops the body's chunks until {@link NodeRequest.resume}. */
  pause(): unknown;
  /** Lets the body's chunks come. */
  resume(): unknown;
}

/** What {@link toNodeListener} does with a response: node:http's `ServerResponse`. */
export interface NodeResponse {
  /** Whether the status and headers were sent. */
  readonly headersSent: boolean;
  /** Whether the whole response was handed to the connection. */
  readonly writableFinished: boolean;
  /** Whether the connection was closed or destroyed. */
  readonly destroyed: boolean;
  /** Sends the status and headers. */
  writeHead(status: number, headers: Record<string, string | string[]>): unknown;
  /** Writes a part of the body; `false` when the connection should be let to drain first. */
  write(chunk: Uint8Array): boolean;
  /** Ends the response. */
  end(): unknown;
  /** The connection closed (the response sent, or the client gone). */
  on(event: "close", listener: () => void): unknown;
  /** Once: the connection closed, or drained (it takes more). */
  once(event: "close" | "drain", listener: () => void): unknown;
  /** Removes a listener. */
  off(event: "close" | "drain", listener: () => void): unknown;
  /** Closes the connection at once. */
  destroy(): unknown;
}

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions {
  /**
   * The path the host serves the feed under, where it does not say so
   * itself (Fastify, a node:http server that routes by prefix): requests
   * under it are routed without it, and links are written under it
   * (unless the service has a configured base URL). Express says it
   * (`req.baseUrl`): no need there.
   */
  readonly prefix?: string;
}

/** A node:http request listener that answers from a content API. */
export type NodeListener = (request: NodeRequest, response: NodeResponse) => Promise<void>;

/** Bytes written to the connection at a time: a large body goes out at the client's pace. */
const WRITE_BYTES = 64 * 1024;

const encoder = new TextEncoder();

/**
 * A node:http request listener for a content API (SPEC 15): for
 * `http.createServer`, Express (`app.use("/feed", toNodeListener(api))`:
 * routes and links under `/feed`, from `req.originalUrl` and `req.baseUrl`)
 * and Fastify (a route that hijacks the reply, with `{ prefix }`). Bodies
 * go out in 64 KiB writes at the pace the client reads them; a client that
 * goes away mid-response stops the writing; request bodies (`POST
 * /api/mcp`) are streamed to the service, or taken from `req.body` when a
 * body parser read them first. `HEAD`, `304` and problem documents are
 * passed on as the service answers them. The scheme is the connection's
 * (Express: `req.protocol`), the host the `Host` header's: behind a proxy,
 * set the service's base URL (`url` or `baseUrl`).
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { createContentApi, toNodeListener } from "../../mod.ts";
 * const api = await createContentApi({ config: "content/services.yaml" });
 * createServer(toNodeListener(api)).listen(8000);
 * // Express: app.use("/feed", toNodeListener(api));
 * ```
 */
export function toNodeListener(
  api: Pick<ContentApi, "fetch">,
  options: NodeListenerOptions = {},
): NodeListener {
  const prefix = mountPath(options.prefix);
  return async (req, res) => {
    const aborted = new AbortController();
    const gone = () => {
      if (!res.writableFinished) aborted.abort();
    };
    res.on("close", gone);
    try {
      const response = await api.fetch(toRequest(req, prefix, aborted.signal));
      await send(response, req.method === "HEAD", res, aborted.signal);
    } catch {
      // The service answers its own errors: this is the bridge failing (a body that
      // cannot be read). Nothing is known of it that a client should see.
      if (!res.headersSent && !res.destroyed) {
        const body = encoder.encode(
          '{"type":"about:blank","title":"Internal Server Error","status":500,"detail":"the request could not be passed on"}',
        );
        res.writeHead(500, {
          "Content-Type": "application/problem+json",
          "Content-Length": String(body.length),
          "Cache-Control": "no-store",
        });
        res.write(body);
        res.end();
      } else if (!res.writableFinished) res.destroy();
    }
  };
}

/** The prefix option checked: `""`, or `/` and segments without a trailing slash. */
function mountPath(prefix: string | undefined): string {
  if (prefix === undefined) return "";
  if (!/^\/[^?#]*$/.test(prefix)) {
    throw new TypeError(
      `toNodeListener: prefix must be a path that starts with "/", got ${JSON.stringify(prefix)}`,
    );
  }
  return prefix.replace(/\/+$/, "");
}

/** A `Host` header that can name an origin (as `http/host.ts` checks it). */
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The web `Request` of a node:http request: its public URL, headers, body and abort signal. */
function toRequest(req: NodeRequest, prefix: string, signal: AbortSignal): Request {
  const method = req.method ?? "GET";
  const host = header(req, "host") ?? header(req, ":authority");
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const scheme = req.protocol === "https" || req.protocol === "http"
    ? req.protocol
    : encrypted
    ? "https"
    : "http";
  let path = req.originalUrl ?? req.url ?? "/";
  if (!path.startsWith("/")) {
    // The absolute form (a proxy's request line) or `*`: only the path counts.
    path = URL.canParse(path) ? pathOf(new URL(path)) : "/";
  }
  // A Host that cannot name an origin is not joined to the path (it could move it):
  // the service answers it with a 400, as it does any other.
  const origin = `${scheme}://${host !== undefined && HOST.test(host) ? host : "invalid.invalid"}`;
  const url = new URL(`${origin}${path}`);
  const headers = new Headers();
  const raw = req.rawHeaders;
  if (raw) {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      if (!raw[i].startsWith(":")) headers.append(raw[i], raw[i + 1]);
    }
  } else {
    for (const [name, value] of Object.entries(req.headers)) {
      if (name.startsWith(":") || value === undefined) continue;
      for (const one of typeof value === "string" ? [value] : value) headers.append(name, one);
    }
  }
  if (host !== undefined && !headers.has("host")) headers.set("host", host);
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal };
  if (method !== "GET" && method !== "HEAD") {
    const body = bodyOf(req);
    if (body !== undefined) {
      init.body = body;
      init.duplex = "half";
    }
  }
  const request = new Request(url, init);
  // Express's mount path, or the prefix the host said: what follows it is routed.
  const mount = prefix || (req.baseUrl ?? "").replace(/\/+$/, "");
  return mount ? mountedAt(request, mount) : request;
}

function pathOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}

/** A header's value as one string (node:http gives repeated ones as a list). */
function header(req: NodeRequest, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" ? value : value?.[0];
}

/**
 * A request's body: the stream itself, read as the service asks for it
 * (paused while it does not), or what a body parser made of it when one
 * read it first (bytes and text as they are, anything else as JSON).
 */
function bodyOf(req: NodeRequest): BodyInit | undefined {
  if (req.readableEnded) {
    const parsed = req.body;
    if (parsed === undefined || parsed === null) return undefined;
    if (typeof parsed === "string" || parsed instanceof Uint8Array) {
      return parsed as string | Uint8Array<ArrayBuffer>;
    }
    return JSON.stringify(parsed);
  }
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk) => {
        if (done) return;
        controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      });
      req.on("end", () => {
        if (!done) controller.close();
        done = true;
      });
      req.on("error", (error) => {
        if (!done) controller.error(error);
        done = true;
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      // The service read enough (a body over its limit): the rest is let go, so
      // the answer can still be sent on the same connection.
      done = true;
      req.resume();
    },
  }, { highWaterMark: 4 });
}

/** Writes a web `Response` to a node:http response, at the client's pace, until it is gone. */
async function send(
  response: Response,
  head: boolean,
  res: NodeResponse,
  signal: AbortSignal,
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  res.writeHead(response.status, headers);
  if (head || response.body === null) {
    await response.body?.cancel();
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      if (signal.aborted) return;
      const { done, value } = await reader.read();
      if (done) break;
      for (let at = 0; at < value.length; at += WRITE_BYTES) {
        if (signal.aborted || res.destroyed) return;
        if (!res.write(value.subarray(at, at + WRITE_BYTES))) await drained(res);
      }
    }
    res.end();
  } finally {
    if (signal.aborted || res.destroyed) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** Resolves when the connection takes more (`drain`), or is gone (`close`). */
function drained(res: NodeResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}
