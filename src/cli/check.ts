import { loadConfigFile } from "../config/load.ts";
import type { ContentConfig } from "../config/types.ts";
import type { Index } from "../index/build.ts";
import { warningLines } from "../log.ts";
import type { ExclusionReason, Exclusions } from "../pipeline/exclusions.ts";
import type { LoadWork } from "../source/load_work.ts";
import { contentPipeline } from "../pipeline/pipeline.ts";
import type { Warning } from "../source/parsed_file.ts";
import { type Finding, findings } from "./findings.ts";

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
  "partial",
  "not a page",
] as const satisfies readonly ExclusionReason[];

/** One reason of {@link LEFT_OUT_REASONS}: every reason the pipeline gives, and no other. */
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
  /** Whose rules lay its files out (SPEC 16.1). */
  readonly generator: string;
  /** Where the site publishes its folder (SPEC 16.1). */
  readonly route: string;
  /** The locale of its pages, where the site has locales (SPEC 16.3). */
  readonly lang?: string;
  /** The version of its pages, where the site has versions. */
  readonly version?: string;
}

/** What `content-feed check` reports (SPEC 15). */
export interface CheckReport {
  /** The config file. */
  readonly config: string;
  /** The content root. */
  readonly root: string;
  /** One report per enabled content plugin, in config order. */
  readonly plugins: readonly PluginReport[];
  /**
   * Every warning of the load, as the server logs them, after those of the
   * plugin folders that could not be listed (SPEC 15).
   */
  readonly warnings: readonly Warning[];
  /** What a crawl would see that the feed does not say (SPEC 16.5). */
  readonly findings: readonly Finding[];
  /**
   * What loading the content did (SPEC 17): files stat'ed, read, derived,
   * parser runs, git processes (`check` keeps no state folder: every file
   * is read and derived, none comes from a cache).
   */
  readonly load: LoadWork & { readonly files: number };
}

/**
 * Loads the content a config names exactly as the server does (the same
 * pipeline, git dates included) and reports, per plugin: files seen,
 * items, items in the feed, why the rest are not there, and the files
 * skipped by extension; then every warning. Every count is the pipeline's:
 * its listing's, its exclusions' (each with the reason decided where the
 * file was left out), its index's.
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
  const pipeline = await contentPipeline(config, { keepBody: false });
  const { index, exclusions, loaded } = await pipeline.build();
  return {
    config: configFile,
    root: config.root,
    // One row per folder: a plugin with other locales or versions has one per variant.
    plugins: pipeline.settings.plugins.map((plugin) =>
      pluginReport(plugin, config, index, exclusions)
    ),
    // A plugin folder that cannot be listed first: a typo in `path` fails content CI.
    warnings: [
      ...exclusions.selection.flatMap(({ unlisted }) => unlisted ?? []),
      ...index.warnings,
    ],
    findings: await findings(
      index,
      exclusions,
      config.root,
      config.maxFileSize,
      Object.fromEntries(config.plugins.map((plugin) => [plugin.type, plugin.generator])),
    ),
    load: { ...loaded.work, files: loaded.files.length },
  };
}

function pluginReport(
  plugin: Index["settings"]["plugins"][number],
  config: ContentConfig,
  index: Index,
  exclusions: Exclusions,
): PluginReport {
  const type = plugin.type ?? plugin.name;
  const declared = config.plugins.find((p) => p.name === type);
  const counts = index.counts.find((count) => count.plugin === plugin.name);
  const selection = exclusions.selection.find((selected) => selected.plugin === plugin.name);
  const byReason = new Map<LeftOut, number>();
  for (const { plugin: name, reason } of exclusions.files) {
    if (name === plugin.name) byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  }
  const leftOut: Partial<Record<LeftOut, number>> = {};
  for (const reason of LEFT_OUT_REASONS) {
    if (byReason.has(reason)) leftOut[reason] = byReason.get(reason);
  }
  // A translation by file name (`about.fr.md`) shares its folder with the default
  // variant, which says what the folder skips: its own globs skip the other locales' files.
  const sharesFolder =
    index.settings.plugins.find((other) =>
      other.path === plugin.path && (other.type ?? other.name) === type
    ) !== plugin;
  // Extensions in order, whatever order the listing met them in.
  const skipped = sharesFolder ? {} : Object.fromEntries(
    Object.entries(selection?.skipped ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  return {
    plugin: plugin.name,
    folder: plugin.path || ".",
    files: selection?.files ?? 0,
    items: counts?.items ?? 0,
    feed: counts?.feed ?? 0,
    leftOut,
    skipped,
    generator: declared?.generator ?? "plain",
    route: plugin.route ?? `/${type}`,
    ...(plugin.lang !== undefined ? { lang: plugin.lang } : {}),
    ...(plugin.version !== undefined ? { version: plugin.version } : {}),
  };
}

/**
 * Whether a warning fails `check` (SPEC 16.5): with `--strict` every one;
 * without, each that changes what is served (a shallow clone's, which
 * changes only dates, does not).
 *
 * @example
 * ```ts
 * import { warningFails } from "./check.ts";
 * warningFails({ file: "docs/", message: "…", informational: true }, false); // false
 * ```
 */
