/**
 * Slash-separated path helpers, so that the pure core never needs `node:path`.
 * Content paths inside the index are always relative and use `/`.
 *
 * @example
 * ```ts
 * import { resolvePath } from "./path.ts";
 * resolvePath("/site/content", "../docs"); // "/site/docs"
 * ```
 */
export function resolvePath(base: string, path: string): string {
  const joined = path.startsWith("/") ? path : `${base}/${path}`;
  const out: string[] = [];
  for (const part of joined.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

/**
 * The folder part of a path (`"/a/b.yaml"` → `"/a"`).
 *
 * @example
 * ```ts
 * import { dirname } from "./path.ts";
 * dirname("/site/content/services.yaml"); // "/site/content"
 * ```
 */
export function dirname(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? (path.startsWith("/") ? "/" : ".") : path.slice(0, i);
}

/**
 * The last segment of a path (`"a/b.md"` → `"b.md"`).
 *
 * @example
 * ```ts
 * import { basename } from "./path.ts";
 * basename("guide/intro.md"); // "intro.md"
 * ```
 */
export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * A file name without its last extension (`"a.b.md"` → `"a.b"`).
 *
 * @example
 * ```ts
 * import { stem } from "./path.ts";
 * stem("2026-03-14-release.md"); // "2026-03-14-release"
 * ```
 */
export function stem(name: string): string {
  const i = name.lastIndexOf(".");
  return i <= 0 ? name : name.slice(0, i);
}

/**
 * A content file's path relative to the content root, from its plugin's
 * folder (`""` for a plugin at the root, config `path: .`) and its path
 * inside it.
 *
 * @example
 * ```ts
 * import { contentPath } from "./path.ts";
 * contentPath("docs", "intro.md"); // "docs/intro.md"
 * contentPath("", "about.md"); // "about.md"
 * ```
 */
export function contentPath(pluginFolder: string, path: string): string {
  return pluginFolder === "" ? path : `${pluginFolder}/${path}`;
}
