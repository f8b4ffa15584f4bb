#!/usr/bin/env node
// `content-feed serve | check | snapshot` (SPEC 15): the command the npm
// package installs. Runs as `deno run -A cli.ts` or `bun cli.ts` from a clone
// (`npm run cli -- …` does the first), and as `npx content-feed` from the
// package's build.
import process from "node:process";

// An older Node lacks modules the service imports (node:sqlite): say so in
// one line before loading them, not with a stack trace from the loader.
const runtime = globalThis as { Deno?: unknown; Bun?: unknown };
const [major, minor] = process.versions.node.split(".").map(Number);
if (!runtime.Deno && !runtime.Bun && (major < 22 || (major === 22 && minor < 18))) {
  console.error(
    `content-feed: needs Node 22.18 or later, Deno or Bun; this is Node ${process.versions.node}`,
  );
  process.exit(1);
}
const { runCli } = await import("./src/cli/main.ts");

const code = await runCli(process.argv.slice(2), process.env);
if (code !== "serving") process.exit(code);
