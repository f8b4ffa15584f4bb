// src/source/code_version.ts (SPEC 17): the version the derivation cache
// and a kept feed are keyed by is a SHA-256 of the name, size and whole
// modification time of every module of src/ and of the package's pinned
// dependencies. It stats through the runtime's own calls
// (adapters/file_system.ts): the version must be the one node:fs's stats
// give, on every runtime, or a restart under another runtime would find
// every cached row foreign.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { codeVersion } from "../src/source/code_version.ts";
import { ROOT } from "./server_helpers.ts";

/** The version as its rule says it, through node:fs. */
function versionByRule(): string {
  const src = join(ROOT, "src");
  const hash = createHash("sha256");
  const walk = (folder: string) => {
    const entries = readdirSync(folder, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        const info = statSync(path);
        hash.update(`${path.slice(src.length + 1)}\0${info.size}\0${Math.floor(info.mtimeMs)}\0`);
      }
    }
  };
  walk(src);
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  hash.update(JSON.stringify([manifest.name, manifest.version, manifest.dependencies ?? {}]));
  return `sha256:${hash.digest("hex")}`;
}

describe("codeVersion", () => {
  it("is the SHA-256 of src/'s modules' names, sizes and times, as node:fs stats them", () => {
    assert.equal(codeVersion(), versionByRule());
  });
});
