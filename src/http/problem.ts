const TITLES: Record<number, string> = {
  400: "Bad Request",
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
