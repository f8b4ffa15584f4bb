// The rules of each generator by name (SPEC 16.2, 16.4). `plain` has none:
// its files keep SPEC 4's `url` rule (front matter `permalink`, the plugin's
// pattern, `/<type>/<uri>`), byte for byte what the feed served before.
import type { GeneratorName } from "../config/types.ts";
import { docusaurus } from "./docusaurus.ts";
import { eleventy } from "./eleventy.ts";
import { hugo } from "./hugo.ts";
import { jekyll } from "./jekyll.ts";
import { mkdocs } from "./mkdocs.ts";
import { starlight } from "./starlight.ts";
import type { GeneratorRules, PagePath } from "./types.ts";
import { vitepress } from "./vitepress.ts";

/**
 * Each generator's rules; `undefined` for `plain` (the caller keeps SPEC 4's rule).
 *
 * @example
 * ```ts
 * import { RULES } from "./rules.ts";
 * const setup = { name: "vitepress", data: {}, cleanUrls: false, type: "docs" } as const;
 * RULES.vitepress!.page({ path: "guide/index.md", attrs: {}, date: "2024-01-01", title: "" }, setup);
 * // { path: "/guide/", from: "route" }
 * RULES.plain; // undefined
 * ```
 */
export const RULES: Readonly<Record<GeneratorName, GeneratorRules | undefined>> = {
  plain: undefined,
  docusaurus,
  hugo,
  vitepress,
  starlight,
  jekyll,
  eleventy,
  mkdocs,
};

/** Where a page is published in the end, and the problems met on the way (each one a warning). */
export type SettledPage = {
  readonly page: Exclude<PagePath, { readonly problem: string }>;
  readonly problems: readonly string[];
};

/**
 * A page path with its problems taken off: the fallback it ends at, and
 * every problem's message, outermost first (a bad front-matter value whose
 * fallback, a config pattern, was bad too, gives two).
 *
 * @example
 * ```ts
 * import { settlePage } from "./rules.ts";
 * settlePage({ problem: 'slug "javascript:x" is a javascript: URL', fallback: { path: "/a", from: "route" } });
 * // { page: { path: "/a", from: "route" }, problems: ['slug "javascript:x" is a javascript: URL'] }
 * ```
 */
export function settlePage(path: PagePath): SettledPage {
  const problems: string[] = [];
  let page = path;
  while ("problem" in page) {
    problems.push(page.problem);
    page = page.fallback;
  }
  return { page, problems };
}
