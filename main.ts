// The zero-install entry: `content-feed serve` with what the environment
// says (PORT, HOST, CONTENT_CONFIG, BASE_URL). Runs unchanged as
// `deno run -A main.ts`, `bun main.ts` and `node main.ts` (Node ≥ 22.18).
import process from "node:process";
import { runCli } from "./src/cli/main.ts";

const code = await runCli(["serve"], process.env);
if (code !== "serving") process.exit(code);
