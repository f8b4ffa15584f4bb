// Starlight (SPEC 16.2): a page's slug is Astro's content collection id,
// which its glob loader makes (`getContentEntryIdAndSlug`): front matter
// `slug`, else each segment of the path without extension through
// github-slugger, joined with `/`, a final `/index` dropped; Starlight
// publishes `index` at the root and every page with a trailing slash. Paths
// are from the plugin's route (a locale folder is part of the path); a slug
// names the locale folder too, which a locale variant's route carries.
import { isDotName, pathParts, textOf, withoutExtension } from "./names.ts";
import { climbsAbove, nonPathTarget, problem } from "./targets.ts";
import type { GeneratorRules, PageInput, PagePath } from "./types.ts";

/**
 * What github-slugger removes (its `script/generate-regex.mjs`): other
 * numbers, punctuation but `_` and the ASCII `-`, symbols, controls, format
 * and private-use characters, unassigned code points and separators but the
 * space, sparing alphabetic characters.
 */
const SLUGGER_REMOVES =
  /(?![ -])(?!\p{Alphabetic})[\p{No}\p{Pd}\p{Ps}\p{Pe}\p{Pi}\p{Pf}\p{Po}\p{S}\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Z}]/gu;

/**
 * GitHub's slugger (github-slugger `slug`): lower-case, the characters above
 * removed, each space a `-` (runs of `-` are kept, nothing is trimmed).
 *
 * @example
 * ```ts
 * import { githubSlug } from "./starlight.ts";
 * githubSlug("Getting Started"); // "getting-started"
 * githubSlug("v3.5"); // "v35"
 * githubSlug("how_to debug?"); // "how_to-debug"
 * ```
 */
export function githubSlug(text: string): string {
  return text.toLowerCase().replace(SLUGGER_REMOVES, "").replace(/ /g, "-");
}

/** Starlight's path for a collection id: `index` is the root, others end with `/`. */
function pathOfId(id: string): string {
  const trimmed = id.replace(/^\/+|\/+$/g, "");
  return trimmed === "" || trimmed === "index" ? "/" : `/${trimmed}/`;
}

/**
 * A slug without the locale folder its variant's route already carries. A
 * slug is the page's id in the whole collection (Starlight tells a page's
 * locale by the id's first segment): a page of `fr/` writes
 * `slug: fr/guides/x`. Where the locale folder is a variant of its own
 * (published under `/fr`, the file's path inside it), that first segment is
 * the route's, not the path's; where the file's path starts with the locale
 * folder (the default locale's `en/`), the slug stays as written.
 */
function withoutLocaleFolder(slug: string, input: PageInput): string {
  const id = slug.replace(/^\/+/, "");
  const lang = input.lang?.toLowerCase();
  if (!lang || input.path.split("/")[0].toLowerCase() === lang) return id;
  const lower = id.toLowerCase();
  if (lower === lang) return "";
  return lower.startsWith(`${lang}/`) ? id.slice(lang.length + 1) : id;
}

/** Starlight (Astro content collections). */
export const starlight: GeneratorRules = {
  page(input, setup) {
    const { dirs, file } = pathParts(input.path);
    const id = [...dirs, withoutExtension(file)].map(githubSlug).join("/").replace(/\/index$/, "");
    const fallback: PagePath = { path: pathOfId(id), from: "route" };
    const slug = textOf(input.attrs.slug);
    if (slug === undefined) return fallback;
    // A `slug` is the collection id as written: a path from the plugin's route.
    const other = nonPathTarget("slug", slug, setup.data.siteUrl, false, fallback);
    if (other) return other;
    if (climbsAbove(slug.replace(/^\/+/, ""))) {
      return problem("slug", slug, "climbs above the plugin's route", fallback);
    }
    return { path: pathOfId(withoutLocaleFolder(slug, input)), from: "route" };
  },
  // Astro's glob loader leaves out `_`-prefixed files and folders; dot files are never entries.
  isPartial(path) {
    return path.split("/").some((segment) => segment.startsWith("_") || isDotName(segment));
  },
};
