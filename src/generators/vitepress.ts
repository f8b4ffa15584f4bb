// VitePress (SPEC 16.2), from its routing guide ("File-Based Routing",
// "Generating Clean URL"): the page is the file's path; `index.md` is its
// folder's URL (`/guide/`); other pages end in `.html` unless the site sets
// `cleanUrls` (plugin option `clean_urls`). Paths are from the plugin's route;
// a locale folder is part of the path.
import { isDotName, pathParts, withoutExtension } from "./names.ts";
import type { GeneratorRules } from "./types.ts";

/** VitePress. */
export const vitepress: GeneratorRules = {
  page(input, setup) {
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
