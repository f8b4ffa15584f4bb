import { baseHeaders } from "./cors.ts";
import type { HttpSettings } from "./settings.ts";

const TITLES: Record<number, string> = {
  400: "Bad Request",
  410: "Gone",
  404: "Not Found",
  405: "Method Not Allowed",
  414: "URI Too Long",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/**
 * An RFC 9457 problem document as bytes-to-be: `type`, `title`, `status`, `detail`.
 *
 * @example
 * ```ts
 * import { problemBody } from "./problem.ts";
 * problemBody(400, 'limit must be an integer from 1 to 10000, got "abc"');
 * // '{"type":"about:blank","title":"Bad Request","status":400,"detail":"limit must be …"}'
 * ```
 */
export function problemBody(status: number, detail: string): string {
  return JSON.stringify({ type: "about:blank", title: TITLES[status] ?? "Error", status, detail });
}

/** The media type of problem documents. */
export const PROBLEM_TYPE = "application/problem+json";

const encoder = new TextEncoder();

/**
 * An `application/problem+json` response (RFC 9457) that is never cached
 * (SPEC 9): a bad query names its parameter in `detail`; a `500` never
 * carries a stack trace or a path.
 *
 * @example
 * ```ts
 * import { sendProblem } from "./problem.ts";
 * const response = sendProblem(new Request("http://x/"), 404, "nothing at /docs/nope.json", {
 *   cors: true, cacheControl: "",
 * });
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
  return new (settings.tuning?.Response ?? Response)(request.method === "HEAD" ? null : bytes, {
    status,
    headers,
  });
}
