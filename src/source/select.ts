import type { ContentPluginConfig } from "../config.ts";
import type { PluginDeclaration } from "../plugins.ts";
import { globMatcher } from "../util/glob.ts";

/**
 * Whether a file or folder name is never content (SPEC 3): a name that
 * starts with `.` or `_` (`.git/`, `_partials/`, `.a.md.swp`), the way
 * static site generators treat them. The listing skips such folders
 * without descending into them.
 *
 * @example
 * ```ts
 * import { isSkippedName } from "./select.ts";
 * isSkippedName("_attachments"); // true
 * isSkippedName("guide.md"); // false
 * ```
 */
export function isSkippedName(name: string): boolean {
  return name.startsWith(".") || name.startsWith("_");
}

/**
 * Whether a path relative to a plugin folder can be content at all: none of
 * its segments is a skipped name ({@link isSkippedName}).
 *
 * @example
 * ```ts
 * import { isContentPath } from "./select.ts";
 * isContentPath("guide/intro.md"); // true
 * isContentPath("guide/_attachments/a.md"); // false
 * ```
 */
export function isContentPath(path: string): boolean {
  return !path.split("/").some(isSkippedName);
}

/**
 * Selects a plugin's files (SPEC 3): content paths that its include globs
 * (the plugin's defaults, or the config's) match and its exclude globs do
 * not.
 *
 * @example
 * ```ts
 * import { fileSelector } from "./select.ts";
 * import { PLUGINS } from "../plugins.ts";
 * const select = fileSelector(PLUGINS.docs, {
 *   name: "docs", path: "docs", include: undefined, exclude: ["drafts/**"],
 * });
 * select("guide.md"); // true
 * select("drafts/wip.md"); // false
 * ```
 */
export function fileSelector(
  plugin: PluginDeclaration,
  options: ContentPluginConfig,
): (path: string) => boolean {
  const include = globMatcher(options.include ?? plugin.include);
  const exclude = globMatcher(options.exclude);
  return (path) => isContentPath(path) && include(path) && !exclude(path);
}
