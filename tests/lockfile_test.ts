// `npm install` on a fresh clone leaves every committed file as it is
// (issue 28): package-lock.json is the one npm writes here. npm adds to it
// an entry for each optional dependency of a locked package (the platform
// packages of deno and bun: @deno/linux-x64-glibc and its siblings) and
// rewrites its root when package.json names other dependencies; a lockfile
// without them is rewritten by the first install, which leaves the clone
// with a change that `deno publish` refuses. `.ci/run` also compares the
// lockfile before and after its install.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ROOT } from "./server_helpers.ts";

interface Locked {
  readonly version?: string;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

const manifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
const lock = JSON.parse(await readFile(join(ROOT, "package-lock.json"), "utf8")) as {
  name: string;
  version: string;
  lockfileVersion: number;
  packages: Record<string, Locked>;
};

/** Where npm finds a dependency of the package at `from`: its own node_modules, then each above. */
function resolved(from: string, name: string): string | undefined {
  for (let at = from;; at = at.slice(0, Math.max(0, at.lastIndexOf("/node_modules/")))) {
    const path = `${at ? `${at}/` : ""}node_modules/${name}`;
    if (Object.hasOwn(lock.packages, path)) return path;
    if (at === "") return undefined;
  }
}

describe("package-lock.json is the lockfile npm install writes", () => {
  it("its root names exactly package.json's name, version and dependencies", () => {
    const root = lock.packages[""];
    assert.equal(lock.name, manifest.name);
    assert.equal(lock.version, manifest.version);
    assert.equal(lock.lockfileVersion, 3);
    for (const kind of ["dependencies", "devDependencies", "optionalDependencies"] as const) {
      assert.deepEqual(root[kind] ?? {}, manifest[kind] ?? {}, kind);
    }
  });

  it("holds an entry for every dependency of every locked package, optional ones included", () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const kind of ["dependencies", "optionalDependencies"] as const) {
        for (const name of Object.keys(entry[kind] ?? {})) {
          if (!resolved(path, name)) missing.push(`${path || "(root)"} → ${name}`);
        }
      }
    }
    assert.deepEqual(missing, []);
    // The five the issue found missing, beside the one for this platform.
    for (
      const platform of [
        "darwin-arm64",
        "darwin-x64",
        "linux-arm64-glibc",
        "win32-arm64",
        "win32-x64",
      ]
    ) {
      assert.ok(lock.packages[`node_modules/@deno/${platform}`], `@deno/${platform}`);
    }
  });
});
