// The one runtime shim: environment → createContentApi → srvx. Runs unchanged
// as `deno run -A main.ts`, `bun main.ts` and `node main.ts` (Node ≥ 22.18).
import process from "node:process";
import { serve } from "srvx";
import { ConfigError } from "./mod.ts";
import { currentRuntime, tuningFor } from "./src/adapters/mod.ts";
import { createService, type Service } from "./src/service.ts";

/** Every start-up failure is one line naming the cause, and a non-zero exit (SPEC 11). */
function fail(message: string): never {
  console.error(`content-feed: ${message}`);
  process.exit(1);
}

/** An error's message on one line, without colour codes or a stack. */
function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // deno-lint-ignore no-control-regex -- colour codes are what it removes
  return text.replace(/\x1b\[[0-9;]*m/g, "").split("\n")[0].trim();
}

const env = process.env;
const port = Number(env.PORT || 8000);
const hostname = env.HOST || "0.0.0.0";

// Warnings found while loading wait until the start-up line is out (SPEC 11).
const held: string[] = [];
let started = false;
const logger = {
  info: (message: string) => console.log(message),
  warn: (message: string) => started ? console.error(message) : held.push(message),
  error: (message: string) => console.error(message),
};

let service: Service;
try {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(
      `PORT: expected an integer from 0 to 65535, got ${JSON.stringify(env.PORT)}`,
    );
  }
  service = await createService({
    logger,
    config: env.CONTENT_CONFIG || undefined,
    baseUrl: env.BASE_URL || undefined,
    watch: true,
  }, tuningFor(currentRuntime()));
} catch (error) {
  fail(error instanceof ConfigError ? error.message : `start-up failed: ${oneLine(error)}`);
}

let server: ReturnType<typeof serve>;
try {
  server = serve({
    fetch: service.handle, // a ready answer without a promise
    port,
    hostname,
    silent: true,
    gracefulShutdown: false, // our own handlers below close the server and exit 0
    bun: { development: false },
  });
  await server.ready();
} catch (error) {
  service.api.close();
  const code = (error as { code?: string }).code ?? (error as Error)?.name;
  const cause = code === "EADDRINUSE" || code === "AddrInUse" || /in use/i.test(oneLine(error))
    ? "the port is already in use"
    : oneLine(error);
  fail(`cannot listen on ${hostname}:${port}: ${cause}`);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    service.api.close();
    await server.close();
    process.exit(0);
  });
}
const counts =
  service.api.index.counts.map((c) => `${c.plugin} ${c.items} (${c.feed} in feed)`).join(", ") ||
  "no content plugins enabled";
console.log(`content-feed listening on ${server.url} · ${counts}`);
started = true;
for (const message of held) console.error(message);
