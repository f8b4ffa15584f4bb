import { ConfigError } from "./config.ts";
import type { FileFields } from "./fields/derive.ts";
import { type IndexedFile, indexFile } from "./fields/indexed_file.ts";
import { buildIndex, type IndexSettings, indexSettings } from "./index/build.ts";
import { loadConfigFile } from "./load_config.ts";
import { readText, writeText } from "./source/fs.ts";
import { createContentFilesLoader } from "./content_loader.ts";
import type { ParsedFile, Warning } from "./source/parsed_file.ts";
import { compareText } from "./util/compare.ts";

/**
 * One served file in a snapshot: where it was, its derived fields and its
 * body. No raw front matter: a snapshot is uploaded to edges, and holds only
 * what the routes serve (SPEC 10).
 */
export interface SnapshotFile {
  /** Name of the content plugin that owns the file. */
  readonly plugin: string;
  /** Path relative to the plugin's folder. */
  readonly path: string;
  /** SHA-256 of the file's bytes, lowercase hex. */
  readonly checksum: string;
  /** Modification time, epoch milliseconds. */
  readonly mtime: number;
  /** The fields derived from the file (SPEC 4). */
  readonly fields: FileFields;
  /** The Markdown body, without front matter. */
  readonly body: string;
}

/** The served content tree in one JSON value (SPEC 10): what an edge deployment serves. */
export interface Snapshot {
  /** Always `content-feed-snapshot`. */
  readonly format: "content-feed-snapshot";
  /** The format version: 2 holds no front matter and no drafts. */
  readonly version: 2;
  /** What the index keeps of the configuration it was made with. */
  readonly settings: IndexSettings;
  /** The served files, by plugin and path. */
  readonly files: readonly SnapshotFile[];
}

/**
 * Makes a snapshot value from settings and files. Only the files whose
 * items a route serves go in (no draft, nor anything a draft hides, nor a
 * file that lost a clash), each with its derived fields and body, never its
 * front matter: the index built from the snapshot is the one built from the
 * files.
 *
 * @example
 * ```ts
 * import { makeSnapshot } from "./snapshot.ts";
 * const snapshot = makeSnapshot(
 *   { title: undefined, url: undefined, api: true, sitemap: true, plugins: [{ name: "docs", path: "docs" }] },
 *   [{ plugin: "docs", path: "a.md", checksum: "00", mtime: 0, attrs: { draft: true }, body: "A draft." }],
 * );
 * snapshot.files.length; // 0
 * ```
 */
export function makeSnapshot(
  settings: IndexSettings,
  files: readonly (IndexedFile | ParsedFile)[],
): Snapshot {
  const prefix = new Map(settings.plugins.map((p) => [p.name, p.path]));
  const indexed = files.map((file) =>
    "fields" in file
      ? file
      : indexFile(file, `${prefix.get(file.plugin)}/${file.path}`, { keepBody: true })
  );
  const served = new Set(buildIndex(indexed, settings, 0).items.map((item) => item.file));
  const kept: SnapshotFile[] = [];
  for (const { plugin, path, checksum, mtime, fields, body } of indexed) {
    if (!served.has(`${prefix.get(plugin)}/${path}`)) continue;
    kept.push({ plugin, path, checksum, mtime, fields, body: body ?? "" });
  }
  return { format: "content-feed-snapshot", version: 2, settings, files: kept };
}

/**
 * The files of a snapshot, ready for `buildIndex`: their fields come from
 * the snapshot, not from front matter it does not hold.
 *
 * @example
 * ```ts
 * import { makeSnapshot, snapshotFiles } from "./snapshot.ts";
 * import { buildIndex } from "./index/build.ts";
 * const snapshot = makeSnapshot({ title: undefined, url: undefined, api: true, sitemap: true, plugins: [] }, []);
 * const index = buildIndex(snapshotFiles(snapshot), snapshot.settings, Date.now());
 * ```
 */
export function snapshotFiles(snapshot: Snapshot): IndexedFile[] {
  return snapshot.files.map((file) => ({ ...file, warnings: [] }));
}

/**
 * Checks a snapshot value and returns its settings.
 *
 * @throws {ConfigError} when the value is not a snapshot of this version
 *
 * @example
 * ```ts
 * import { makeSnapshot, snapshotSettings } from "./snapshot.ts";
 * const snapshot = makeSnapshot({ title: undefined, url: undefined, api: true, sitemap: true, plugins: [] }, []);
 * snapshotSettings(snapshot).plugins; // []
 * ```
 */
export function snapshotSettings(snapshot: Snapshot): IndexSettings {
  if ((snapshot as { version?: unknown })?.version === 1) {
    throw new ConfigError(
      "snapshot: version 1 (it may hold drafts and front matter); write it again with the snapshot command",
    );
  }
  if (
    snapshot?.format !== "content-feed-snapshot" || snapshot.version !== 2 ||
    !Array.isArray(snapshot.files) || !Array.isArray(snapshot.settings?.plugins)
  ) {
    throw new ConfigError(
      "snapshot: expected a content-feed snapshot (format content-feed-snapshot, version 2)",
    );
  }
  return snapshot.settings;
}

/**
 * Reads a snapshot file.
 *
 * @throws {ConfigError} when it is missing or not JSON
 *
 * @example
 * ```ts
 * import { readSnapshotFile } from "./snapshot.ts";
 * const snapshot = await readSnapshotFile("snapshot.json");
 * ```
 */
export async function readSnapshotFile(path: string): Promise<Snapshot> {
  const text = await readText(path);
  if (text === undefined) throw new ConfigError(`${path}: snapshot file not found`);
  try {
    return JSON.parse(text) as Snapshot;
  } catch (error) {
    throw new ConfigError(`${path}: snapshot is not valid JSON (${(error as Error).message})`);
  }
}

/**
 * Reads the content a configuration file names and writes it as one snapshot
 * file. Files that cannot be content are left out and returned as warnings.
 *
 * @example
 * ```ts
 * import { writeSnapshotFile } from "./snapshot.ts";
 * const { files, warnings } = await writeSnapshotFile("content/services.yaml", "snapshot.json");
 * ```
 */
export async function writeSnapshotFile(
  configFile: string,
  out: string,
): Promise<{ files: number; warnings: Warning[] }> {
  const config = await loadConfigFile(configFile);
  const { files, warnings } = await createContentFilesLoader(config, { keepBody: true }).load();
  const sorted = [...files].sort((a, b) =>
    compareText(a.plugin, b.plugin) || compareText(a.path, b.path)
  );
  const snapshot = makeSnapshot(indexSettings(config), sorted);
  await writeText(out, JSON.stringify(snapshot));
  return { files: snapshot.files.length, warnings };
}
