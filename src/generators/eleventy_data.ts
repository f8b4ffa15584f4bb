// Eleventy's JSON data files as EleventyData (11ty.dev/docs/data-template-dir):
// `<folder>/<folder>.json` and `<folder>/<folder>.11tydata.json` are the
// folder's directory data; `<folder>/<name>.json` and `.11tydata.json` beside
// a template `<name>.*` are its template data; `.11tydata.json` wins over
// `.json`. Only `permalink` is kept (`eleventyComputed.permalink` before it).
// JavaScript data files are never run.
import { isMap, parseDataText } from "./data_text.ts";
import type { EleventyData, SiteDataWarning } from "./types.ts";

/**
 * What a JSON file is to Eleventy's data cascade: a folder's directory data
 * (`folder`), a template's data (`template`, its path without extension) or
 * both (`a/a.json` is the folder `a`'s and the template `a/a.*`'s); `undefined`
 * for a file that is neither (a `.json` at the top, whose folder has no name).
 *
 * @example
 * ```ts
 * import { eleventyDataTarget } from "./eleventy_data.ts";
 * eleventyDataTarget("blog/blog.11tydata.json"); // { folder: "blog", template: "blog/blog", rank: 1 }
 * eleventyDataTarget("blog/post.json"); // { folder: undefined, template: "blog/post", rank: 0 }
 * ```
 */
export function eleventyDataTarget(
  path: string,
): { folder: string | undefined; template: string; rank: number } | undefined {
  const match = /^(?:(.*)\/)?([^/]+?)(\.11tydata)?\.json$/.exec(path.replace(/^\.?\//, ""));
  if (!match) return undefined;
  const [, folder = "", name, eleventy] = match;
  const template = folder === "" ? name : `${folder}/${name}`;
  const last = folder.slice(folder.lastIndexOf("/") + 1);
  return {
    folder: folder !== "" && last === name ? folder : undefined,
    template,
    rank: eleventy ? 1 : 0,
  };
}

/**
 * The `permalink` of each JSON data file (path under the plugin's folder,
 * its text) as EleventyData; a file that does not parse, or whose
 * `permalink` is neither a string nor `false`, is a warning and left out.
 *
 * @example
 * ```ts
 * import { parseEleventyData } from "./eleventy_data.ts";
 * parseEleventyData([{ path: "blog/blog.json", text: '{"permalink": "/posts/{{ page.fileSlug }}/"}' }]).data.folders;
 * // { blog: "/posts/{{ page.fileSlug }}/" }
 * ```
 */
export function parseEleventyData(
  files: readonly { readonly path: string; readonly text: string }[],
): { data: EleventyData; warnings: SiteDataWarning[] } {
  const warnings: SiteDataWarning[] = [];
  const folders = new Map<string, { rank: number; value: string | false }>();
  const templates = new Map<string, { rank: number; value: string | false }>();
  const keep = (into: typeof folders, key: string, rank: number, value: string | false) => {
    const held = into.get(key);
    if (!held || rank > held.rank) into.set(key, { rank, value });
  };
  for (const { path, text } of files) {
    const target = eleventyDataTarget(path);
    if (!target) continue;
    const parsed = parseDataText(path, text);
    if (!parsed.ok) {
      warnings.push(parsed.warning);
      continue;
    }
    if (!isMap(parsed.value)) continue;
    // A computed permalink (data-computed) wins over the plain one of the same file.
    const computed = isMap(parsed.value.eleventyComputed) &&
        Object.hasOwn(parsed.value.eleventyComputed, "permalink")
      ? parsed.value.eleventyComputed
      : undefined;
    const holder = computed ?? parsed.value;
    if (!Object.hasOwn(holder, "permalink")) continue;
    const permalink = holder.permalink;
    if (typeof permalink !== "string" && permalink !== false) {
      warnings.push({ file: path, message: "permalink: expected a string or false; left out" });
      continue;
    }
    if (target.folder !== undefined) keep(folders, target.folder, target.rank, permalink);
    keep(templates, target.template, target.rank, permalink);
  }
  const plain = (map: typeof folders) =>
    Object.fromEntries([...map].map(([key, { value }]) => [key, value]));
  return { data: { folders: plain(folders), templates: plain(templates) }, warnings };
}
