// Listing every plugin folder at once, for a full load: the files each
// plugin selects, what the listing left out and why, and the files each
// plugin's include globs skip, counted by extension (`check`, SPEC 15).
import type { ContentConfig } from "../config/types.ts";
import { PLUGINS } from "../plugins.ts";
import { contentPath } from "../util/path.ts";
import { type Stamp, stampAll } from "./fs.ts";
import {
  entryNames,
  folderStamp,
  type FoundFile,
  type LeftOutPath,
  listFiles,
  RECENT_MS,
} from "./list.ts";
import type { LeftOutReason, Warning } from "./parsed_file.ts";
import { fileSelection, fileSelector, isSkippedName, type Selection } from "./select.ts";

/** One content plugin as the loader lists and selects it. */
export interface PluginSelector {
  readonly plugin: ContentConfig["plugins"][number];
  /** Its folder, absolute, with a trailing `/`. */
  readonly folder: string;
  /** Whether it selects a path (relative to its folder). */
  readonly select: (path: string) => boolean;
  /** What its selection makes of a path, when `select` says no. */
  readonly selection: (path: string) => Selection;
}

/** A selected file that is not content, and why: a value set where that was decided. */
export interface LeftOutFile {
  /** The plugin it was selected by. */
  readonly plugin: string;
  /** The file, relative to the content root (as warnings name it). */
  readonly file: string;
  readonly reason: LeftOutReason;
}

/** How {@link listPlugins} lists. */
export interface ListPluginsOptions {
  /** List with blocking calls: a first load, when nothing is served yet. */
  readonly blocking: boolean;
  /**
   * Stat every selected file (its mtime, size and inode), to compare with
   * what was read before; without it, each read stats its own file (a first
   * load with nothing to compare with).
   */
  readonly stamp: boolean;
}

/** What one full listing found. */
export interface PluginsListing {
  /** Per plugin, in config order: the files it selects (stamped when asked to be). */
  readonly found: readonly {
    readonly selector: PluginSelector;
    readonly files: readonly (FoundFile & Partial<Stamp>)[];
  }[];
  /** The listing's warnings (links not followed, unreadable folders, files that are not regular). */
  readonly warnings: Warning[];
  /** The selected files among those warnings. */
  readonly leftOut: LeftOutFile[];
  /** Per plugin: the files its include globs do not match, by extension (`.png`; `(none)`). */
  readonly skipped: ReadonlyMap<string, Readonly<Record<string, number>>>;
  /**
   * Per plugin: the warning that its folder could not be listed (it does not
   * exist, is a file, cannot be read). Kept apart from `warnings`: `check`
   * fails on it and `serve` prints it after its start-up line (SPEC 15), but
   * a plugin enabled before its folder is made is no content problem.
   */
  readonly unlisted: ReadonlyMap<string, Warning>;
  /** Every folder visited and those on the way to each plugin folder, with their mtimes. */
  readonly folders: Map<string, number>;
  /** The entries' names of those folders changed near the listing (`Listing.recent`). */
  readonly recent: Map<string, string>;
  /** Whether a selected path was not a regular file. */
  readonly irregular: boolean;
  /** When the listing began (epoch ms): a folder changed near it may have changed after its read. */
  readonly listedAt: number;
}

/**
 * The plugins of a configuration with their folders and selections.
 *
 * @example
 * ```ts
 * import { pluginSelectors } from "./list_plugins.ts";
 * import { validateConfig } from "../config/validate.ts";
 * const [docs] = pluginSelectors(validateConfig({ plugins: { docs: null } }, "/site/content"));
 * docs.folder; // "/site/content/docs/"
 * ```
 */
export function pluginSelectors(config: ContentConfig): PluginSelector[] {
  return config.plugins.map((plugin) => {
    const selection = fileSelection(PLUGINS[plugin.type], plugin);
    return {
      plugin,
      folder: plugin.path ? `${config.root}/${plugin.path}/` : `${config.root}/`,
      select: fileSelector(PLUGINS[plugin.type], plugin),
      selection,
    };
  });
}

