import { type IndexSettings, indexSettings } from "./index/build.ts";
import { compareText } from "./index/tree.ts";
import { ConfigError } from "./config.ts";
import { loadConfigFile } from "./load_config.ts";
import { readText, writeText } from "./source/fs.ts";
import { createLoader } from "./source/loader.ts";
import type { Warning } from "./source/parsed_file.ts";
import type { ParsedFile } from "./source/parsed_file.ts";

/** The parsed content tree in one JSON value (SPEC 10): what an edge deployment serves. */
export interface Snapshot {
  readonly format: "content-feed-snapshot";
  readonly version: 1;
  readonly settings: IndexSettings;
  readonly files: readonly ParsedFile[];
}

/**
 * Makes a snapshot value from settings and parsed files.
 *
 * @example
 * ```ts
 * import { makeSnapshot } from "./snapshot.ts";
 * const snapshot = makeSnapshot({ title: undefined, url: undefined, api: true, sitemap: true, plugins: [] }, []);
 * JSON.stringify(snapshot);
 * ```
 */
export function makeSnapshot(settings: IndexSettings, files: readonly ParsedFile[]): Snapshot {
  return { format: "content-feed-snapshot", version: 1, settings, files };
}

/**
 * Checks a snapshot value and returns its settings.
 *
 * @throws {ConfigError} when the value is not a snapshot of this version
 *
 * @example
 * ```ts
 * import { snapshotSettings } from "./snapshot.ts";
 * snapshotSettings(snapshot).plugins;
 * ```
 */
export function snapshotSettings(snapshot: Snapshot): IndexSettings {
  if (
    snapshot?.format !== "content-feed-snapshot" || snapshot.version !== 1 ||
    !Array.isArray(snapshot.files) || !Array.isArray(snapshot.settings?.plugins)
  ) {
    throw new ConfigError(
      "snapshot: expected a content-feed snapshot (format content-feed-snapshot, version 1)",
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
 * file: every parsed file with its checksum and modification time, plus the
 * settings. Files that cannot be content are left out and returned as warnings.
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
  const { files, warnings } = await createLoader(config, { keepText: true }).load();
  const sorted = [...files as ParsedFile[]].sort((a, b) =>
    compareText(a.plugin, b.plugin) || compareText(a.path, b.path)
  );
  await writeText(out, JSON.stringify(makeSnapshot(indexSettings(config), sorted)));
  return { files: files.length, warnings };
}
