// Where a front-matter `slug`, `url` or `permalink` points (the issue's "Bad
// input"): a path on the site, an absolute URL, or somewhere that leaves the
// site (`../../x` above the root, another host, `javascript:`). A value that
// leaves is a problem, and the page is published where the generator would
// put it without that key.
import { quoteValue } from "../util/quote.ts";
import type { PagePath } from "./types.ts";

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/**
 * The page path of a front-matter value that is not a path, or `undefined`
 * when it is one (the caller goes on with it). An absolute http(s) URL is
 * `{ url }` where the generator's key may be one (`absoluteAllowed`: Hugo
 * `url`, Jekyll and Eleventy `permalink`) and it stays on `siteUrl` (when
 * known); any other scheme, or a URL elsewhere, is a problem with `fallback`.
 *
 * @example
 * ```ts
 * import { nonPathTarget } from "./targets.ts";
 * const fallback = { path: "/intro/", from: "route" } as const;
 * nonPathTarget("url", "/about/", undefined, true, fallback); // undefined
 * nonPathTarget("url", "https://example.com/a", "https://example.com", true, fallback); // { url: "https://example.com/a" }
 * "problem" in nonPathTarget("url", "javascript:alert(1)", undefined, true, fallback)!; // true
 * ```
 */
export function nonPathTarget(
  key: string,
  value: string,
  siteUrl: string | undefined,
  absoluteAllowed: boolean,
  fallback: PagePath,
): PagePath | undefined {
  const scheme = SCHEME.exec(value.trim())?.[1].toLowerCase();
  if (scheme === undefined) return undefined;
  if (scheme !== "http" && scheme !== "https") {
    return problem(key, value, `is a ${scheme}: URL, not a page of the site`, fallback);
  }
  if (!absoluteAllowed) {
    return problem(key, value, "is an absolute URL; the generator takes a path here", fallback);
  }
  if (leavesSite(value.trim(), siteUrl)) {
    return problem(key, value, `leaves the site (${siteUrl})`, fallback);
  }
  return { url: value.trim() };
}

/**
 * Whether an absolute URL lies outside `siteUrl` (another origin, or not
 * under its path); `false` when the site's URL is not known.
 *
 * @example
 * ```ts
 * import { leavesSite } from "./targets.ts";
 * leavesSite("https://other.example/", "https://example.com"); // true
 * leavesSite("https://example.com/docs/a", "https://example.com/docs"); // false
 * ```
 */
export function leavesSite(url: string, siteUrl: string | undefined): boolean {
  if (!siteUrl) return false;
  let target: URL, site: URL;
  try {
    target = new URL(url);
    site = new URL(siteUrl);
  } catch {
    return true;
  }
  if (target.origin !== site.origin) return true;
  const base = site.pathname.replace(/\/+$/, "");
  return base !== "" && target.pathname !== base && !target.pathname.startsWith(`${base}/`);
}

/**
 * Whether a path's `..` segments climb above the root it starts from
 * (`../x`, `a/../../x`).
 *
 * @example
 * ```ts
 * import { climbsAbove } from "./targets.ts";
 * climbsAbove("../../x"); // true
 * climbsAbove("a/../b"); // false
 * ```
 */
export function climbsAbove(path: string): boolean {
  let depth = 0;
  for (const segment of path.split("/")) {
    if (segment === "..") {
      if (--depth < 0) return true;
    } else if (segment !== "" && segment !== ".") depth++;
  }
  return false;
}

/**
 * A path from the root, `.` and `..` resolved, runs of `/` collapsed, its
 * trailing slash kept (what Go's `path.Join` and Eleventy make of a URL).
 *
 * @example
 * ```ts
 * import { cleanPath } from "./targets.ts";
 * cleanPath("//articles/./a/../b/"); // "/articles/b/"
 * ```
 */
export function cleanPath(path: string): string {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "..") out.pop();
    else if (segment !== "" && segment !== ".") out.push(segment);
  }
  const joined = `/${out.join("/")}`;
  return path.endsWith("/") && joined !== "/" ? `${joined}/` : joined;
}

/**
 * A problem naming the front-matter key and its value (at most 80
 * characters of it), with the page's fallback.
 *
 * @example
 * ```ts
 * import { problem } from "./targets.ts";
 * const path = problem("slug", "../../x", "climbs above the root", { path: "/a", from: "route" });
 * "problem" in path && path.problem; // 'slug "../../x" climbs above the root'
 * ```
 */
export function problem(key: string, value: unknown, reason: string, fallback: PagePath): PagePath {
  return { problem: `${key} ${quoteValue(value)} ${reason}`, fallback };
}