/**
 * Lists every plugin folder (concurrently): the files each selects, with
 * each thing left out as a warning whose reason is a value, and, for
 * `check`, the files each plugin's include globs skip. A first load lists
 * with blocking calls; one with nothing to compare with leaves the stats to
 * the reads.
 *
 * @example
 * ```ts
 * import { listPlugins, pluginSelectors } from "./list_plugins.ts";
 * import { validateConfig } from "../config/validate.ts";
 * const config = validateConfig({ plugins: { docs: null } }, "/site/content");
 * const listing = await listPlugins(config.root, pluginSelectors(config), {
 *   blocking: true,
 *   stamp: false,
 * });
 * listing.found[0].files; // [{ path: "intro.md", abs: "/site/content/docs/intro.md" }, …]
 * ```
 */
export async function listPlugins(
  root: string,
  selectors: readonly PluginSelector[],
  options: ListPluginsOptions,
): Promise<PluginsListing> {
  const listedAt = Date.now();
  const warnings: Warning[] = [];
  const leftOut: LeftOutFile[] = [];
  const skipped = new Map<string, Record<string, number>>();
  let irregular = false;
  const folders = new Map<string, number>();
  const recent = new Map<string, string>();
  // Plugin folders that could not be listed, once each (a translation by file name shares its folder).
  const missing = new Map<string, { plugin: PluginSelector["plugin"]; problem: string }>();
  const found = await Promise.all(selectors.map(async (selector) => {
    const { plugin, folder, select, selection } = selector;
    const shown = (path: string) => contentPath(plugin.path, path);
    const counts: Record<string, number> = {};
    skipped.set(plugin.name, counts);
    const passed = (path: string) => {
      if (selection(path) !== "not included") return;
      const name = path.slice(path.lastIndexOf("/") + 1);
      const dot = name.lastIndexOf(".");
      const extension = dot > 0 ? name.slice(dot).toLowerCase() : "(none)";
      counts[extension] = (counts[extension] ?? 0) + 1;
    };
    const onLeftOut = ({ path, folder, problem, reason }: LeftOutPath) => {
      const file = shown(path);
      warnings.push({ file, message: `${problem}; left out`, reason });
      // A link not followed is told whatever its name: it counts as the file its name says.
      if (folder) return;
      if (select(path)) leftOut.push({ plugin: plugin.name, file, reason });
      else passed(path);
    };
    const listing = await listFiles(root, folder.slice(0, -1), {
      keep: select,
      skipName: (name: string, nested: boolean) => isSkippedName(name, plugin.generator, nested),
      onLeftOut,
      onPassed: passed,
      blocking: options.blocking,
    });
    for (const [path, mtime] of listing.folders) folders.set(path, mtime);
    for (const [path, names] of listing.recent) recent.set(path, names);
    irregular ||= listing.irregular;
    if (listing.unlisted !== undefined && !missing.has(folder)) {
      missing.set(folder, { plugin, problem: listing.unlisted });
    }
    const files: (FoundFile & Partial<Stamp>)[] = !options.stamp ? listing.files : await stampAll(
      listing.files,
      (file, code) =>
        onLeftOut({ path: file.path, folder: false, problem: code, reason: "unreadable" }),
      options.blocking,
    );
    return { selector, files };
  }));
  const unlisted = new Map<string, Warning>();
  for (const [folder, { plugin, problem }] of missing) {
    unlisted.set(
      plugin.name,
      unlistedFolderWarning(plugin, folder.slice(root.length + 1) || "./", problem),
    );
  }
  // The folders on the way to each plugin folder, so one created, removed
  // or renamed there shows too, however far from the root.
  for (const { folder } of selectors) {
    for (let at = folder.length - 1; at >= root.length; at = folder.lastIndexOf("/", at - 1)) {
      const path = folder.slice(0, at);
      if (folders.has(path)) continue;
      const time = folderStamp(path);
      folders.set(path, time);
      if (time >= Date.now() - RECENT_MS) {
        const names = entryNames(path);
        if (names !== undefined) recent.set(path, names);
      }
    }
  }
  return { found, warnings, leftOut, skipped, unlisted, folders, recent, irregular, listedAt };
}

/**
 * The warning for a plugin folder that cannot be listed (SPEC 15): a typo in
 * `path`, a folder not made yet. `check` fails on it; the server serves the
 * other plugins and lists the folder when it appears.
 */
function unlistedFolderWarning(
  plugin: PluginSelector["plugin"],
  folder: string,
  problem: string,
): Warning {
  const what = problem === "ENOENT"
    ? "does not exist"
    : problem === "ENOTDIR"
    ? "is not a folder"
    : `cannot be read (${problem})`;
  return {
    file: folder,
    message: `plugin ${plugin.name}'s folder ${what}; nothing is served from it`,
  };
}
