// The keys of SPEC 16.1 (fidelity to the site generator): where the site
// publishes its pages, which generator's rules lay them out, its locales, and
// the folders that hold other versions and locales of a plugin's pages.
import { isHttpUrl } from "./base_url.ts";
import type { GeneratorName, VariantConfig } from "./types.ts";

/** The generators whose routing rules the feed knows (SPEC 16.1); `plain` is SPEC 4's own. */
export const GENERATORS: readonly GeneratorName[] = [
  "plain",
  "docusaurus",
  "hugo",
  "vitepress",
  "starlight",
  "jekyll",
  "eleventy",
  "mkdocs",
];

/** A BCP 47 language tag as sites write them (`en`, `pt-BR`, `zh-Hans`). */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;

/** Reports a key whose value is not what it should be (the validator's `fail`). */
type Fail = (key: string, expected: string, ...got: unknown[]) => never;

/**
 * `site_url`: an absolute http(s) URL, without its trailing slash; absent: `undefined`.
 *
 * @example
 * ```ts
 * import { siteUrlOf } from "./fidelity.ts";
 * siteUrlOf("https://example.com/docs/", () => { throw new Error(); }); // "https://example.com/docs"
 * ```
 */
export function siteUrlOf(value: unknown, fail: Fail): string | undefined {
  if (value == null) return undefined;
  if (typeof value !== "string" || !isHttpUrl(value)) {
    fail("site_url", "an absolute http(s) URL", value);
  }
  return (value as string).replace(/\/+$/, "");
}

/**
 * A `generator` value (top level, or a plugin's): one of {@link GENERATORS}.
 *
 * @example
 * ```ts
 * import { generatorOf } from "./fidelity.ts";
 * generatorOf("hugo", "generator", () => { throw new Error(); }); // "hugo"
 * ```
 */
export function generatorOf(value: unknown, key: string, fail: Fail): GeneratorName {
  if (!(GENERATORS as readonly unknown[]).includes(value)) {
    fail(key, `one of ${GENERATORS.join(", ")}`, value);
  }
  return value as GeneratorName;
}

/**
 * `locales`: a list of distinct language tags, the default first; absent: none.
 *
 * @example
 * ```ts
 * import { localesOf } from "./fidelity.ts";
 * localesOf(["en", "fr"], () => { throw new Error(); }); // ["en", "fr"]
 * ```
 */
export function localesOf(value: unknown, fail: Fail): readonly string[] {
  if (value == null) return [];
  if (
    !Array.isArray(value) || value.length === 0 ||
    value.some((tag) => typeof tag !== "string" || !LANGUAGE_TAG.test(tag)) ||
    new Set(value).size !== value.length
  ) {
    fail("locales", "a list of distinct language tags, the default first (en, fr, pt-BR)", value);
  }
  return value as string[];
}

/**
 * A plugin's `route`: a root-relative path, without a trailing slash but
 * `/` itself; absent: `/<type>`.
 *
 * @example
 * ```ts
 * import { routeOf } from "./fidelity.ts";
 * routeOf("/guides/", "plugins.docs.route", "docs", () => { throw new Error(); }); // "/guides"
 * ```
 */
export function routeOf(value: unknown, key: string, type: string, fail: Fail): string {
  if (value == null) return `/${type}`;
  if (
    typeof value !== "string" || !value.startsWith("/") || /[?#\s]|\/\/|\/\.\.?(?:\/|$)/.test(value)
  ) {
    fail(key, "a root-relative path such as /docs (or / for the site's root)", value);
  }
  return (value as string).replace(/\/+$/, "") || "/";
}

/**
 * A plugin's `variants` (SPEC 16.3): folders that hold other locales or
 * versions of its pages, each `{path, route, lang, version}`; a `path` and
 * `route` may hold `{lang}`, and then the entry stands for every locale but
 * the default. `lang` must be one of `locales`.
 *
 * @example
 * ```ts
 * import { variantsOf } from "./fidelity.ts";
 * variantsOf([{ path: "i18n/{lang}/docs", route: "/{lang}/docs" }], "plugins.docs.variants",
 *   ["en", "fr", "ja"], () => { throw new Error(); });
 * // [{ path: "i18n/fr/docs", route: "/fr/docs", lang: "fr" }, { path: "i18n/ja/docs", route: "/ja/docs", lang: "ja" }]
 * ```
 */
export function variantsOf(
  value: unknown,
  key: string,
  locales: readonly string[],
  fail: Fail,
): readonly VariantConfig[] | undefined {
  if (value == null) return undefined;
  if (!Array.isArray(value)) fail(key, "a list of {path, route, lang, version}", value);
  const variants: VariantConfig[] = [];
  (value as unknown[]).forEach((entry, i) => {
    const at = `${key}[${i}]`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      fail(at, "a map of path, route, lang, version", entry);
    }
    const given = entry as Record<string, unknown>;
    for (const name of Object.keys(given)) {
      if (!["path", "route", "lang", "version"].includes(name)) {
        fail(`${at}.${name}`, "one of path, route, lang, version (unknown key)");
      }
    }
    const { path, route, lang, version } = given;
    if (
      typeof path !== "string" || path === "" || path.startsWith("/") ||
      path.split("/").includes("..")
    ) {
      fail(`${at}.path`, "a folder path inside the content root", path);
    }
    if (route != null && (typeof route !== "string" || !route.startsWith("/"))) {
      fail(`${at}.route`, "a root-relative path such as /fr/docs", route);
    }
    if (version != null && (typeof version !== "string" || version === "")) {
      fail(`${at}.version`, "a version's name (a string)", version);
    }
    const templated = (path as string).includes("{lang}") ||
      (typeof route === "string" && route.includes("{lang}"));
    if (templated) {
      if (lang != null) fail(`${at}.lang`, "no lang where path or route holds {lang}", lang);
      if (locales.length < 2) fail(`${at}.path`, "{lang} only with two or more locales", path);
      for (const tag of locales.slice(1)) {
        variants.push({
          path: (path as string).replaceAll("{lang}", tag),
          ...(route != null ? { route: (route as string).replaceAll("{lang}", tag) } : {}),
          lang: tag,
          ...(version != null ? { version: version as string } : {}),
        });
      }
      return;
    }
    if (lang != null && !locales.includes(lang as string)) {
      fail(`${at}.lang`, `one of the locales (${locales.join(", ") || "none set"})`, lang);
    }
    if (lang == null && version == null) fail(at, "a lang or a version (or both)");
    variants.push({
      path: path as string,
      ...(route != null ? { route: (route as string).replace(/\/+$/, "") || "/" } : {}),
      ...(lang != null ? { lang: lang as string } : {}),
      ...(version != null ? { version: version as string } : {}),
    });
  });
  return variants;
}
