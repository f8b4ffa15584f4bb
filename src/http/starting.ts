import { baseHeaders, sendPreflight } from "./cors.ts";
import type { Handler } from "./handler.ts";
import { mountOf } from "./mount.ts";
import { sendProblem } from "./problem.ts";
import type { HttpSettings } from "./settings.ts";

/** Seconds a client is asked to wait before it asks a starting server again. */
export const STARTING_RETRY_AFTER = "1";

/** The body of `GET /api/health` before the first index is served. */
const STARTING_BODY = new TextEncoder().encode('{"status":"starting"}');

/**
 * The handler of a server that listens before its first index is built
 * (SPEC 11): `GET /api/health` answers `503` with `{"status":"starting"}`,
 * every other request a `503` problem, each with `Retry-After` and never
 * cached; `OPTIONS` is a preflight, as later. A process manager gets the
 * port at once and a health check that says why nothing is served yet.
 *
 * @param basePath the base URL's path (`/content`), or `""`: the health
 *   route answers under it and without it, as the service's handler does
 *
 * @example
 * ```ts
 * import { createStartingHandler } from "./starting.ts";
 * const handle = createStartingHandler({ cors: true, cacheControl: "public, max-age=60" }, "");
 * const response = await handle(new Request("http://localhost:8000/api/health"));
 * response.status; // 503
 * ```
 */
export function createStartingHandler(settings: HttpSettings, basePath: string): Handler {
  const health = new Set([`${basePath}/api/health`, "/api/health", `${basePath}/api/health/`]);
  const headers = {
    ...baseHeaders(settings),
    "Cache-Control": "no-store",
    "Retry-After": STARTING_RETRY_AFTER,
  };
  return (request) => {
    if (request.method === "OPTIONS") return sendPreflight(settings);
    let pathname = "";
    try {
      pathname = new URL(request.url).pathname;
    } catch {
      // A URL that does not parse is not the health route.
    }
    const mount = mountOf(request);
    if (mount && pathname.startsWith(`${mount}/`)) pathname = pathname.slice(mount.length);
    if ((request.method === "GET" || request.method === "HEAD") && health.has(pathname)) {
      return new (settings.tuning?.Response ?? Response)(
        request.method === "HEAD" ? null : STARTING_BODY.slice(),
        {
          status: 503,
          headers: {
            ...headers,
            "Content-Type": "application/json; charset=utf-8",
            "Content-Length": String(STARTING_BODY.length),
          },
        },
      );
    }
    return sendProblem(
      request,
      503,
      "the server is starting: the content is being loaded; try again",
      settings,
      { "Retry-After": STARTING_RETRY_AFTER },
    );
  };
}
