// Hugo's site config as HugoData (gohugo.io/configuration: `contentDir`,
// `defaultContentLanguage(InSubdir)`, `languages`, `disableLanguages`,
// `permalinks`, `uglyURLs`, `disablePathToLower`, `removePathAccents`,
// `module.mounts`). Keys compare without case, as Hugo's do.
import { isMap, keyOf } from "./data_text.ts";
import { HUGO_DEFAULTS } from "./hugo.ts";
import { hugoPatternProblem } from "./hugo_permalinks.ts";
import type {
  HugoContentMount,
  HugoData,
  HugoLanguage,
  HugoPermalinkRule,
  SiteDataWarning,
} from "./types.ts";

/** The page kinds a `permalinks` table may name (`permalinksKindsSupport`). */
const KINDS = new Set(["page", "section", "taxonomy", "term"]);

/**
 * A `permalinks` value as rules: the legacy form (`posts = "/:year/:slug/"`,
 * for pages) or the form by kind (`[permalinks.page]`, `[permalinks.section]`).
 * A pattern with a token Hugo does not know is left out, with a warning.
 *
 * @example
 * ```ts
 * import { hugoPermalinks } from "./hugo_config.ts";
 * hugoPermalinks({ posts: "/:year/:slug/" }, "hugo.toml", "permalinks", []);
 * // [{ kind: "page", section: "posts", pattern: "/:year/:slug/" }]
 * ```
 */
export function hugoPermalinks(
  value: unknown,
  file: string,
  where: string,
  warnings: SiteDataWarning[],
): HugoPermalinkRule[] {
  if (value === undefined || value === null) return [];
  if (!isMap(value)) {
    warnings.push({
      file,
      message: `${where}: not read (expected a table of sections); Hugo's defaults apply`,
    });
    return [];
  }
  const rules: HugoPermalinkRule[] = [];
  const add = (kind: string, section: string, pattern: unknown, key: string) => {
    if (typeof pattern !== "string") {
      warnings.push({ file, message: `${key}: expected a pattern; left out` });
      return;
    }
    const unknown = hugoPatternProblem(pattern);
    if (unknown) {
      warnings.push({ file, message: `${key}: ${unknown} is not a token Hugo knows; left out` });
      return;
    }
    // Taxonomy and term pages are not content files: only pages and sections matter here.
    if (kind === "page" || kind === "section") {
      rules.push({ kind, section: section.replace(/^[ /]+|[ /]+$/g, "").toLowerCase(), pattern });
    }
  };
  for (const [key, entry] of Object.entries(value)) {
    if (isMap(entry) && KINDS.has(key.toLowerCase())) {
      for (const [section, pattern] of Object.entries(entry)) {
        add(key.toLowerCase(), section, pattern, `${where}.${key}.${section}`);
      }
    } else add("page", key, entry, `${where}.${key}`);
  }
  return rules;
}

const bool = (value: unknown, fallback: boolean) => typeof value === "boolean" ? value : fallback;
const text = (value: unknown, fallback: string) =>
  typeof value === "string" && value.trim() !== "" ? value : fallback;

/** `languages`, sorted as Hugo sorts them: by weight (unweighted last), then by code. */
function languagesOf(config: unknown, file: string, warnings: SiteDataWarning[]): HugoLanguage[] {
  const languages = keyOf(config, "languages");
  if (!isMap(languages)) return [];
  const disabled = keyOf(config, "disableLanguages");
  const off = new Set(
    Array.isArray(disabled) ? disabled.map((code) => String(code).toLowerCase()) : [],
  );
  const out: HugoLanguage[] = [];
  for (const [code, entry] of Object.entries(languages)) {
    const weight = keyOf(entry, "weight");
    const contentDir = keyOf(entry, "contentDir");
    out.push({
      code,
      weight: typeof weight === "number" ? weight : 0,
      contentDir: typeof contentDir === "string" && contentDir.trim() !== ""
        ? contentDir
        : undefined,
      disabled: keyOf(entry, "disabled") === true || off.has(code.toLowerCase()),
      permalinks: hugoPermalinks(
        keyOf(entry, "permalinks"),
        file,
        `languages.${code}.permalinks`,
        warnings,
      ),
    });
  }
  return out.sort((a, b) =>
    a.weight === b.weight
      ? (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)
      : b.weight === 0
      ? -1
      : a.weight === 0
      ? 1
      : a.weight - b.weight
  );
}

/** `uglyURLs`: a boolean, or a table of top-level sections. */
function uglyOf(value: unknown): HugoData["uglyURLs"] {
  if (typeof value === "boolean") return value;
  if (!isMap(value)) return false;
  return Object.fromEntries(
    Object.entries(value).filter(([, on]) => typeof on === "boolean").map(([section, on]) => [
      section.toLowerCase(),
      on as boolean,
    ]),
  );
}

/** `module.mounts` whose target is the content folder or inside it. */
function mountsOf(config: unknown): HugoContentMount[] {
  const mounts = keyOf(keyOf(config, "module"), "mounts");
  if (!Array.isArray(mounts)) return [];
  return mounts.flatMap((mount) => {
    const source = keyOf(mount, "source"), target = keyOf(mount, "target");
    const lang = keyOf(mount, "lang");
    if (typeof source !== "string" || typeof target !== "string") return [];
    if (target !== "content" && !target.startsWith("content/")) return [];
    return [{ source, target, lang: typeof lang === "string" ? lang : undefined }];
  });
}

/**
 * Hugo's config (already merged from its files) as HugoData, each key at
 * Hugo's default when absent or of the wrong type.
 *
 * @example
 * ```ts
 * import { hugoDataOf } from "./hugo_config.ts";
 * hugoDataOf({ uglyurls: true, defaultContentLanguage: "fr" }, "hugo.toml", []).uglyURLs; // true
 * ```
 */
export function hugoDataOf(config: unknown, file: string, warnings: SiteDataWarning[]): HugoData {
  const d = HUGO_DEFAULTS;
  return {
    contentDir: text(keyOf(config, "contentDir"), d.contentDir),
    defaultContentLanguage: text(keyOf(config, "defaultContentLanguage"), d.defaultContentLanguage),
    defaultContentLanguageInSubdir: bool(
      keyOf(config, "defaultContentLanguageInSubdir"),
      d.defaultContentLanguageInSubdir,
    ),
    languages: languagesOf(config, file, warnings),
    permalinks: hugoPermalinks(keyOf(config, "permalinks"), file, "permalinks", warnings),
    uglyURLs: uglyOf(keyOf(config, "uglyURLs")),
    disablePathToLower: bool(keyOf(config, "disablePathToLower"), d.disablePathToLower),
    removePathAccents: bool(keyOf(config, "removePathAccents"), d.removePathAccents),
    contentMounts: mountsOf(config),
  };
}
