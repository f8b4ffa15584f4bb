// A `service.content.config` value checked key by key (SPEC 2, 3): each
// problem one line naming the source, the key, what was expected and what
// was given.
import { CONTENT_PLUGINS, type ContentPluginName } from "../plugins.ts";
import { globProblem } from "../util/glob.ts";
import { resolvePath } from "../util/path.ts";
import { quoteValue } from "../util/quote.ts";
import { parseSize } from "../util/size.ts";
import { isHttpUrl } from "./base_url.ts";
import { generatorOf, localesOf, routeOf, siteUrlOf, variantsOf } from "./fidelity.ts";
import {
  CONFIG_KEY,
  ConfigError,
  type ContentConfig,
  type ContentPluginConfig,
  DEFAULT_MAX_FILE_SIZE,
} from "./types.ts";

const TOP_KEYS = new Set([
  "title",
  "url",
  "path",
  "plugins",
  "max_file_size",
  "git",
  "description",
  "state",
  "retention",
  "site_url",
  "generator",
  "site",
  "locales",
  "authors",
]);
const PLUGIN_KEYS = new Set([
  "path",
  "include",
  "exclude",
  "orphans",
  "permalink",
  "authors",
  "route",
  "generator",
  "variants",
  "clean_urls",
]);
/** The placeholders a `permalink` pattern may hold (SPEC 4 `url`, SPEC 16.2 `{path}`, `{name}`). */
const PERMALINK_PLACEHOLDERS = new Set(["type", "uri", "slug", "yyyy", "mm", "dd", "path", "name"]);

/**
 * Validates a `service.content.config` value given as an object (as in YAML),
 * resolving `path` against `baseDir`.
 *
 * @throws {ConfigError} naming `source` and the offending key
 *
 * @example
 * ```ts
 * import { validateConfig } from "./validate.ts";
 * const config = validateConfig({ path: "content", plugins: { blog: null, api: null } }, "/site");
 * config.root; // "/site/content"
 * ```
 */
