// The version of the code that derives a file's fields (SPEC 17): what the
// state folder's derivation cache is keyed by beside each file's checksum,
// so a cache made by other code is never served from.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFolderSync, statStamp } from "../adapters/file_system.ts";
import { fileURLToPath } from "node:url";

/** The package's version: the code's version where its files cannot be read (a remote module). */
export const PACKAGE_VERSION = "0.1.0";

let computed: string | undefined;

/**
 * The code's version: a SHA-256 of the name, size and modification time of
 * every module of the package's `src` folder (its `.ts` sources in a clone,
 * its `.js` build in the npm package) and of the package's name, version
 * and pinned dependencies, so an edit of the code, a checkout, an upgrade or
 * another dependency gives another version (an installed package's files
 * keep the times npm gives them, and its version says the rest);
 * `content-feed@<version>` where the modules are not files (imported from a
 * registry's URL, whose versions do not change). Stats, not reads: computed
 * once per process, in a few milliseconds (the runtime's own stat and
 * folder reads, `adapters/file_system.ts`: under Deno a restart makes it
 * while git checks the files).
 *
 * @example
 * ```ts
 * import { codeVersion } from "./code_version.ts";
 * codeVersion(); // "sha256:9f2c…"
 * ```
 */
export function codeVersion(): string {
  return computed ??= compute();
}

function compute(): string {
  const here = new URL(".", import.meta.url);
  if (here.protocol !== "file:") return `content-feed@${PACKAGE_VERSION}`;
  try {
    const src = fileURLToPath(new URL("..", here));
    const hash = createHash("sha256");
    const walk = (folder: string) => {
      const entries = readFolderSync(folder)
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const path = `${folder}/${entry.name}`;
        if (entry.isDirectory()) walk(path);
        else if (/\.(ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
          const info = statStamp(path);
          hash.update(`${path.slice(src.length)}\0${info.size}\0${Math.floor(info.mtime)}\0`);
        }
      }
    };
    walk(src.replace(/\/$/, ""));
    hash.update(pinnedDependencies(src));
    return `sha256:${hash.digest("hex")}`;
  } catch {
    return `content-feed@${PACKAGE_VERSION}`;
  }
}

/** The name, version and `dependencies` of the package.json above `src` (a clone's, or the installed package's). */
function pinnedDependencies(src: string): string {
  for (let up = 1; up <= 3; up++) {
    try {
      const path = `${src}${"../".repeat(up)}package.json`;
      const manifest = JSON.parse(readFileSync(path, "utf8"));
      if (manifest.name === "content-feed") {
        return JSON.stringify([manifest.name, manifest.version, manifest.dependencies ?? {}]);
      }
    } catch {
      // not there: one folder up
    }
  }
  return "";
}
