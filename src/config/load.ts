// Loading the configuration (SPEC 2): the file read, parsed and checked,
// the content root found and listable, the site's and each plugin's
// authors file read.
// Above `source/` in the layers: it reads files through `source/fs.ts`.
import { cwd, isFolder, listingProblem, readText } from "../source/fs.ts";
import { resolvePath } from "../util/path.ts";
import { parseAuthorsFile, parseConfig } from "./parse.ts";
import { ConfigError, type ContentConfig } from "./types.ts";
import { validateConfig } from "./validate.ts";

/**
 * Reads, validates and checks a service configuration file (SPEC 2): the
 * file must exist, be valid, and name a content root that exists.
 *
 * @throws {ConfigError} one line naming the file, the key and what was expected
 *
 * @example
 * ```ts
 * import { loadConfigFile } from "./load.ts";
 * const config = await loadConfigFile("content/services.yaml");
 * config.plugins.map((p) => p.name); // ["academy", "blog", "docs", "faq", "pages"]
 * ```
 */
export async function loadConfigFile(file: string): Promise<ContentConfig> {
  const abs = resolvePath(cwd(), file);
  const text = await readText(abs).catch((error) => {
    throw new ConfigError(`${abs}: cannot be read (${(error as { code?: string }).code ?? error})`);
  });
  if (text === undefined) throw new ConfigError(`${abs}: configuration file not found`);
  return await checkRoot(parseConfig(text, abs));
}

/**
 * Validates a configuration given as an object (the value of
 * `service.content.config`), resolving `path` against the working folder.
 *
 * @example
 * ```ts
 * import { loadConfigObject } from "./load.ts";
 * const config = await loadConfigObject({ path: "content", plugins: { docs: null, api: null } });
 * ```
 */
export async function loadConfigObject(value: unknown): Promise<ContentConfig> {
  return await checkRoot(validateConfig(value, cwd()));
}

async function checkRoot(config: ContentConfig): Promise<ContentConfig> {
  const key = config.source === "options"
    ? "service.content.config.path"
    : "parameters.service.content.config.path";
  if (!(await isFolder(config.root))) {
    throw new ConfigError(
      `${config.source}: ${key}: content root ${config.root} is not an existing folder`,
    );
  }
  const problem = await listingProblem(config.root);
  if (problem) {
    throw new ConfigError(
      `${config.source}: ${key}: content root ${config.root} cannot be read (${problem})`,
    );
  }
  // The site-wide authors file (SPEC 16.4), read once: a plugin's own file wins for a key.
  const siteNames = config.authorsFile === undefined ? undefined : await readAuthors(
    config.authorsFile,
    `${config.source}: ${key.replace(/path$/, "")}authors`,
  );
  return { ...config, plugins: await Promise.all(config.plugins.map(withAuthors)) };

  /** A plugin with its authors read (SPEC 3 `authors`, relative to its folder), over the site's. */
  async function withAuthors(plugin: ContentConfig["plugins"][number]) {
    if (plugin.authors === undefined) {
      return siteNames === undefined ? plugin : { ...plugin, authorNames: siteNames };
    }
    const file = resolvePath(`${config.root}/${plugin.path}`, plugin.authors);
    const where = `${config.source}: ${key.replace(/path$/, "")}plugins.${plugin.name}.authors`;
    const own = await readAuthors(file, where);
    return {
      ...plugin,
      authorNames: siteNames === undefined ? own : new Map([...siteNames, ...own]),
    };
  }
}

/** An authors file read and parsed, or a {@link ConfigError} naming `where` and the file. */
async function readAuthors(file: string, where: string): Promise<ReadonlyMap<string, string>> {
  const text = await readText(file).catch(() => undefined);
  if (text === undefined) throw new ConfigError(`${where}: ${file} cannot be read`);
  return parseAuthorsFile(text, `${where} (${file})`, file);
}