export function validateConfig(
  value: unknown,
  baseDir: string,
  source = "options",
  prefix = CONFIG_KEY,
): ContentConfig {
  const fail = (key: string, expected: string, ...got: unknown[]): never => {
    const tail = got.length > 0 ? `, got ${describe(got[0])}` : "";
    throw new ConfigError(
      `${source}: ${prefix}${key ? `.${key}` : ""}: expected ${expected}${tail}`,
    );
  };
  if (!isMap(value)) fail("", "a map with a 'plugins' key", value);
  const config = value as Record<string, unknown>;
  for (const key of Object.keys(config)) {
    if (!TOP_KEYS.has(key)) {
      fail(key, `one of ${[...TOP_KEYS].join(", ")} (unknown key)`);
    }
  }
  const title = config.title;
  if (title != null && typeof title !== "string") fail("title", "a string", title);
  let url = config.url;
  if (url != null) {
    if (typeof url !== "string" || !isHttpUrl(url)) fail("url", "an absolute http(s) URL", url);
    url = (url as string).replace(/\/+$/, "");
  }
  const maxFileSize = config.max_file_size == null
    ? DEFAULT_MAX_FILE_SIZE
    : parseSize(config.max_file_size);
  if (maxFileSize === undefined || maxFileSize === 0) {
    fail("max_file_size", "a size such as 10MB (bytes, or KB, MB, GB)", config.max_file_size);
  }
  const git = config.git ?? true;
  if (typeof git !== "boolean") fail("git", "true or false", git);
  const description = config.description;
  if (description != null && typeof description !== "string") {
    fail("description", "a string", description);
  }
  const path = config.path ?? ".";
  if (typeof path !== "string" || path === "") fail("path", "a folder path string", path);
  const state = config.state;
  if (state != null && (typeof state !== "string" || state === "")) {
    fail("state", "a folder path string", state);
  }
  const retention = config.retention ?? 90;
  if (typeof retention !== "number" || !(retention > 0) || !Number.isFinite(retention)) {
    fail("retention", "a positive number of days", retention);
  }
  const siteUrl = siteUrlOf(config.site_url, fail);
  const generator = config.generator == null
    ? "plain"
    : generatorOf(config.generator, "generator", fail);
  const locales = localesOf(config.locales, fail);
  const site = config.site;
  if (site != null && (typeof site !== "string" || site === "")) {
    fail("site", "a folder path string", site);
  }
  const authorsFile = config.authors;
  if (authorsFile != null && (typeof authorsFile !== "string" || authorsFile === "")) {
    fail("authors", "the path of an authors YAML file", authorsFile);
  }
  const plugins = config.plugins;
  if (!isMap(plugins)) fail("plugins", "a map of plugin names", plugins);
  const enabled: ContentPluginConfig[] = [];
  const outputs = { api: false, sitemap: false, llms: false, feed: false, mcp: false };
  let mcpAllowedOrigins: readonly string[] | undefined;
  for (const [name, options] of Object.entries(plugins as Record<string, unknown>)) {
    const key = `plugins.${name}`;
    if (Object.hasOwn(outputs, name)) {
      if (name === "mcp") mcpAllowedOrigins = mcpOptions(options, key, fail);
      else if (options !== null) fail(key, "null (~): this plugin takes no options", options);
      outputs[name as keyof typeof outputs] = true;
      continue;
    }
    if (!(CONTENT_PLUGINS as readonly string[]).includes(name)) {
      fail(
        key,
        `a plugin name: ${
          [...CONTENT_PLUGINS, ...Object.keys(outputs)].join(", ")
        } (unknown plugin)`,
      );
    }
    if (options !== null && !isMap(options)) fail(key, "null (~) or a map of options", options);
    const opts = (options ?? {}) as Record<string, unknown>;
    for (const opt of Object.keys(opts)) {
      if (!PLUGIN_KEYS.has(opt)) {
        fail(`${key}.${opt}`, `one of ${[...PLUGIN_KEYS].join(", ")} (unknown option)`);
      }
    }
    const folder = opts.path ?? name;
    if (
      typeof folder !== "string" || folder === "" || folder.startsWith("/") ||
      folder.split("/").includes("..")
    ) {
      fail(`${key}.path`, "a folder path inside the content root", folder);
    }
    const globs = (opt: "include" | "exclude") => {
      const list = opts[opt];
      if (list == null) return undefined;
      if (!Array.isArray(list) || list.some((g) => typeof g !== "string" || g === "")) {
        fail(`${key}.${opt}`, "a list of glob pattern strings", list);
      }
      (list as string[]).forEach((glob, i) => {
        const problem = globProblem(glob);
        if (problem) fail(`${key}.${opt}[${i}]`, `a glob pattern (${problem})`, glob);
      });
      return list as string[];
    };
    const orphans = opts.orphans ?? "keep";
    if (orphans !== "keep" && orphans !== "skip") fail(`${key}.orphans`, "keep or skip", orphans);
    const permalink = opts.permalink;
    if (permalink != null) {
      const problem = typeof permalink === "string" ? permalinkProblem(permalink) : "a string";
      if (problem) fail(`${key}.permalink`, problem, permalink);
    }
    const authors = opts.authors;
    if (authors != null && (typeof authors !== "string" || authors === "")) {
      fail(`${key}.authors`, "the path of an authors YAML file", authors);
    }
    const cleanUrls = opts.clean_urls ?? false;
    if (typeof cleanUrls !== "boolean") fail(`${key}.clean_urls`, "true or false", cleanUrls);
    enabled.push({
      route: routeOf(opts.route, `${key}.route`, name, fail),
      generator: opts.generator == null
        ? generator
        : generatorOf(opts.generator, `${key}.generator`, fail),
      variants: variantsOf(opts.variants, `${key}.variants`, locales, fail),
      cleanUrls: cleanUrls as boolean,
      name,
      type: name as ContentPluginName,
      path: resolvePath("/", folder as string).slice(1),
      include: globs("include"),
      exclude: globs("exclude") ?? [],
      orphans: orphans as "keep" | "skip",
      permalink: (permalink as string | null) ?? undefined,
      authors: (authors as string | null) ?? undefined,
    });
  }
  return {
    source,
    title: (title as string | null) ?? undefined,
    url: (url as string | null) ?? undefined,
    root: resolvePath(baseDir, path as string),
    plugins: enabled,
    ...outputs,
    ...(mcpAllowedOrigins !== undefined ? { mcpAllowedOrigins } : {}),
    maxFileSize: maxFileSize!,
    git: git as boolean,
    description: (description as string | null) ?? undefined,
    // Beside the config file; a config given as an object has none, so
    // its journal goes in the content root (a dot folder is never content).
    state: state != null
      ? resolvePath(baseDir, state as string)
      : source === "options"
      ? resolvePath(resolvePath(baseDir, path as string), ".content-feed")
      : resolvePath(baseDir, ".content-feed"),
    retention: retention as number,
    siteUrl,
    site: site != null
      ? resolvePath(baseDir, site as string)
      : resolvePath(baseDir, path as string),
    locales,
    authorsFile: authorsFile != null ? resolvePath(baseDir, authorsFile as string) : undefined,
  };
}

