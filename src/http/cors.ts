import type { HttpSettings } from "./settings.ts";

/**
 * The headers every response carries (SPEC 9): `nosniff`, and with CORS on,
 * `Access-Control-Allow-Origin: *` and the headers a script may read.
 *
 * @example
 * ```ts
 * import { baseHeaders } from "./cors.ts";
 * baseHeaders({ cors: true, cacheControl: "" })["Access-Control-Allow-Origin"]; // "*"
 * ```
 */
export function baseHeaders(settings: HttpSettings): Record<string, string> {
  const headers: Record<string, string> = { "X-Content-Type-Options": "nosniff" };
  if (settings.cors) {
    headers["Access-Control-Allow-Origin"] = "*";
    headers["Access-Control-Expose-Headers"] = "ETag, Link, Last-Modified";
  }
  return headers;
}

/**
 * The answer to a CORS preflight (`OPTIONS`): `204` with the allowed
 * methods and headers.
 *
 * @param methods what the path answers besides `OPTIONS` (`POST` on the MCP server's path)
 *
 * @example
 * ```ts
 * import { sendPreflight } from "./cors.ts";
 * sendPreflight({ cors: true, cacheControl: "" }).status; // 204
 * ```
 */
export function sendPreflight(settings: HttpSettings, methods = "GET, HEAD"): Response {
  const headers = { ...baseHeaders(settings), Allow: `${methods}, OPTIONS` };
  if (settings.cors) {
    Object.assign(headers, {
      "Access-Control-Allow-Methods": `${methods}, OPTIONS`,
      "Access-Control-Allow-Headers": "*",
      "Access-Control-Max-Age": "86400",
    });
  }
  return new (settings.tuning?.Response ?? Response)(null, { status: 204, headers });
}
