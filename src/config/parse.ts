// The YAML texts of the configuration (SPEC 2, 3): the service file and a
// plugin's authors file, parsed with the bound on aliases; pure (the caller
// reads the files).
import { parseDocument } from "yaml";
import { CONFIG_KEY, ConfigError, type ContentConfig } from "./types.ts";
import { describe, isMap, validateConfig } from "./validate.ts";

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
 * Reads an authors file (SPEC 3 `authors`, the shape of Docusaurus's
 * `authors.yml`): a map of author keys to `{name, …}` (or to a name). Pure:
 * the caller reads the file.
 *
 * @throws {ConfigError} naming `where` when the text is not such a map
 *
 * @example
 * ```ts
 * import { parseAuthorsFile } from "./parse.ts";
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
