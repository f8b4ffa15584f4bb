import { sha256Hex } from "../source/hash.ts";
import { compress, negotiate } from "./compress.ts";
import { PROBLEM_TYPE, problemBody } from "./problem.ts";

/** One encoding of a representation, with its complete response headers precomputed. */
interface Variant {
  readonly bytes: Uint8Array;
  /** Quoted strong ETag of exactly these bytes. */
  readonly etag: string;
  readonly ok: Record<string, string>;
  readonly notModified: Record<string, string>;
}

/** A response body ready to send many times: the bytes, validators and headers, per encoding. */
export interface Representation {
  readonly bytes: Uint8Array;
  /** Quoted strong ETag of the identity bytes. */
  readonly etag: string;
  /** Epoch ms, second precision, for `Last-Modified` and `If-Modified-Since`. */
  readonly lastModified: number;
  /** Encoded variants by coding (`identity` included), made on first use. */
  readonly variants: Map<string, Promise<Variant>>;
  /** Headers every variant shares. */
  readonly shared: Record<string, string>;
  /** The ETags of every variant made so far: any of them revalidates. */
  readonly etags: Set<string>;
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

async function etagOf(bytes: Uint8Array): Promise<string> {
  return `"${(await sha256Hex(bytes)).slice(0, 32)}"`;
}

async function makeVariant(
  rep: Omit<Representation, "variants">,
  coding: string,
): Promise<Variant> {
  const bytes = coding === "identity" ? rep.bytes : await compress(rep.bytes, coding);
  const etag = coding === "identity" ? rep.etag : await etagOf(bytes);
  rep.etags.add(etag);
  const notModified = { ...rep.shared, ETag: etag };
  const ok: Record<string, string> = { ...notModified, "Content-Length": String(bytes.length) };
  if (coding !== "identity") ok["Content-Encoding"] = coding;
  return { bytes, etag, ok, notModified };
}

/**
 * Encodes a body once, with its strong ETag (SHA-256 of the bytes) and every
 * header it will be sent with, so that answering it costs a lookup.
 *
 * @example
 * ```ts
 * import { represent } from "./respond.ts";
 * const rep = await represent("application/json; charset=utf-8", '{"ok":true}',
 *   { cors: true, cacheControl: "public, max-age=60" }, Date.now());
 * rep.etag; // '"4062edaf…"'
 * ```
 */
export async function represent(
  type: string,
  body: string,
  settings: HttpSettings,
  lastModified: number,
  extra?: Record<string, string>,
): Promise<Representation> {
  const bytes = encoder.encode(body);
  const seconds = Math.floor(lastModified / 1000) * 1000;
  const shared: Record<string, string> = {
    ...baseHeaders(settings),
    "Cache-Control": settings.cacheControl,
    "Content-Type": type,
    "Last-Modified": new Date(seconds).toUTCString(),
    "Vary": "Accept-Encoding",
    ...extra,
  };
  const etag = await etagOf(bytes);
  const rep = { bytes, etag, lastModified: seconds, shared, etags: new Set([etag]) };
  const variants = new Map([["identity", makeVariant(rep, "identity")]]);
  await variants.get("identity");
  return { ...rep, variants };
}

const negotiated = new Map<string, string>();

/**
 * Answers a request with a representation (SPEC 9): `ETag` and
 * `Last-Modified` validators with `304` on a match, `Cache-Control`, CORS,
 * `nosniff`, gzip (or br, where the runtime can) when accepted and the body
 * is over 1 KiB, and no body for `HEAD`. Each encoding has the strong ETag of
 * its own bytes.
 *
 * @example
 * ```ts
 * import { represent, sendRepresentation } from "./respond.ts";
 * const settings = { cors: true, cacheControl: "public, max-age=60" };
 * const rep = await represent("application/json; charset=utf-8", "{}", settings, Date.now());
 * const response = await sendRepresentation(new Request("http://x/"), rep, settings);
 * ```
 */
export async function sendRepresentation(
  request: Request,
  rep: Representation,
  settings: HttpSettings,
): Promise<Response> {
  let coding = "identity";
  if (rep.bytes.length > COMPRESS_MIN) {
    const accept = request.headers.get("Accept-Encoding") ?? "";
    let chosen = negotiated.get(accept);
    if (chosen === undefined) {
      chosen = negotiate(accept) ?? "identity";
      if (negotiated.size < 256) negotiated.set(accept, chosen);
    }
    coding = chosen;
  }
  let pending = rep.variants.get(coding);
  if (!pending) rep.variants.set(coding, pending = makeVariant(rep, coding));
  const variant = await pending;
  const R = settings.Response ?? Response;
  if (notModified(request, rep)) {
    return new R(null, { status: 304, headers: variant.notModified });
  }
  const body = request.method === "HEAD" ? null : variant.bytes as Uint8Array<ArrayBuffer>;
  return new R(body, { status: 200, headers: variant.ok });
}

function notModified(request: Request, rep: Representation): boolean {
  const match = request.headers.get("If-None-Match");
  if (match !== null) {
    // Weak comparison (RFC 9110 13.1.2): any encoding of the same content matches.
    return match.split(",").some((tag) => {
      const t = tag.trim().replace(/^W\//, "");
      return t === "*" || rep.etags.has(t);
    });
  }
  const since = request.headers.get("If-Modified-Since");
  if (since === null) return false;
  const time = Date.parse(since);
  return !Number.isNaN(time) && rep.lastModified <= time;
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
  const bytes = encoder.encode(problemBody(status, detail));
  const headers = {
    ...baseHeaders(settings),
    "Content-Type": PROBLEM_TYPE,
    "Cache-Control": "no-store",
    ...extra,
    "Content-Length": String(bytes.length),
  };
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
  const headers = { ...baseHeaders(settings), Allow: "GET, HEAD, OPTIONS" };
  if (settings.cors) {
    Object.assign(headers, {
      "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
      "Access-Control-Allow-Headers": "*",
      "Access-Control-Max-Age": "86400",
    });
  }
  return new (settings.Response ?? Response)(null, { status: 204, headers });
}

function baseHeaders(settings: HttpSettings): Record<string, string> {
  const headers: Record<string, string> = { "X-Content-Type-Options": "nosniff" };
  if (settings.cors) {
    headers["Access-Control-Allow-Origin"] = "*";
    headers["Access-Control-Expose-Headers"] = "ETag, Link, Last-Modified";
  }
  return headers;
}