/**
 * The `mcp` plugin's options (SPEC 2, 14): null, or a map whose one key,
 * `allowed_origins`, lists the origins (scheme, host, optional port) whose
 * browsers' MCP requests are answered. Gives the origins as `URL.origin`
 * spells them, or `undefined` when the list is not set.
 */
function mcpOptions(
  options: unknown,
  key: string,
  fail: (key: string, expected: string, ...got: unknown[]) => never,
): readonly string[] | undefined {
  if (options === null) return undefined;
  if (!isMap(options)) fail(key, "null (~) or a map with allowed_origins", options);
  for (const opt of Object.keys(options as Record<string, unknown>)) {
    if (opt !== "allowed_origins") fail(`${key}.${opt}`, "allowed_origins (unknown option)");
  }
  const list = (options as Record<string, unknown>).allowed_origins;
  if (list == null) return undefined;
  if (!Array.isArray(list)) fail(`${key}.allowed_origins`, "a list of origins", list);
  return (list as unknown[]).map((entry, i) => {
    const origin = typeof entry === "string" ? originOf(entry) : undefined;
    if (origin === undefined) {
      fail(
        `${key}.allowed_origins[${i}]`,
        "an origin: http(s), a host and an optional port, such as https://app.example.com",
        entry,
      );
    }
    return origin!;
  });
}

/** An http(s) origin as `URL.origin` spells it, or `undefined` when text is more (a path, a query) or less. */
function originOf(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const bare = (url.protocol === "http:" || url.protocol === "https:") && !url.username &&
    !url.password && url.pathname === "/" && !url.search && !url.hash &&
    !/[?#]/.test(text) && text.replace(/\/$/, "").split("/").length === 3;
  return bare ? url.origin : undefined;
}

/**
 * What is wrong with a `permalink` pattern, or `undefined` (SPEC 4 `url`):
 * an absolute http(s) URL or a root-relative path, with no placeholder but
 * `{type}`, `{uri}`, `{slug}`, `{yyyy}`, `{mm}`, `{dd}`.
 *
 * @example
 * ```ts
 * import { permalinkProblem } from "./validate.ts";
 * permalinkProblem("/blog/{yyyy}/{mm}/{slug}/"); // undefined
 * permalinkProblem("blog/{title}"); // "a root-relative path or an absolute URL, with …"
 * ```
 */
export function permalinkProblem(pattern: string): string | undefined {
  const placeholders = [...pattern.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const valid = (pattern.startsWith("/") || isHttpUrl(pattern.replace(/\{[^}]*\}/g, "x"))) &&
    placeholders.every((p) => PERMALINK_PLACEHOLDERS.has(p));
  return valid
    ? undefined
    : `a root-relative path or an absolute URL, with placeholders among ${
      [...PERMALINK_PLACEHOLDERS].map((p) => `{${p}}`).join(", ")
    }`;
}

/**
 * Whether a config value is a map (a YAML mapping, an object that is not a
 * list).
 *
 * @example
 * ```ts
 * import { isMap } from "./validate.ts";
 * isMap({ docs: null }); // true
 * isMap(["docs"]); // false
 * ```
 */
export function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A config value as a message names what was given instead: its kind, or
 * a string or number as written (bounded, control characters escaped).
 *
 * @example
 * ```ts
 * import { describe } from "./validate.ts";
 * describe(["a"]); // "a list"
 * describe(3); // "number 3"
 * ```
 */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a map";
  if (typeof value === "string") return quoteValue(value);
  return `${typeof value} ${String(value)}`;
}
