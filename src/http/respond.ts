import { sha256Hex } from "../source/hash.ts";
import { compress, negotiate } from "./compress.ts";
import { PROBLEM_TYPE, problemBody } from "./problem.ts";

/** A response body ready to send many times: bytes, strong validator, compressed variants. */
export interface Representation {
  readonly type: string;
  readonly bytes: Uint8Array;
  /** Quoted strong ETag of the identity bytes. */
  readonly etag: string;
  /** Compressed bytes by coding, made on first use. */
  readonly encoded: Map<string, Promise<Uint8Array>>;
}

/** HTTP settings that are the same for every response. */
export interface HttpSettings {
  /** Send `Access-Control-Allow-Origin: *`. */
  readonly cors: boolean;
  /** The `Cache-Control` of successful responses. */
  readonly cacheControl: string;
  /**
   * The `Response` class to build responses with: srvx's `FastResponse` on
   * Node skips the web `Response` object's overhead. Default: `Response`.
   */
  readonly Response?: typeof Response;
}

const encoder = new TextEncoder();
/** Bodies at or under this many bytes are sent uncompressed (SPEC 9). */
export const COMPRESS_MIN = 1024;

/**
 * Encodes a body once and computes its strong ETag (SHA-256 of the bytes).
 *
 * @example
 * ```ts
 * import { represent } from "./respond.ts";
 * const rep = await represent("application/json; charset=utf-8", '{"ok":true}');
 * rep.etag; // '"4062edaf…"'
 * ```
 */
export async function represent(type: string, body: string): Promise<Representation> {
  const bytes = encoder.encode(body);
  return { type, bytes, etag: `"${(await sha256Hex(bytes)).slice(0, 32)}"`, encoded: new Map() };
}

/**
 * Answers a request with a representation (SPEC 9): `ETag` and
 * `Last-Modified` validators with `304` on a match, `Cache-Control`, CORS,
 * `nosniff`, gzip or br when accepted and worth it, and no body for `HEAD`.
 *
 * @example
 * ```ts
 * import { represent, sendRepresentation } from "./respond.ts";
 * const rep = await represent("application/json; charset=utf-8", "{}");
 * const response = await sendRepresentation(new Request("http://x/"), rep, { cors: true, cacheControl: "public, max-age=60" }, Date.now());
 * ```
 */
export async function sendRepresentation(
  request: Request,
  rep: Representation,
  settings: HttpSettings,
  lastModified: number,
  extra?: Record<string, string>,
): Promise<Response> {
  const headers = baseHeaders(settings);
  headers.set("Cache-Control", settings.cacheControl);
  headers.set("Last-Modified", new Date(Math.floor(lastModified / 1000) * 1000).toUTCString());
  headers.set("Vary", "Accept-Encoding");
  if (extra) { for (const [name, value] of Object.entries(extra)) headers.set(name, value); }
  const coding = rep.bytes.length > COMPRESS_MIN
    ? negotiate(request.headers.get("Accept-Encoding"))
    : undefined;
  headers.set("ETag", coding ? `${rep.etag.slice(0, -1)}-${coding}"` : rep.etag);
  if (notModified(request, rep.etag, lastModified)) {
    return new (settings.Response ?? Response)(null, { status: 304, headers });
  }
  headers.set("Content-Type", rep.type);
  let bytes = rep.bytes;
  if (coding) {
    let pending = rep.encoded.get(coding);
    if (!pending) rep.encoded.set(coding, pending = compress(rep.bytes, coding));
    bytes = await pending;
    headers.set("Content-Encoding", coding);
  }
  headers.set("Content-Length", String(bytes.length));
  const body = request.method === "HEAD" ? null : bytes as Uint8Array<ArrayBuffer>;
  return new (settings.Response ?? Response)(body, { status: 200, headers });
}

function notModified(request: Request, etag: string, lastModified: number): boolean {
  const match = request.headers.get("If-None-Match");
  if (match !== null) {
    const ours = etag.slice(1, -1);
    return match.split(",").some((tag) => {
      const t = tag.trim().replace(/^W\//, "");
      return t === "*" || t.slice(1, -1).replace(/-(gzip|br)$/, "") === ours;
    });
  }
  const since = request.headers.get("If-Modified-Since");
  if (since === null) return false;
  const time = Date.parse(since);
  return !Number.isNaN(time) && Math.floor(lastModified / 1000) * 1000 <= time;
}

/**
 * A `application/problem+json` response (RFC 9457) that is never cached.
 *
 * @example
 * ```ts
 * import { sendProblem } from "./respond.ts";
 * const response = sendProblem(new Request("http://x/"), 404, "no item at /docs/nope.json", { cors: true, cacheControl: "" });
 * response.status; // 404
 * ```
 */
export function sendProblem(
  request: Request,
  status: number,
  detail: string,
  settings: HttpSettings,
  extra?: Record<string, string>,
): Response {
  const headers = baseHeaders(settings);
  headers.set("Content-Type", PROBLEM_TYPE);
  headers.set("Cache-Control", "no-store");
  if (extra) { for (const [name, value] of Object.entries(extra)) headers.set(name, value); }
  const bytes = encoder.encode(problemBody(status, detail));
  headers.set("Content-Length", String(bytes.length));
  return new (settings.Response ?? Response)(request.method === "HEAD" ? null : bytes, {
    status,
    headers,
  });
}

/**
 * The answer to a CORS preflight: `204` with the allowed methods and headers.
 *
 * @example
 * ```ts
 * import { sendPreflight } from "./respond.ts";
 * sendPreflight({ cors: true, cacheControl: "" }).status; // 204
 * ```
 */
export function sendPreflight(settings: HttpSettings): Response {
  const headers = baseHeaders(settings);
  headers.set("Allow", "GET, HEAD, OPTIONS");
  if (settings.cors) {
    headers.set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
    headers.set("Access-Control-Allow-Headers", "*");
    headers.set("Access-Control-Max-Age", "86400");
  }
  return new (settings.Response ?? Response)(null, { status: 204, headers });
}

function baseHeaders(settings: HttpSettings): Headers {
  const headers = new Headers({ "X-Content-Type-Options": "nosniff" });
  if (settings.cors) {
    headers.set("Access-Control-Allow-Origin", "*");
    headers.set("Access-Control-Expose-Headers", "ETag, Link, Last-Modified");
  }
  return headers;
}
