// SPEC 17, and "nothing at start-up that a request can make lazily": a
// restart that serves the full feed its last server kept answers before the
// pipeline, the index, the routes and the watcher are loaded. They are
// imported (`import()`) once the kept feed is answered: no module that
// `main.ts` loads before its first answer imports them as values.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./server_helpers.ts";

/** Static imports that load a module (not `import type`, not `import()`). */
const VALUE_IMPORT = /^\s*(import|export)\s+(?!type\s)[^"';]*?\bfrom\s+["'](\.{1,2}\/[^"']+)["']/gm;

/** The repository's modules `entry` loads before any of its code runs. */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = readFileSync(join(ROOT, path), "utf8");
    for (const [, , specifier] of text.matchAll(VALUE_IMPORT)) {
      const parts = path.split("/").slice(0, -1);
      for (const part of specifier.split("/")) {
        if (part === "..") parts.pop();
        else if (part !== ".") parts.push(part);
      }
      visit(parts.join("/"));
    }
  };
  visit(entry);
  return seen;
}

describe("the modules a start loads before its first answer", () => {
  const loaded = staticClosure("main.ts");

  it("hold the early answer's path", () => {
    for (const path of ["src/service.ts", "src/http/early_feed.ts", "src/source/git_vouch.ts"]) {
      assert.ok(loaded.has(path), path);
    }
  });

  it("leave out the pipeline, the index, the routes and the watcher", () => {
    const late = [
      "src/pipeline/pipeline.ts",
      "src/pipeline/content_files.ts",
      "src/source/loader.ts",
      "src/index/build.ts",
      "src/http/handler.ts",
      "src/routes/table.ts",
      "src/live.ts",
    ];
    assert.deepEqual(late.filter((path) => loaded.has(path)), []);
    // What is left is about 100 modules, where all of them were 160.
    assert.ok(loaded.size < 120, `${loaded.size} modules`);
  });
});
