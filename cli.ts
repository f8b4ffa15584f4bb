#!/usr/bin/env node
// `content-feed serve | check | snapshot` (SPEC 15): the command the npm
// package installs. Runs as `node cli.ts`, `deno run -A cli.ts`, `bun cli.ts`
// from a clone, and as `npx content-feed` from the package's build.
import process from "node:process";
import { runCli } from "./src/cli/main.ts";

const code = await runCli(process.argv.slice(2), process.env);
if (code !== "serving") process.exit(code);
