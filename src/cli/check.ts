import { readdirSync } from "node:fs";
import { loadConfigFile } from "../config/load.ts";
import type { ContentConfig } from "../config/types.ts";
import { createContentFilesLoader } from "../content_loader.ts";
import type { IndexedFile } from "../fields/indexed_file.ts";
import { buildIndex, type Index, indexSettings } from "../index/build.ts";
import { warningLines } from "../log.ts";
import { PLUGINS } from "../plugins.ts";
import type { Warning } from "../source/parsed_file.ts";
import { isContentPath, isSkippedName, ownFolderOf } from "../source/select.ts";
import { globMatcher } from "../util/glob.ts";
import { contentPath } from "../util/path.ts";

/** Why a file or an item is not in the feed, as `check` counts them (SPEC 15). */
export const LEFT_OUT_REASONS = [
  "draft",
  "unlisted",
  "deprecated",
  "empty body",
  "short body",
  "indexable: false",
  "orphan folder",
  "too deep",
  "duplicate uri",
  "invalid front matter",
  "not text",
  "too large",
  "not a regular file",
  "unreadable",
] as const;

/** One reason of {@link LEFT_OUT_REASONS}. */
export type LeftOut = typeof LEFT_OUT_REASONS[number];

/** What `check` found for one content plugin. */
export interface PluginReport {
  /** The plugin's name. */
  readonly plugin: string;
  /** Its folder, relative to the content root (`.` for the root itself). */
  readonly folder: string;
  /** Content files its include and exclude globs select. */
  readonly files: number;
  /** Items the item routes serve (every non-draft item). */
  readonly items: number;
  /** Items in the feed. */
  readonly feed: number;
  /** Files and items that are not in the feed, by reason (only reasons with a count). */
  readonly leftOut: Partial<Record<LeftOut, number>>;
  /** Files its include globs do not match, by extension (`.png`; `(none)` without one). */
  readonly skipped: Readonly<Record<string, number>>;
}

/** What `content-feed check` reports (SPEC 15). */
export interface CheckReport {
  /** The config file. */
  readonly config: string;
  /** The content root. */
  readonly root: string;
  /** One report per enabled content plugin, in config order. */
  readonly plugins: readonly PluginReport[];
  /** Every warning of the load, as the server logs them. */
  readonly warnings: readonly Warning[];
}

/**
 * Loads the content a config names exactly as the server does (the same
 * loader, the same index build, git dates included) and reports, per
 * plugin: files seen, items, items in the feed, why the rest are not there,
 * and the files skipped by extension; then every warning.
 *
 * @throws {import("../config/types.ts").ConfigError} a configuration that cannot be used
 *
 * @example
 * ```ts
 * import { checkContent } from "./check.ts";
 * const report = await checkContent("content/services.yaml");
 * report.warnings.length; // 0 for a clean tree
 * ```
 */
export async function checkContent(configFile: string): Promise<CheckReport> {
  const config = await loadConfigFile(configFile);
  const loaded = await createContentFilesLoader(config, { keepBody: false }).load();
  const index = buildIndex(loaded.files, indexSettings(config), Date.now(), {
    warnings: loaded.warnings,
  });
  return {
    config: configFile,
    root: config.root,
    plugins: config.plugins.map((plugin) => pluginReport(config, plugin, loaded.files, index)),
    warnings: index.warnings,
  };
}

/** The item's folder: what its children sit in (`guide.md` and `guide/index.md`: `guide`). */
const itemFolder = (path: string) => ownFolderOf(path) ?? path.replace(/\.[^./]*$/, "");

function pluginReport(
  config: ContentConfig,
  plugin: ContentConfig["plugins"][number],
  files: readonly IndexedFile[],
  index: Index,
): PluginReport {
  const prefix = plugin.path;
  const shown = (path: string) => contentPath(prefix, path);
  const own = files.filter((file) => file.plugin === plugin.name);
  const items = index.items.filter((item) => item.type === PLUGINS[plugin.name].type);
  const served = new Set(items.map((item) => item.file));
  const fed = new Set(index.lists.type.get(PLUGINS[plugin.name].type)?.map((item) => item.file));
  const leftOut: Partial<Record<LeftOut, number>> = {};
  const count = (reason: LeftOut) => leftOut[reason] = (leftOut[reason] ?? 0) + 1;

  // Warnings that name a file (or a folder) of this plugin and say why it is left out.
  const inPlugin = (file: string) => prefix === "" || file.startsWith(`${prefix}/`);
  const relative = (file: string) => prefix === "" ? file : file.slice(prefix.length + 1);
  const warned = new Map<string, LeftOut>();
  const hidingFolders: [string, LeftOut][] = [];
  const loadedPaths = new Set(own.map((file) => shown(file.path)));
  for (const warning of index.warnings) {
    if (!warning.reason || !inPlugin(warning.file)) continue;
    if (warning.file.endsWith("/")) {
      hidingFolders.push([relative(warning.file).slice(0, -1), warning.reason]);
    } else {
      warned.set(warning.file, warning.reason);
      // A file the load could not make anything of: counted here, as it has no fields.
      if (!loadedPaths.has(warning.file) && selects(plugin, relative(warning.file))) {
        count(warning.reason);
      }
      if (loadedPaths.has(warning.file)) {
        hidingFolders.push([itemFolder(relative(warning.file)), warning.reason]);
      }
    }
  }
  for (const file of own) {
    if (file.fields.draft) hidingFolders.push([itemFolder(file.path), "draft"]);
  }
  // The nearest folder above a file that hides it, and why.
  hidingFolders.sort(([a], [b]) => b.length - a.length);
  const hiddenBy = (path: string): LeftOut | undefined =>
    hidingFolders.find(([folder]) => path.startsWith(`${folder}/`))?.[1];

  for (const file of own) {
    const path = shown(file.path);
    if (fed.has(path)) continue;
    if (served.has(path)) {
      count(file.fields.unindexed ?? "empty body");
      continue;
    }
    count(warned.get(path) ?? (file.fields.draft ? "draft" : hiddenBy(file.path) ?? "draft"));
  }

  const { files: seen, skipped } = countFiles(config.root, plugin);
  return {
    plugin: plugin.name,
    folder: prefix || ".",
    files: seen,
    items: items.length,
    feed: fed.size,
    leftOut,
    skipped,
  };
}

