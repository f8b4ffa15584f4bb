// `npm run verify` runs this: the import graph of src/ flows one way
// (docs/architecture.md). Each file belongs to a layer; a file may import
// from its own layer and the ones below, never from one above. Prints each
// edge that goes up and exits 1 if there is any.
// Usage: deno run --allow-read scripts/check_layers.ts
import { readdirSync, readFileSync } from "node:fs";
import process from "node:process";

/** Layers from the bottom up: the first pattern that matches a path names its layer. */
const LAYERS: readonly [string, RegExp][] = [
  // The client (content-feed/client) runs in browsers and imports nothing of the server's.
  ["client", /^src\/client\//],
  ["util", /^src\/(util\/|plugins\.ts$)/],
  // config/load.ts reads the config file and the content root through
  // source/fs.ts: it sits above source, the rest of config/ below it.
  ["config", /^src\/config\/(?!load\.ts$)/],
  // The runtime's own file-system and process calls, where they are faster than node:fs's and
  // node:child_process's (Deno): runtime-specific like the other adapters, but below the source
  // layer that lists files and runs git.
  ["system adapters", /^src\/adapters\/(file_system|run_process)\.ts$/],
  ["source", /^src\/source\//],
  ["config loading", /^src\/config\/load\.ts$/],
  ["text", /^src\/text\//],
  ["generators", /^src\/generators\//],
  ["fields", /^src\/fields\//],
  ["index", /^src\/index\//],
  ["pipeline", /^src\/pipeline\//],
  ["feed", /^src\/feed\//],
  ["sync", /^src\/sync\//],
  ["outputs", /^src\/outputs\//],
  ["routes", /^src\/routes\//],
  ["http", /^src\/http\//],
  [
    "service",
    /^src\/(service|live|log|snapshot)\.ts$|^src\/adapters\//,
  ],
  ["cli", /^src\/cli\//],
];

function layerOf(path: string): number {
  const at = LAYERS.findIndex(([, pattern]) => pattern.test(path));
  if (at === -1) throw new Error(`${path} belongs to no layer: add it to scripts/check_layers.ts`);
  return at;
}

function files(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    return entry.isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

function resolve(from: string, specifier: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

const IMPORT = /^\s*(?:import|export)\b[^"']*?from\s+["'](\.{1,2}\/[^"']+)["']/gm;
const up: string[] = [];
for (const file of files("src")) {
  const layer = layerOf(file);
  for (const [, specifier] of readFileSync(file, "utf8").matchAll(IMPORT)) {
    const target = resolve(file, specifier);
    const to = layerOf(target);
    if (to > layer) up.push(`${file} (${LAYERS[layer][0]}) imports ${target} (${LAYERS[to][0]})`);
  }
}
if (up.length > 0) {
  console.error(`imports that go up a layer:\n${up.join("\n")}`);
  process.exit(1);
}
console.log(`import graph: one way (${LAYERS.map(([name]) => name).join(" < ")})`);
