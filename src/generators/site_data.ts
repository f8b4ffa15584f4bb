// The generators' data config files (SPEC 16.1) as SiteData: Hugo's
// `hugo.*`/`config.*` (and `config/_default/`), Jekyll's `_config.yml`,
// MkDocs' `mkdocs.yml`, Docusaurus' `versions.json`. Pure: the caller reads
// the files named in SITE_FILES from the `site` folder. A file that does not
// parse is a warning naming it and its line, and its generator's defaults
// apply; JavaScript and TypeScript configs are never read.
import type { GeneratorName } from "../config/types.ts";
import { isMap, parseDataText, type ParsedText } from "./data_text.ts";
import { hugoDataOf } from "./hugo_config.ts";
import { jekyllDataOf } from "./jekyll_config.ts";
import { mkdocsDataOf } from "./mkdocs_config.ts";
import type { SiteData, SiteDataWarning } from "./types.ts";

const HUGO_EXTENSIONS = ["toml", "yaml", "yml", "json"];
/** Hugo's root config files, in the order Hugo looks for them (the first found is read). */
const HUGO_ROOT = ["hugo", "config"].flatMap((name) =>
  HUGO_EXTENSIONS.map((ext) => `${name}.${ext}`)
);
/** Hugo's config folder: the root config, and the keys that have their own file. */
const HUGO_DIR_KEYS = ["hugo", "config", "languages", "permalinks"];
const HUGO_DIR = HUGO_DIR_KEYS.flatMap((key) =>
  HUGO_EXTENSIONS.map((ext) => `config/_default/${key}.${ext}`)
);

/**
 * The data config files each generator reads, relative to the `site` folder
 * (the caller reads those that exist and passes them to {@link parseSiteData}).
 * Eleventy's are JSON data files in the content folders (`parseEleventyData`).
 *
 * @example
 * ```ts
 * import { SITE_FILES } from "./site_data.ts";
 * SITE_FILES.mkdocs; // ["mkdocs.yml", "mkdocs.yaml"]
 * SITE_FILES.plain; // []
 * ```
 */
export const SITE_FILES: Readonly<Record<GeneratorName, readonly string[]>> = {
  plain: [],
  docusaurus: ["versions.json"],
  hugo: [...HUGO_ROOT, ...HUGO_DIR],
  vitepress: [],
  starlight: [],
  jekyll: ["_config.yml", "_config.yaml"],
  eleventy: [],
  mkdocs: ["mkdocs.yml", "mkdocs.yaml"],
};

/** Merges `over` into `base`, tables deeply (a later file's keys win). */
function merge(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const held = Object.keys(out).find((own) => own.toLowerCase() === key.toLowerCase());
    const old = held === undefined ? undefined : out[held];
    if (held !== undefined) delete out[held];
    out[key] = isMap(old) && isMap(value) ? merge(old, value) : value;
  }
  return out;
}

/**
 * Parses the data config files of a site (each `{name, text}`: its name
 * relative to the site folder, as in {@link SITE_FILES}) into SiteData, with
 * a warning for each file (or value) left out.
 *
 * @example
 * ```ts
 * import { parseSiteData } from "./site_data.ts";
 * const { data, warnings } = parseSiteData([
 *   { name: "versions.json", text: '["3.0", "2.1"]' },
 *   { name: "mkdocs.yml", text: "use_directory_urls: false\n" },
 * ]);
 * data.docusaurus?.versions; // ["3.0", "2.1"]
 * data.mkdocs?.useDirectoryUrls; // false
 * warnings.length; // 0
 * ```
 */
export function parseSiteData(
  files: readonly { readonly name: string; readonly text: string }[],
): { data: SiteData; warnings: SiteDataWarning[] } {
  const warnings: SiteDataWarning[] = [];
  const texts = new Map(files.map(({ name, text }) => [name.replace(/^\.?\//, ""), text]));
  const read = (name: string, yaml11 = false): ParsedText | undefined => {
    const text = texts.get(name);
    if (text === undefined) return undefined;
    const parsed = parseDataText(name, text, yaml11);
    if (!parsed.ok) warnings.push(parsed.warning);
    return parsed;
  };
  const first = (names: readonly string[]) => names.find((name) => texts.has(name));
  const data: {
    -readonly [K in keyof SiteData]: SiteData[K];
  } = {};

  // Hugo: `config/_default/` first, the root file over it; the first root file found is Hugo's.
  const hugoFiles = [...HUGO_DIR.filter((name) => texts.has(name)), first(HUGO_ROOT)]
    .filter((name): name is string => name !== undefined);
  if (hugoFiles.length > 0) {
    let config: Record<string, unknown> = {};
    for (const name of hugoFiles) {
      const parsed = read(name);
      if (!parsed?.ok) continue;
      const key = name.startsWith("config/_default/")
        ? name.slice("config/_default/".length, name.lastIndexOf("."))
        : "hugo";
      const value = key === "hugo" || key === "config" ? parsed.value : { [key]: parsed.value };
      if (isMap(value)) config = merge(config, value);
      else warnings.push({ file: name, message: "not a table; Hugo's defaults apply" });
    }
    data.hugo = hugoDataOf(config, hugoFiles[hugoFiles.length - 1], warnings);
  }

  const jekyll = first(SITE_FILES.jekyll);
  if (jekyll !== undefined) {
    const parsed = read(jekyll, true);
    if (parsed?.ok) data.jekyll = jekyllDataOf(parsed.value, jekyll, warnings);
  }

  const mkdocs = first(SITE_FILES.mkdocs);
  if (mkdocs !== undefined) {
    const parsed = read(mkdocs, true);
    if (parsed?.ok) data.mkdocs = mkdocsDataOf(parsed.value, mkdocs, warnings);
  }

  const versions = read("versions.json");
  if (versions?.ok) {
    const list = versions.value;
    if (Array.isArray(list) && list.every((v) => typeof v === "string" || typeof v === "number")) {
      data.docusaurus = { versions: list.map(String) };
    } else {
      warnings.push({
        file: "versions.json",
        message: "expected a list of version names, newest first; no versions",
      });
    }
  }
  return { data, warnings };
}
