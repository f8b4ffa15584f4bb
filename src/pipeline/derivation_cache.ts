// The derivation cache (SPEC 17): what the state folder keeps of each
// file's derived fields and of git's history, so a restart reads and
// derives only the files that changed, and asks git only for the commits
// since. This file says what is kept and how a loader entry becomes a row
// and back; `sync/derivation_store.ts` keeps the rows in the journal's
// SQLite database.
import type { ContentPluginConfig } from "../config/types.ts";
import type { IndexedFile } from "../fields/indexed_file.ts";
import type { PageContext } from "../fields/page.ts";
import type { CommitDates, GitHistory } from "../source/git.ts";
import type { Entry } from "../source/loader_types.ts";
import { isWarning } from "../source/parse.ts";
import { sha256HexSync } from "../util/sha256.ts";

/** One file's entry as the cache keeps it. */
export interface CachedFileRow {
  /** The plugin it was read for. */
  readonly plugin: string;
  /** The file, relative to the content root. */
  readonly file: string;
  readonly size: number;
  readonly mtime: number;
  readonly ino: number;
  /** SHA-256 of the bytes read (`null` where none were: a file over the size limit). */
  readonly checksum: string | null;
  /** When it was read (epoch ms): a file modified near then is checked by checksum. */
  readonly readAt: number;
  /** The commit dates it was derived with, as JSON (`null`: none). */
  readonly extra: string | null;
  /** What reading it gave, as JSON: its derived fields, or the warning that left it out. */
  readonly result: string;
}

/** What a cache holds for one code version, content root and set of plugins. */
export interface CacheKey {
  /** The code's version (`source/code_version.ts`). */
  readonly version: string;
  /** The content root, absolute. */
  readonly root: string;
  /** Each plugin's fingerprint ({@link pluginFingerprint}): a plugin whose one changed is read again. */
  readonly plugins: Readonly<Record<string, string>>;
}

/** What opening a cache found. */
export interface OpenedCache {
  /** The files kept for the key's plugins. */
  readonly files: readonly CachedFileRow[];
  /** Git's history as of the commit it was read at, when one was kept. */
  readonly git?: GitHistory;
  /** Why what it held was dropped (another code version, another content root), for one warning. */
  readonly dropped?: string;
}

/** One load's changes to the cache. */
export interface CacheWrite {
  readonly upsert: readonly CachedFileRow[];
  readonly remove: readonly { readonly plugin: string; readonly file: string }[];
  /** Git's history now: `whole`, it replaces the kept one; else the files named in `paths` changed. */
  readonly git?: {
    readonly history: GitHistory | undefined;
    readonly whole: boolean;
    readonly paths: readonly string[];
  };
}

/**
 * Where a derivation cache is kept (the state folder's database). A cache
 * that cannot be read or written says so by throwing: the pipeline then
 * goes on without one (with one warning), serving exactly what it would
 * have served with it.
 */
export interface DerivationCache {
  /**
   * What is kept for `key`: rows of another code version or content root
   * are dropped first (and `dropped` says why), rows of a plugin whose
   * fingerprint changed are dropped silently (a configuration edited).
   */
  open(key: CacheKey): OpenedCache;
  /** Applies one load's changes in one transaction. */
  write(change: CacheWrite): void;
}

/**
 * What a plugin's files are derived with besides their bytes and dates,
 * hashed: its configuration, its authors, its generator and variant, and
 * whether bodies are kept. Files of a plugin whose fingerprint changed
 * are derived again.
 *
 * @example
 * ```ts
 * import { pluginFingerprint } from "./derivation_cache.ts";
 * declare const plugin: import("../config/types.ts").ContentPluginConfig;
 * pluginFingerprint(plugin, undefined, { keepBody: false, maxFileSize: 10485760 }); // "4f1c…"
 * ```
 */
export function pluginFingerprint(
  plugin: ContentPluginConfig,
  page: PageContext | undefined,
  options: { readonly keepBody: boolean; readonly maxFileSize: number },
): string {
  return sha256HexSync(stableJson({ plugin, page, ...options }));
}

/**
 * A value as JSON with object keys sorted and maps, sets and regular
 * expressions spelled out: equal values give equal text.
 *
 * @example
 * ```ts
 * import { stableJson } from "./derivation_cache.ts";
 * stableJson({ b: 1, a: new Map([["x", 2]]) }); // '{"a":{"$map":[["x",2]]},"b":1}'
 * ```
 */
export function stableJson(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (v instanceof Map) return { $map: [...v].map(([k, x]) => [walk(k), walk(x)]) };
    if (v instanceof Set) return { $set: [...v].map(walk) };
    if (v instanceof RegExp) return { $regexp: String(v) };
    if (v instanceof Date) return { $date: v.toISOString() };
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === "function") return { $function: String(v) };
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[key];
        if (x !== undefined) out[key] = walk(x);
      }
      return out;
    }
    return v;
  };
  return JSON.stringify(walk(value)) ?? "null";
}

/**
 * A loader entry as a row, or `undefined` for one the cache does not keep:
 * a file that could not be read (it is tried again), or one whose page is
 * made again from its front matter when its dates change (its front
 * matter may hold values that JSON does not keep; such files are few).
 *
 * @param file the entry's file relative to the content root
 *
 * @example
 * ```ts
 * import { rowOf } from "./derivation_cache.ts";
 * declare const entry: import("../source/loader_types.ts").Entry<import("../fields/indexed_file.ts").IndexedFile>;
 * rowOf(entry, "docs/intro.md")?.result; // '{"plugin":"docs",…}'
 * ```
 */
export function rowOf(entry: Entry<IndexedFile>, file: string): CachedFileRow | undefined {
  if (!Number.isFinite(entry.mtime) || !Number.isFinite(entry.size)) return undefined;
  const result = entry.result;
  if (!isWarning(result) && result.redate?.page !== undefined) return undefined;
  return {
    plugin: entry.plugin,
    file,
    size: entry.size,
    mtime: entry.mtime,
    ino: entry.ino,
    checksum: entry.checksum ?? null,
    readAt: entry.readAt,
    extra: entry.extra === undefined ? null : JSON.stringify(entry.extra),
    result: JSON.stringify(result),
  };
}

/**
 * A row as the loader entry it was made from, or `undefined` when it does
 * not parse (a damaged row is read again, never served).
 *
 * @param root the content root, absolute
 *
 * @example
 * ```ts
 * import { entryOf } from "./derivation_cache.ts";
 * declare const row: import("./derivation_cache.ts").CachedFileRow;
 * entryOf(row, "/site/content")?.abs; // "/site/content/docs/intro.md"
 * ```
 */
export function entryOf(row: CachedFileRow, root: string): Entry<IndexedFile> | undefined {
  try {
    const result = JSON.parse(row.result);
    const extra = row.extra === null ? undefined : JSON.parse(row.extra) as CommitDates;
    if (typeof result !== "object" || result === null) return undefined;
    return {
      abs: `${root}/${row.file}`,
      plugin: row.plugin,
      result,
      mtime: row.mtime,
      size: row.size,
      ino: row.ino,
      ...(row.checksum !== null ? { checksum: row.checksum } : {}),
      readAt: row.readAt,
      ...(extra !== undefined ? { extra } : {}),
    };
  } catch {
    return undefined;
  }
}
