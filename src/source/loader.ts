import type { ContentConfig } from "../config.ts";
import { fileSelector } from "../index/tree.ts";
import { PLUGINS } from "../plugins.ts";
import { type FoundFile, listFiles, readBytes } from "./fs.ts";
import { sha256Hex } from "./hash.ts";
import { isWarning, parseFile } from "./parse.ts";
import type { ParsedFile, Warning } from "./parsed_file.ts";

/** One load of the content folder: the files that parsed, and what went wrong. */
export interface Loaded {
  readonly files: ParsedFile[];
  readonly warnings: Warning[];
  /** How many files were read (not reused from the previous load). */
  readonly read: number;
  /** Whether anything differs from the previous load (a file read, added or removed). */
  readonly changed: boolean;
}

/** Reads content folders and remembers what it read, so a reload reads only what changed. */
export interface ContentLoader {
  /** Lists every plugin folder and reads the files that are new or changed since the last load. */
  load(): Promise<Loaded>;
}

const CONCURRENCY = 32;

/**
 * Creates a loader for a configuration. A file is read again only when its
 * modification time or size changed; otherwise its parsed form is reused.
 *
 * @example
 * ```ts
 * import { createLoader } from "./loader.ts";
 * import { loadConfigFile } from "../load_config.ts";
 * const loader = createLoader(await loadConfigFile("content/services.yaml"));
 * const { files, warnings } = await loader.load();
 * ```
 */
export function createLoader(config: ContentConfig): ContentLoader {
  let cache = new Map<string, { mtime: number; size: number; result: ParsedFile | Warning }>();
  let listingWarnings = "";
  return {
    async load() {
      const next = new Map<string, { mtime: number; size: number; result: ParsedFile | Warning }>();
      const warnings: Warning[] = [];
      const todo: { found: FoundFile; plugin: string; prefix: string }[] = [];
      const listed = await Promise.all(config.plugins.map(async (plugin) => {
        const select = fileSelector(PLUGINS[plugin.name], plugin);
        const folder = `${config.root}/${plugin.path}`;
        const found = await listFiles(
          config.root,
          folder,
          select,
          (path, reason) =>
            warnings.push({ file: `${plugin.path}/${path}`, message: `${reason}; left out` }),
        );
        return { plugin, found };
      }));
      for (const { plugin, found } of listed) {
        for (const file of found) {
          const old = cache.get(file.abs);
          if (old && old.mtime === file.mtime && old.size === file.size) next.set(file.abs, old);
          else todo.push({ found: file, plugin: plugin.name, prefix: plugin.path });
        }
      }
      let cursor = 0;
      const worker = async () => {
        while (cursor < todo.length) {
          const { found, plugin, prefix } = todo[cursor++];
          const shown = `${prefix}/${found.path}`;
          let result: ParsedFile | Warning;
          let mtime = found.mtime;
          try {
            const bytes = await readBytes(found.abs);
            const checksum = await sha256Hex(bytes);
            result = parseFile(
              bytes,
              { plugin, path: found.path, checksum, mtime: found.mtime },
              shown,
            );
          } catch (error) {
            const code = (error as { code?: string }).code ?? "read error";
            result = { file: shown, message: `cannot be read (${code}); left out` };
            mtime = NaN; // never reused: a permission fix does not change the mtime
          }
          next.set(found.abs, { mtime, size: found.size, result });
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, todo.length) }, worker));
      // A new listing warning (a bad link added) is a change too, so it gets logged.
      const listing = warnings.map((w) => `${w.file}\n${w.message}`).join("\n");
      const changed = todo.length > 0 || next.size !== cache.size || listing !== listingWarnings;
      listingWarnings = listing;
      cache = next;
      const files: ParsedFile[] = [];
      for (const { result } of next.values()) {
        if (isWarning(result)) warnings.push(result);
        else files.push(result);
      }
      return { files, warnings, read: todo.length, changed };
    },
  };
}
