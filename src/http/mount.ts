/** The paths hosts mounted requests under, by request (never a header: no client can set it). */
const mounts = new WeakMap<Request, string>();

/**
 * Marks a request as one a host mounted the service under `path`
 * (Express's `app.use("/feed", …)`): the request's URL is the public one
 * (`/feed/api/content.json`), the service routes what follows the path,
 * and, without a configured base URL, writes its links under the path. It
 * travels beside the request, not in a header, so no client can steer
 * routing or links with it (SPEC 9). `toNodeListener` marks the requests it
 * makes.
 *
 * @param path the mount path: `/` and a segment or more, no trailing slash
 *
 * @example
 * ```ts
 * import { mountedAt } from "./mount.ts";
 * const request = mountedAt(new Request("http://localhost/feed/api/content.json"), "/feed");
 * ```
 */
export function mountedAt(request: Request, path: string): Request {
  if (path !== "") mounts.set(request, path);
  return request;
}

/**
 * The path a host mounted a request under ({@link mountedAt}), or `""`.
 *
 * @example
 * ```ts
 * import { mountedAt, mountOf } from "./mount.ts";
 * mountOf(mountedAt(new Request("http://localhost/feed/"), "/feed")); // "/feed"
 * mountOf(new Request("http://localhost/")); // ""
 * ```
 */
export function mountOf(request: Request): string {
  return mounts.get(request) ?? "";
}
