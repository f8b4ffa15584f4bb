import type { ContentPluginConfig } from "../config/types.ts";
import type { PluginDeclaration } from "../plugins.ts";
import { globMatcher } from "../util/glob.ts";
import { stem } from "../util/path.ts";

/**
 * Whether a file or folder name is never content (SPEC 3): a name that
 * starts with `.` or `_` (`.git/`, `_partials/`, `.a.md.swp`), the way
 * static site generators treat them, but `_index.*` (Hugo's section file),
 * which is a folder's own file. The listing skips such folders without
 * descending into them. Under Jekyll, a `_posts` folder inside another
 * (`nested`) holds that category's posts (`events/_posts/`): it is content.
 *
 * @example
 * ```ts
 * import { isSkippedName } from "./select.ts";
 * isSkippedName("_attachments"); // true
 * isSkippedName("_index.md"); // false
 * isSkippedName("guide.md"); // false
 * isSkippedName("_posts", "jekyll", true); // false
 * ```
 */
export function isSkippedName(name: string, generator?: string, nested = false): boolean {
  if (name.startsWith(".") || name === "_attachments") return true;
  if (nested && generator === "jekyll" && name === "_posts") return false;
  if (!name.startsWith("_") || UNDERSCORE_CONTENT.has(generator ?? "plain")) return false;
  // Hugo's section pages, in every language (`_index.de.md`, SPEC 16.4).
  return !(generator === "hugo" ? /^_index(?:\.[^./]+)?\.[^./]+$/ : /^_index\.[^./]+$/).test(name);
}

/**
 * The generators that publish files and folders whose names start with `_`
 * (SPEC 16.4 "Partials by generator": MkDocs; VitePress): for the others,
 * such names are partials, never content (SPEC 3).
 */
const UNDERSCORE_CONTENT = new Set(["mkdocs", "vitepress"]);

/**
 * Whether a path relative to a plugin folder can be content at all: none of
 * its segments is a skipped name ({@link isSkippedName}), and an `_index.*`
 * is inside a folder (where it is the folder's own file, not at the top);
 * under Hugo the top `_index.*` is the home page, a page of its own.
 *
 * @example
 * ```ts
 * import { isContentPath } from "./select.ts";
 * isContentPath("guide/intro.md"); // true
 * isContentPath("guide/_index.md"); // true
 * isContentPath("_index.md"); // false
 * isContentPath("_index.md", "hugo"); // true
 * isContentPath("guide/_attachments/a.md"); // false
 * ```
 */
export function isContentPath(path: string, generator?: string): boolean {
  const segments = path.split("/");
  if (segments.some((name, i) => isSkippedName(name, generator, i > 0))) return false;
  return segments.length > 1 || !segments[0].startsWith("_") ||
    UNDERSCORE_CONTENT.has(generator ?? "plain") || generator === "hugo";
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
 * const select = fileSelector(PLUGINS.docs, { include: undefined, exclude: ["drafts/**"] });
 * select("guide.md"); // true
 * select("drafts/wip.md"); // false
 * ```
 */
export function fileSelector(
  plugin: PluginDeclaration,
  options: Pick<ContentPluginConfig, "include" | "exclude"> & { readonly generator?: string },
): (path: string) => boolean {
  const selection = fileSelection(plugin, options);
  return (path) => selection(path) === "selected";
}

/**
 * What a plugin's selection makes of a path: `selected`, `not content` (a
 * skipped name, {@link isContentPath}), `not included` (its include globs
 * do not match: `check` counts these by extension, SPEC 15) or `excluded`
 * (its exclude globs match).
 */
export type Selection = "selected" | "not content" | "not included" | "excluded";

/**
 * The rule of {@link fileSelector}, telling why a path is not selected.
 *
 * @example
 * ```ts
 * import { fileSelection } from "./select.ts";
 * import { PLUGINS } from "../plugins.ts";
 * const selection = fileSelection(PLUGINS.docs, { include: undefined, exclude: ["drafts/**"] });
 * selection("guide.md"); // "selected"
 * selection("logo.png"); // "not included"
 * selection("drafts/wip.md"); // "excluded"
 * ```
 */
export function fileSelection(
  plugin: PluginDeclaration,
  options: Pick<ContentPluginConfig, "include" | "exclude"> & { readonly generator?: string },
): (path: string) => Selection {
  const include = globMatcher(options.include ?? plugin.include);
  const exclude = globMatcher(options.exclude);
  return (path) =>
    !isContentPath(path, options.generator)
      ? "not content"
      : !include(path)
      ? "not included"
      : exclude(path)
      ? "excluded"
      : "selected";
}

/** File names (without extension) that make a file its folder's own file, in precedence order. */
export const OWN_NAMES = ["index", "_index", "README"];

/**
 * The folder a file is the own file of, by its name alone (`x/index.md`,
 * `x/_index.md`, `x/README.md`), or `undefined`; `x.md` beside `x/` is
 * its folder's own file too, but by the files around it. A name at the top
 * of the plugin folder is an ordinary item.
 *
 * @example
 * ```ts
 * import { ownFolderOf } from "./select.ts";
 * ownFolderOf("blog/2021-08-26-welcome/index.md"); // "blog/2021-08-26-welcome"
 * ownFolderOf("index.md"); // undefined
 * ```
 */
export function ownFolderOf(path: string): string | undefined {
  const slash = path.lastIndexOf("/");
  if (slash === -1) return undefined;
  return OWN_NAMES.includes(stem(path.slice(slash + 1))) ? path.slice(0, slash) : undefined;
}