/** Whether a plugin's globs select a path (relative to its folder). */
function selects(plugin: ContentConfig["plugins"][number], path: string): boolean {
  const include = globMatcher(plugin.include ?? PLUGINS[plugin.name].include);
  const exclude = globMatcher(plugin.exclude);
  return isContentPath(path) && include(path) && !exclude(path);
}

/**
 * The files under a plugin's folder that its globs select, and those its
 * include globs leave out, by extension. Folders and files whose names
 * start with `.` or `_` are not content (SPEC 3) and are not counted.
 */
function countFiles(
  root: string,
  plugin: ContentConfig["plugins"][number],
): { files: number; skipped: Record<string, number> } {
  const include = globMatcher(plugin.include ?? PLUGINS[plugin.name].include);
  const exclude = globMatcher(plugin.exclude);
  let files = 0;
  const skipped: Record<string, number> = {};
  const walk = (folder: string, relative: string) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return; // an unreadable folder has its warning already
    }
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!isSkippedName(entry.name)) walk(`${folder}/${entry.name}`, path);
        continue;
      }
      if (!isContentPath(path)) continue;
      if (!include(path)) {
        const dot = entry.name.lastIndexOf(".");
        const extension = dot > 0 ? entry.name.slice(dot).toLowerCase() : "(none)";
        skipped[extension] = (skipped[extension] ?? 0) + 1;
      } else if (!exclude(path)) files++;
    }
  };
  walk(plugin.path ? `${root}/${plugin.path}` : root, "");
  return { files, skipped };
}

/**
 * The report as a table for people: one row per plugin, a total, the files
 * skipped by extension, then the warnings as the server logs them.
 *
 * @example
 * ```ts
 * import { checkContent, formatCheckReport } from "./check.ts";
 * console.log(formatCheckReport(await checkContent("content/services.yaml")));
 * ```
 */
export function formatCheckReport(report: CheckReport): string {
  const header = ["plugin", "folder", "files", "items", "in feed", "not in the feed"];
  const why = (leftOut: PluginReport["leftOut"]) =>
    LEFT_OUT_REASONS.filter((reason) => leftOut[reason])
      .map((reason) => `${reason} ${leftOut[reason]}`).join(", ") || "-";
  const sum = (key: "files" | "items" | "feed") =>
    report.plugins.reduce((total, plugin) => total + plugin[key], 0);
  const rows = [
    header,
    ...report.plugins.map((p) => [
      p.plugin,
      p.folder,
      String(p.files),
      String(p.items),
      String(p.feed),
      why(p.leftOut),
    ]),
    ["total", "", String(sum("files")), String(sum("items")), String(sum("feed")), ""],
  ];
  const widths = header.map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const numeric = new Set([2, 3, 4]);
  const line = (row: string[]) =>
    row.map((cell, i) =>
      i === row.length - 1
        ? cell
        : numeric.has(i)
        ? cell.padStart(widths[i])
        : cell.padEnd(widths[i])
    ).join("  ").trimEnd();
  const out = [`content-feed check: ${report.config} (content root ${report.root})`, ""];
  out.push(...rows.map(line));
  const skipped = report.plugins.filter((p) => Object.keys(p.skipped).length > 0).map((p) =>
    `${p.plugin} ${
      Object.entries(p.skipped).sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([extension, n]) => `${extension} ${n}`).join(", ")
    }`
  );
  out.push("", `skipped by extension: ${skipped.length ? skipped.join("; ") : "none"}`, "");
  if (report.warnings.length === 0) out.push("no warnings");
  else {
    out.push(`${report.warnings.length} warning${report.warnings.length === 1 ? "" : "s"}:`);
    out.push(...warningLines(report.warnings).map((line) => `  ${line.replace(/^warning: /, "")}`));
  }
  return out.join("\n");
}

/**
 * The report for machines (`check --json`): the same facts, every reason
 * and warning spelled out.
 *
 * @example
 * ```ts
 * import { checkContent, checkReportJson } from "./check.ts";
 * JSON.parse(checkReportJson(await checkContent("content/services.yaml"))).ok; // true
 * ```
 */
export function checkReportJson(report: CheckReport): string {
  return JSON.stringify(
    {
      ok: report.warnings.length === 0,
      config: report.config,
      root: report.root,
      plugins: report.plugins,
      warnings: report.warnings.map(({ file, message, reason }) => ({
        file,
        message,
        ...(reason ? { reason } : {}),
      })),
    },
    null,
    2,
  );
}