export function warningFails(warning: Warning, strict: boolean): boolean {
  return strict || !warning.informational;
}

/**
 * Whether `check` exits 1: a finding, or a warning that fails
 * ({@link warningFails}).
 *
 * @example
 * ```ts
 * import { checkContent, checkFails } from "./check.ts";
 * const failed = checkFails(await checkContent("content/services.yaml"), false); // false
 * ```
 */
export function checkFails(report: CheckReport, strict: boolean): boolean {
  return report.findings.length > 0 || report.warnings.some((w) => warningFails(w, strict));
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
  // Where each folder is published, and as what (SPEC 16.5): said where it is not plain.
  const laidOut = report.plugins.filter((p) =>
    p.generator !== "plain" || p.lang !== undefined || p.version !== undefined ||
    p.route !== `/${p.plugin.replace(/:.*$/, "")}`
  );
  if (laidOut.length > 0) {
    out.push("published as:");
    for (const p of laidOut) {
      const variant = [p.lang && `lang ${p.lang}`, p.version && `version ${p.version}`]
        .filter(Boolean).join(", ");
      out.push(
        `  ${p.plugin} (${p.generator}) at ${p.route}${
          variant ? `, ${variant}` : ""
        }: ${p.folder}, ${p.items} items`,
      );
    }
    out.push("");
  }
  out.push(...findingLines(report.findings));
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
      ok: report.warnings.length === 0 && report.findings.length === 0,
      config: report.config,
      root: report.root,
      plugins: report.plugins,
      warnings: report.warnings.map(({ file, line, message, reason }) => ({
        file,
        ...(line !== undefined ? { line } : {}),
        message,
        ...(reason ? { reason } : {}),
      })),
      findings: report.findings,
    },
    null,
    2,
  );
}

/**
 * The findings as lines for people: broken links counted per target, the
 * rest one a line; `no findings` when there are none.
 */
function findingLines(found: readonly Finding[]): string[] {
  if (found.length === 0) return ["no findings", ""];
  const lines = [`${found.length} finding${found.length === 1 ? "" : "s"}:`];
  const links = new Map<string, Finding[]>();
  for (const finding of found) {
    if (finding.kind !== "broken link") {
      lines.push(`  ${finding.kind}: ${finding.file}: ${finding.detail}`);
      continue;
    }
    const at = links.get(finding.detail);
    if (at) at.push(finding);
    else links.set(finding.detail, [finding]);
  }
  for (const [target, at] of links) {
    const places = at.slice(0, 3).map((f) => `${f.file}:${f.line}`).join(", ");
    lines.push(
      `  broken link: ${target}, reaches no item (${at.length} link${
        at.length === 1 ? "" : "s"
      }: ${places}${at.length > 3 ? ", …" : ""})`,
    );
  }
  lines.push("");
  return lines;
}
