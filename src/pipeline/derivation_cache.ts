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

/**
 * One file's entry as the cache keeps it: `[plugin, file, size, mtime, ino,
 * ctime, checksum, readAt, extra, result]`. `file` is relative to the content
 * root; `checksum` is `null` where the bytes were not read (a file over the
 * size limit); `readAt` is when it was read (a file modified near then is
 * checked by checksum); `extra` the commit dates it was derived with
 * (`null`: none); `result` its derived fields without what the row says
 * already (plugin, path, checksum, mtime), or the warning that left it out.
 * An array, not an object: rows are most of what a restart parses.
 */
export type CachedFileRow = readonly [
  plugin: string,
  file: string,
  size: number,
  mtime: number,
  ino: number,
  ctime: number,
  checksum: string | null,
  readAt: number,
  extra: CommitDates | null,
  result: Record<string, unknown>,
];

/**
 * How many parts the files' rows are kept in: a part is one JSON text, so a
 * restart parses a few tens of texts, not a row a file, and a change
 * rewrites the part of its file (about 1/64 of the rows).
 */
export const CACHE_PARTS = 64;

/**
 * The part a file's row is kept in: a hash of its plugin and path.
 *
 * @example
 * ```ts
 * import { partOf } from "./derivation_cache.ts";
 * partOf("docs", "docs/intro.md"); // 0 … 63
 * ```
 */
export function partOf(plugin: string, file: string): number {
  let hash = 0x811c9dc5;
  const key = `${plugin}\n${file}`;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 16777619);
  return (hash >>> 0) % CACHE_PARTS;
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
  /**
   * The files kept for the key's plugins, a part at a time: each part's rows
   * are read from the store and parsed when it is first called (a start
   * serving its kept feed reads them between requests).
   */
  readonly parts: readonly (() => readonly CachedFileRow[])[];
  /** Git's history as of the commit it was read at, when one was kept. */
  readonly git?: GitHistory;
  /** Why what it held was dropped (another code version, another content root), for one warning. */
  readonly dropped?: string;
}

/** One load's changes to the cache. */
export interface CacheWrite {
  /** The parts whose rows changed: each part's rows made or changed, and the files gone from it. */
  readonly parts: ReadonlyMap<
    number,
    { readonly upsert: readonly CachedFileRow[]; readonly remove: readonly string[] }
  >;
  /** Git's history now, when it changed (`undefined` in it: none any more). */
  readonly git?: { readonly history: GitHistory | undefined };
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
  /** Applies changes to some parts in one transaction. */
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
 * rowOf(entry, "docs/intro.md")?.[1]; // "docs/intro.md"
 * ```
 */
export function rowOf(entry: Entry<IndexedFile>, file: string): CachedFileRow | undefined {
  if (!Number.isFinite(entry.mtime) || !Number.isFinite(entry.size)) return undefined;
  const result = entry.result;
  let kept: Record<string, unknown>;
  if (isWarning(result)) kept = { ...result };
  else {
    if (result.redate?.page !== undefined) return undefined;
    // What the row says already is not kept twice.
    const { plugin: _plugin, path: _path, checksum: _checksum, mtime: _mtime, ...rest } = result;
    kept = rest;
  }
  return [
    entry.plugin,
    file,
    entry.size,
    entry.mtime,
    entry.ino,
    entry.ctime,
    entry.checksum ?? null,
    entry.readAt,
    (entry.extra as CommitDates | undefined) ?? null,
    kept,
  ];
}

/**
 * A row as the loader entry it was made from, or `undefined` when it is not
 * one (a damaged row is read again, never served).
 *
 * @param root the content root, absolute
 * @param prefixOf each plugin's folder relative to the root (`""` for the root itself)
 *
 * @example
 * ```ts
 * import { entryOf } from "./derivation_cache.ts";
 * declare const row: import("./derivation_cache.ts").CachedFileRow;
 * entryOf(row, "/site/content", new Map([["docs", "docs"]]))?.abs; // "/site/content/docs/intro.md"
 * ```
 */
export function entryOf(
  row: CachedFileRow,
  root: string,
  prefixOf: ReadonlyMap<string, string>,
): Entry<IndexedFile> | undefined {
  if (!Array.isArray(row) || row.length !== 10) return undefined;
  const [plugin, file, size, mtime, ino, ctime, checksum, readAt, extra, kept] = row;
  const prefix = prefixOf.get(plugin);
  if (
    prefix === undefined || typeof file !== "string" || typeof size !== "number" ||
    typeof mtime !== "number" || typeof ino !== "number" || typeof ctime !== "number" ||
    typeof readAt !== "number" ||
    typeof kept !== "object" || kept === null
  ) return undefined;
  const path = prefix === "" ? file : file.slice(prefix.length + 1);
  let result: IndexedFile | Record<string, unknown>;
  if ("message" in kept) result = kept;
  else {
    if (typeof checksum !== "string" || !("fields" in kept)) return undefined;
    result = { plugin, path, checksum, mtime, ...kept };
  }
  return {
    abs: `${root}/${file}`,
    plugin,
    result: result as unknown as IndexedFile,
    mtime,
    size,
    ino,
    ctime,
    ...(typeof checksum === "string" ? { checksum } : {}),
    readAt,
    ...(extra !== null ? { extra } : {}),
  };
}
