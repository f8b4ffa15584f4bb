import { loadConfigFile } from "./config/load.ts";
import { ConfigError } from "./config/types.ts";
import type { FileFields } from "./fields/derive.ts";
import type { IndexedFile } from "./fields/indexed_file.ts";
import { indexFile } from "./fields/index_file.ts";
import { buildIndexFrom, type Index, type IndexSettings } from "./index/build.ts";
import { readText, writeText } from "./source/fs.ts";
import { contentPipeline } from "./pipeline/pipeline.ts";
import type { ParsedFile, Warning } from "./source/parsed_file.ts";
import { compareText } from "./util/compare.ts";
import { contentPath } from "./util/path.ts";
import { createJournal } from "./sync/journal.ts";
import type { JournalState } from "./sync/state.ts";
import {
  journalFromSnapshot,
  journalToSnapshot,
  type SnapshotJournal,
} from "./sync/journal_document.ts";

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

/**
 * The served content tree in one JSON value (SPEC 10): what an edge
 * deployment serves. `content-feed snapshot` writes it and
 * `createContentApi({ snapshot })` reads it; its files and journal are this
 * module's to read ({@link SnapshotDocument}).
 */
export interface Snapshot {
  /** Always `content-feed-snapshot`. */
  readonly format: "content-feed-snapshot";
  /** The format version: 3 carries its change journal and build time; 2 held no journal. */
  readonly version: 3;
  /** What the index keeps of the configuration it was made with. */
  readonly settings: IndexSettings;
  /** Epoch ms the snapshot was made: every replica serves it as `meta.generated`. */
  readonly builtAt: number;
  /** The served files, by plugin and path: each one's fields and body. */
  readonly files: readonly object[];
  /** The change journal (SPEC 12), continued from the previous snapshot's when there was one. */
  readonly journal: {
    /** The journal's id (in every cursor it gives out). */
    readonly id: string;
    /** Its last sequence number. */
    readonly head: number;
  };
}

/** A snapshot as this module reads and writes it: its files and journal typed. */
export interface SnapshotDocument extends Snapshot {
  /** The served files, by plugin and path. */
  readonly files: readonly SnapshotFile[];
  /** The change journal (SPEC 12). */
  readonly journal: SnapshotJournal;
}

/** A snapshot's files and journal, typed (every snapshot is one this module wrote). */
const documentOf = (snapshot: Snapshot) => snapshot as SnapshotDocument;

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
  builtAt = 0,
  previous?: JournalState,
  retentionDays = 90,
): SnapshotDocument {
  const prefix = new Map(settings.plugins.map((p) => [p.name, p.path]));
  const indexed = files.map((file) =>
    "fields" in file
      ? file
      : indexFile(file, contentPath(prefix.get(file.plugin)!, file.path), { keepBody: true })
  );
  return snapshotOf(buildIndexFrom(indexed, settings, builtAt), indexed, previous, retentionDays);
}

/**
 * The snapshot of an index built from `files` (in the order they go in):
 * the files it serves, its journal going on from `previous`.
 */
function snapshotOf(
  index: Index,
  files: readonly IndexedFile[],
  previous: JournalState | undefined,
  retentionDays: number,
): SnapshotDocument {
  const { settings, builtAt } = index;
  const prefix = new Map(settings.plugins.map((p) => [p.name, p.path]));
  const served = new Set(index.items.map((item) => item.file));
  const kept: SnapshotFile[] = [];
  for (const { plugin, path, checksum, mtime, fields, body } of files) {
    if (!served.has(contentPath(prefix.get(plugin)!, path))) continue;
    kept.push({ plugin, path, checksum, mtime, fields, body: body ?? "" });
  }
  // The journal goes on from the previous snapshot's (SPEC 12 "Edges and replicas").
  const journal = createJournal({ initial: previous, retentionDays, warn: () => {} });
  journal.record(index, builtAt);
  return {
    format: "content-feed-snapshot",
    version: 3,
    settings,
    builtAt,
    files: kept,
    journal: journalToSnapshot(journal.state),
  };
}
/**
 * The files of a snapshot, ready for `buildIndex`: their fields come from
 * the snapshot, not from front matter it does not hold.
 *
 * @example
 * ```ts
 * import { makeSnapshot, snapshotFiles } from "./snapshot.ts";
 * import { buildIndexFrom } from "./index/build.ts";
 * const snapshot = makeSnapshot({ title: undefined, url: undefined, api: true, sitemap: true, plugins: [] }, []);
 * const index = buildIndexFrom(snapshotFiles(snapshot), snapshot.settings, Date.now());
 * ```
 */
export function snapshotFiles(snapshot: Snapshot): IndexedFile[] {
  return documentOf(snapshot).files.map((file) => ({ ...file, warnings: [] }));
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
  const version = (snapshot as { version?: unknown })?.version;
  if (version === 1 || version === 2) {
    throw new ConfigError(
      `snapshot: version ${version} (${
        version === 1 ? "it may hold drafts and front matter" : "it has no change journal"
      }); write it again with the snapshot command`,
    );
  }
  if (
    snapshot?.format !== "content-feed-snapshot" || snapshot.version !== 3 ||
    !Array.isArray(snapshot.files) || !Array.isArray(snapshot.settings?.plugins) ||
    !Array.isArray(documentOf(snapshot).journal?.entries) || typeof snapshot.builtAt !== "number"
  ) {
    throw new ConfigError(
      "snapshot: expected a content-feed snapshot (format content-feed-snapshot, version 3)",
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
  options: {
    readonly previous?: string;
    readonly now?: number;
    /** Told how many files are read so far, and of how many. */
    readonly progress?: (read: number, total: number) => void;
  } = {},
): Promise<{ files: number; warnings: Warning[]; snapshot: Snapshot }> {
  const config = await loadConfigFile(configFile);
  let previous: JournalState | undefined;
  if (options.previous !== undefined) {
    const old = await readSnapshotFile(options.previous);
    snapshotSettings(old);
    previous = journalFromSnapshot(old.journal);
  }
  const builtAt = options.now ?? Date.now();
  const { index, loaded } = await (await contentPipeline(config, {
    keepBody: true,
    progress: options.progress,
    now: () => builtAt,
  })).build();
  // The index does not depend on the order its files come in; the snapshot's files do.
  const sorted = [...loaded.files].sort((a, b) =>
    compareText(a.plugin, b.plugin) || compareText(a.path, b.path)
  );
  const snapshot = snapshotOf(index, sorted, previous, config.retention);
  await writeText(out, JSON.stringify(snapshot));
  // The load's warnings: files that cannot be content (the tree's are the index's).
  return { files: snapshot.files.length, warnings: loaded.warnings, snapshot };
}
