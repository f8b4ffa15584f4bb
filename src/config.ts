import { parseDocument } from "yaml";
import { CONTENT_PLUGINS, type ContentPluginName } from "./plugins.ts";
import { globProblem } from "./util/glob.ts";
import { resolvePath } from "./util/path.ts";
import { quoteValue } from "./util/quote.ts";
import { parseSize } from "./util/size.ts";

/** One enabled content plugin, with its options resolved. */
export interface ContentPluginConfig {
  /** The plugin's name (and `type`). */
  readonly name: ContentPluginName;
  /** Folder of the plugin's files, relative to the content root, `/`-separated. */
  readonly path: string;
  /** Include globs relative to `path`; `undefined` means the plugin's defaults. */
  readonly include: readonly string[] | undefined;
  /** Exclude globs relative to `path`. */
  readonly exclude: readonly string[];
  /** A folder without an own file: a path segment (`keep`), or left out (`skip`). */
  readonly orphans: "keep" | "skip";
  /** A `url` pattern (SPEC 4): an absolute URL or a root-relative path with placeholders. */
  readonly permalink: string | undefined;
  /** An authors file (`authors.yml`), relative to the plugin's folder, as the config names it. */
  readonly authors: string | undefined;
  /** The authors file read: each author key and the name it stands for (set when it is loaded). */
  readonly authorNames?: ReadonlyMap<string, string>;
}

/**
 * Reads an authors file (SPEC 3 `authors`, the shape of Docusaurus's
 * `authors.yml`): a map of author keys to `{name, …}` (or to a name). Pure:
 * the caller reads the file.
 *
 * @throws {ConfigError} naming `where` when the text is not such a map
 *
 * @example
 * ```ts
 * import { parseAuthorsFile } from "./config.ts";
 * parseAuthorsFile("ana:\n  name: Ana Pérez\n  title: Maintainer\n", "blog/authors.yml").get("ana"); // "Ana Pérez"
 * ```
 */
export function parseAuthorsFile(text: string, where: string): ReadonlyMap<string, string> {
  const doc = parseDocument(text, { uniqueKeys: true });
  let value: unknown;
  try {
    if (doc.errors.length > 0) throw new Error(doc.errors[0].message.split("\n")[0]);
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_NODES });
  } catch (error) {
    throw new ConfigError(`${where}: invalid YAML: ${(error as Error).message.split("\n")[0]}`);
  }
  if (value == null) return new Map();
  if (!isMap(value)) throw new ConfigError(`${where}: expected a map of author keys to {name}`);
  const names = new Map<string, string>();
  for (const [key, entry] of Object.entries(value)) {
    const name = typeof entry === "string" ? entry : isMap(entry) ? entry.name : undefined;
    if (typeof name !== "string" || !name.trim()) {
      throw new ConfigError(
        `${where}: ${key}: expected {name: …} or a name, got ${describe(entry)}`,
      );
    }
    names.set(key, name.trim());
  }
  return names;
}

/** A validated `service.content.config`. */
export interface ContentConfig {
  /** Where the config came from, for messages (a file path or `"options"`). */
  readonly source: string;
  /** Free-text site title. */
  readonly title: string | undefined;
  /** Base URL without a trailing slash, when configured. */
  readonly url: string | undefined;
  /** Absolute content root. */
  readonly root: string;
  /** Enabled content plugins in the order the config lists them. */
  readonly plugins: readonly ContentPluginConfig[];
  /** `GET /api/content.json` enabled. */
  readonly api: boolean;
  /** `GET /sitemap.xml` enabled. */
  readonly sitemap: boolean;
  /** `GET /llms.txt` and `/llms-full.txt` enabled (SPEC 14). */
  readonly llms: boolean;
  /** `GET /feed.json`, JSON Feed 1.1, enabled (SPEC 14). */
  readonly feed: boolean;
  /** `POST /api/mcp`, the Model Context Protocol server, enabled (SPEC 14). */
  readonly mcp: boolean;
  /** Content files larger than this many bytes are left out unread (`max_file_size`). */
  readonly maxFileSize: number;
  /** Take dates from git commits where the root is in a work tree (`git`, default true). */
  readonly git: boolean;
  /** Free-text description of the site (`llms.txt`). */
  readonly description: string | undefined;
  /**
   * Absolute folder of the sync journal (`state`): default `.content-feed`
   * beside the config file, or in the content root for a config object.
   */
  readonly state: string;
  /** Days a deletion stays in the journal (`retention`, default 90). */
  readonly retention: number;
}

/** `max_file_size` when the config sets none: 10 MB. */
export const DEFAULT_MAX_FILE_SIZE = 10 * 1024 * 1024;

/** A configuration problem: its message is the one line printed at start-up. */
export class ConfigError extends Error {
  /** One line: the file (or option), the key, and what was expected. */
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Nodes a config's aliases may expand to (the `yaml` parser's `maxAliasCount`). */
const MAX_ALIAS_NODES = 10_000;

