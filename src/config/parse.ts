// The texts of the configuration (SPEC 2, 3, 16.4): the service file and
// the authors files (YAML, JSON or TOML), parsed with the bound on aliases;
// pure (the caller reads the files).
import { parse as parseToml } from "smol-toml";
import { yamlPackage } from "../util/yaml_package.ts";
import { CONFIG_KEY, ConfigError, type ContentConfig } from "./types.ts";
import { describe, isMap, validateConfig } from "./validate.ts";
import { readYamlFast } from "./yaml_text.ts";

/** Nodes a config's aliases may expand to (the `yaml` parser's `maxAliasCount`). */
const MAX_ALIAS_NODES = 10_000;

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
 * import { parseConfig } from "./parse.ts";
 * const config = parseConfig(
 *   "parameters:\n  service.content.config:\n    plugins: { docs: ~, api: ~ }\n",
 *   "/site/content/services.yaml",
 * );
 * config.root; // "/site/content"
 * config.plugins[0].name; // "docs"
 * ```
 */
export function parseConfig(text: string, file: string): ContentConfig {
  // js-yaml reads most configs as `yaml` does, without loading `yaml`.
  const fast = readYamlFast(text);
  const root = fast ? fast.value : readConfigYaml(text, file);
  if (!isMap(root) || !isMap(root.parameters) || !(CONFIG_KEY in root.parameters)) {
    throw new ConfigError(`${file}: parameters.${CONFIG_KEY}: missing; expected a map`);
  }
  const dir = file.slice(0, Math.max(file.lastIndexOf("/"), 0)) || "/";
  return validateConfig(root.parameters[CONFIG_KEY], dir, file, `parameters.${CONFIG_KEY}`);
}

/** A config text read by `yaml`: its errors name the line, and its aliases are bounded. */
function readConfigYaml(text: string, file: string): unknown {
  const doc = yamlPackage().parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    const line = error.linePos?.[0].line;
    const reason = error.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    throw new ConfigError(`${file}${line ? `:${line}` : ""}: invalid YAML: ${reason}`);
  }
  try {
    // An alias bomb stops here, with the bound of SPEC 4, not in a stack trace.
    return doc.toJS({ maxAliasCount: MAX_ALIAS_NODES });
  } catch (error) {
    throw new ConfigError(
      `${file}: invalid YAML: aliases expand past ${MAX_ALIAS_NODES.toLocaleString("en")} nodes (${
        (error as Error).message.split("\n")[0]
      })`,
    );
  }
}

/**
 * Reads an authors file (SPEC 3 `authors`, 16.4): a map of author keys to
 * what each stands for, in the shapes generators' data files use:
 * Docusaurus's `authors.yml` (`{name, title, url, image_url}`, where
 * `title` is the author's job), a name alone, Eleventy's and Hugo's data
 * files (`{name, link}`, `{title}`, `{display_name}`), or a list of such maps
 * each with its key as `key`, `id` or `slug`. YAML, JSON (`.json`) or TOML
 * (`.toml`), by the file's extension. Pure: the caller reads the file.
 *
 * @param file the file's path (its extension says JSON or TOML); YAML when absent
 * @throws {ConfigError} naming `where` when the text is not such a map
 *
 * @example
 * ```ts
 * import { parseAuthorsFile } from "./parse.ts";
 * parseAuthorsFile("ana:\n  name: Ana Pérez\n  title: Maintainer\n", "blog/authors.yml").get("ana"); // "Ana Pérez"
 * parseAuthorsFile('{"bo": {"title": "Bo Li"}}', "_data/authors.json", "authors.json").get("bo"); // "Bo Li"
 * ```
 */
export function parseAuthorsFile(
  text: string,
  where: string,
  file = "",
): ReadonlyMap<string, string> {
  let value: unknown;
  try {
    if (/\.json$/i.test(file)) value = JSON.parse(text);
    else if (/\.toml$/i.test(file)) value = parseToml(text);
    else {
      const fast = readYamlFast(text);
      if (fast) value = fast.value;
      else {
        const doc = yamlPackage().parseDocument(text, { uniqueKeys: true });
        if (doc.errors.length > 0) throw new Error(doc.errors[0].message.split("\n")[0]);
        value = doc.toJS({ maxAliasCount: MAX_ALIAS_NODES });
      }
    }
  } catch (error) {
    const kind = /\.json$/i.test(file) ? "JSON" : /\.toml$/i.test(file) ? "TOML" : "YAML";
    throw new ConfigError(`${where}: invalid ${kind}: ${(error as Error).message.split("\n")[0]}`);
  }
  if (value == null) return new Map();
  const entries = Array.isArray(value) ? keyedEntries(value, where) : value;
  if (!isMap(entries)) {
    throw new ConfigError(`${where}: expected a map of author keys to {name}`);
  }
  const names = new Map<string, string>();
  for (const [key, entry] of Object.entries(entries)) {
    const name = nameOf(entry);
    if (name === undefined) {
      throw new ConfigError(
        `${where}: ${key}: expected {name: …} or a name, got ${describe(entry)}`,
      );
    }
    names.set(key, name);
  }
  return names;
}

/** What an author entry names: a name alone, or a map's `name`, `display_name` or `title`. */
function nameOf(entry: unknown): string | undefined {
  const name = typeof entry === "string" ? entry : isMap(entry)
    // Docusaurus's `title` is a job title: the name comes first wherever it is given.
    ? [entry.name, entry.display_name, entry.title].find((v) => typeof v === "string" && v.trim())
    : undefined;
  return typeof name === "string" && name.trim() ? name.trim() : undefined;
}

/** A list of author maps as a map from each one's `key`, `id` or `slug`. */
function keyedEntries(list: unknown[], where: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of list) {
    const key = isMap(entry)
      ? [entry.key, entry.id, entry.slug].find((v) => typeof v === "string" && v !== "")
      : undefined;
    if (typeof key !== "string") {
      throw new ConfigError(
        `${where}: expected each listed author to have a key, id or slug, got ${describe(entry)}`,
      );
    }
    out[key] = entry;
  }
  return out;
}
