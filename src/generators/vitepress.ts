// VitePress (SPEC 16.2), from its routing guide ("File-Based Routing",
// "Generating Clean URL"): the page is the file's path; `index.md` is its
// folder's URL (`/guide/`); other pages end in `.html` unless the site sets
// `cleanUrls` (plugin option `clean_urls`). Paths are from the plugin's route;
// a locale folder is part of the path. A dynamic route's `[param].md` is not a
// page of its own (its pages come from a JavaScript loader).
import { isDotName, pathParts, withoutExtension } from "./names.ts";
import type { GeneratorRules } from "./types.ts";

/**
 * A dynamic route's template (routing guide, "Dynamic Routes"): a file or
 * folder name with a `[param]` (`packages/[pkg].md`) is published once per
 * path its `[pkg].paths.js` loader returns, never at its own path.
 */
const DYNAMIC = /\[[^\]/]+\]/;

/** VitePress. */
export const vitepress: GeneratorRules = {
  page(input, setup) {
    if (DYNAMIC.test(input.path)) return { notPage: true };
    const { dirs, file } = pathParts(input.path);
    const stem = withoutExtension(file);
    const folder = dirs.length === 0 ? "/" : `/${dirs.join("/")}/`;
    // index.md --> /index.html (accessible as /); guide/index.md --> /guide/.
    if (stem === "index") return { path: folder, from: "route" };
    // prologue.md --> /prologue.html, or /prologue with clean URLs.
    return { path: `${folder}${stem}${setup.cleanUrls ? "" : ".html"}`, from: "route" };
  },
  // VitePress globs every `**/*.md` of the source folder but `node_modules`
  // (and `srcExclude`, JavaScript config); dot folders (`.vitepress`) are never
  // pages. An `_`-prefixed file is a page.
  isPartial(path) {
    return path.split("/").some((segment) => isDotName(segment) || segment === "node_modules");
  },
};