/** The parameter key under `parameters` that holds the content configuration. */
export const CONFIG_KEY = "service.content.config";

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
]);
const PLUGIN_KEYS = new Set(["path", "include", "exclude", "orphans", "permalink", "authors"]);
/** The placeholders a `permalink` pattern may hold (SPEC 4 `url`). */
const PERMALINK_PLACEHOLDERS = new Set(["type", "uri", "slug", "yyyy", "mm", "dd"]);

/**
 * Parses the text of a service configuration file (SPEC 2) into a
 * {@link ContentConfig}. Pure: the caller reads the file and checks that the
 * root exists.
 *
 * @param text the YAML text
 * @param file the file's absolute path (named in errors; `path` resolves against its folder)
 * @throws {ConfigError} with one line naming the file, the key and what was expected
 *
 * @example
 * ```ts
 * import { parseConfig } from "./config.ts";
 * const config = parseConfig(
 *   "parameters:\n  service.content.config:\n    plugins: { docs: ~, api: ~ }\n",
 *   "/site/content/services.yaml",
 * );
 * config.root; // "/site/content"
 * config.plugins[0].name; // "docs"
 * ```
 */
export function parseConfig(text: string, file: string): ContentConfig {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    const line = error.linePos?.[0].line;
    const reason = error.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    throw new ConfigError(`${file}${line ? `:${line}` : ""}: invalid YAML: ${reason}`);
  }
  let root: unknown;
  try {
    // An alias bomb stops here, with the bound of SPEC 4, not in a stack trace.
    root = doc.toJS({ maxAliasCount: MAX_ALIAS_NODES });
  } catch (error) {
    throw new ConfigError(
      `${file}: invalid YAML: aliases expand past ${MAX_ALIAS_NODES.toLocaleString("en")} nodes (${
        (error as Error).message.split("\n")[0]
      })`,
    );
  }
  if (!isMap(root) || !isMap(root.parameters) || !(CONFIG_KEY in root.parameters)) {
    throw new ConfigError(`${file}: parameters.${CONFIG_KEY}: missing; expected a map`);
  }
  const dir = file.slice(0, Math.max(file.lastIndexOf("/"), 0)) || "/";
  return validateConfig(root.parameters[CONFIG_KEY], dir, file, `parameters.${CONFIG_KEY}`);
}

/**
 * Validates a `service.content.config` value given as an object (as in YAML),
 * resolving `path` against `baseDir`.
 *
 * @throws {ConfigError} naming `source` and the offending key
 *
 * @example
 * ```ts
 * import { validateConfig } from "./config.ts";
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
  const plugins = config.plugins;
  if (!isMap(plugins)) fail("plugins", "a map of plugin names", plugins);
  const enabled: ContentPluginConfig[] = [];
  const outputs = { api: false, sitemap: false, llms: false, feed: false, mcp: false };
  for (const [name, options] of Object.entries(plugins as Record<string, unknown>)) {
    const key = `plugins.${name}`;
    if (Object.hasOwn(outputs, name)) {
      if (options !== null) fail(key, "null (~): this plugin takes no options", options);
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
    enabled.push({
      name: name as ContentPluginName,
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
  };
}

/**
 * What is wrong with a `permalink` pattern, or `undefined` (SPEC 4 `url`):
 * an absolute http(s) URL or a root-relative path, with no placeholder but
 * `{type}`, `{uri}`, `{slug}`, `{yyyy}`, `{mm}`, `{dd}`.
 *
 * @example
 * ```ts
 * import { permalinkProblem } from "./config.ts";
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

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The base URL (SPEC 2.1): the config's `url` when set, else `fallback`
 * (the `BASE_URL` variable, or the `baseUrl` option), each without trailing
 * slashes; `undefined` means each request's own origin.
 *
 * @throws {ConfigError} when `fallback` is given and is not an absolute
 *   http(s) URL (even when the config's `url` wins: a typo should not wait
 *   for the day the config loses its `url`)
 *
 * @example
 * ```ts
 * import { resolveBaseUrl } from "./config.ts";
 * resolveBaseUrl(undefined, "https://example.com/"); // "https://example.com"
 * resolveBaseUrl("https://docs.example", "https://example.com"); // "https://docs.example"
 * resolveBaseUrl(undefined, undefined); // undefined
 * ```
 */
export function resolveBaseUrl(
  configured: string | undefined,
  fallback: string | undefined,
): string | undefined {
  const given = fallback?.replace(/\/+$/, "") || undefined;
  if (given !== undefined && !isHttpUrl(given)) {
    throw new ConfigError(
      `BASE_URL: expected an absolute http(s) URL, got ${quoteValue(fallback)}`,
    );
  }
  return configured ? configured.replace(/\/+$/, "") : given;
}

/**
 * Whether text is an absolute http(s) URL without query or fragment: what a
 * base URL must be, from the config or from `BASE_URL`.
 *
 * @example
 * ```ts
 * import { isHttpUrl } from "./config.ts";
 * isHttpUrl("https://example.com/content"); // true
 * isHttpUrl("example.com"); // false
 * ```
 */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && !url.search && !url.hash;
  } catch {
    return false;
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a map";
  if (typeof value === "string") return quoteValue(value);
  return `${typeof value} ${String(value)}`;
}
