// Where a file's generator publishes it (SPEC 16.2), what its generator
// leaves out (partials, SPEC 16.4) and the title its site shows (MkDocs'
// `nav`): the fields of a file that depend on the plugin's generator, on top
// of SPEC 4's own.
import type { GeneratorSetup } from "../generators/types.ts";
import { RULES, settlePage } from "../generators/rules.ts";
import type { ParsedFile, Warning } from "../source/parsed_file.ts";
import { slugify } from "../util/slugify.ts";
import type { FileFields } from "./derive.ts";

/** What a file's page depends on beside the file: its plugin's generator and variant (SPEC 16). */
export interface PageContext {
  /** The plugin's generator, its site data and options; absent: `plain`. */
  readonly generator?: GeneratorSetup;
  /** The locale and version of the file's folder (SPEC 16.3). */
  readonly lang?: string;
  readonly version?: string;
  /**
   * A locale written in the file's name (`about.de.md`, Hugo's and
   * mkdocs-static-i18n's translations by file name): it leaves the slug.
   */
  readonly nameLang?: string;
  /** The folder relative to the site folder, when it is inside it (`_tutorials`, `""`). */
  readonly siteFolder?: string;
}

/** The generators for which front matter `permalink` is their own key, with placeholders. */
const OWN_PERMALINK = new Set(["jekyll", "eleventy"]);

/**
 * A file's fields with what its generator says (SPEC 16.2, 16.4): `page`,
 * where it is published; `notPage`, when it is a partial or a page the site
 * does not publish; the `nav` title of an MkDocs site. A front-matter slug,
 * url or permalink that leaves the site is a warning naming the file, and
 * the generator's default is used. With `nameLang`, the locale in the
 * file's name is not part of its slug. Without a generator (`plain`), the
 * fields as they are.
 *
 * @example
 * ```ts
 * import { withPage } from "./page.ts";
 * declare const file: import("../source/parsed_file.ts").ParsedFile;
 * declare const fields: import("./derive.ts").FileFields;
 * const setup = { name: "vitepress", data: {}, cleanUrls: false, type: "docs" } as const;
 * withPage(file, fields, "docs/guide/index.md", [], { generator: setup }).page;
 * // { path: "/guide/", from: "route" }
 * ```
 */
export function withPage(
  file: ParsedFile,
  fields: FileFields,
  shown: string,
  warnings: Warning[],
  context: PageContext,
): FileFields {
  let result = fields;
  if (context.nameLang !== undefined && file.attrs.slug == null) {
    const name = file.path.slice(file.path.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
    const suffix = `.${context.nameLang}`;
    if (name.toLowerCase().endsWith(suffix.toLowerCase())) {
      const slug = slugify(name.slice(0, -suffix.length));
      if (slug) result = { ...result, slug };
    }
  }
  const setup = context.generator;
  const rules = setup && RULES[setup.name];
  if (!setup || !rules) return result;
  if (rules.isPartial(file.path, setup)) return { ...result, notPage: "partial" };
  const { page, problems } = settlePage(rules.page({
    path: file.path,
    attrs: file.attrs,
    date: result.date,
    title: result.title,
    ...(context.lang !== undefined ? { lang: context.lang } : {}),
    ...(context.version !== undefined ? { version: context.version } : {}),
    ...(context.siteFolder !== undefined ? { siteFolder: context.siteFolder } : {}),
  }, setup));
  for (const problem of problems) {
    warnings.push({ file: shown, message: `${problem}; the page is published at its default URL` });
  }
  if ("notPage" in page) return { ...result, notPage: "not a page" };
  const title = rules.navTitle?.(file.path, setup);
  return {
    ...result,
    ...(title !== undefined ? { title } : {}),
    // Jekyll's and Eleventy's `permalink` is the generator's own, placeholders and all.
    ...(OWN_PERMALINK.has(setup.name) ? { permalink: undefined } : {}),
    page,
  };
}
