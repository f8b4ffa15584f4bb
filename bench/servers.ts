// What the benchmark and the load test share: their arguments, the runtime
// commands, and starting and stopping a server that prints "listening on <url> ".
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** The project folder. */
export const root: string = fileURLToPath(new URL("..", import.meta.url));

/** `--name value` pairs of this process's arguments. */
export function parseArgs(): Map<string, string> {
  const args = new Map<string, string>();
  for (let i = 2; i < process.argv.length; i += 2) {
    args.set(process.argv[i].replace(/^--/, ""), process.argv[i + 1]);
  }
  return args;
}

const bin = (name: string) => join(root, "node_modules/.bin", name);
const RUNTIMES: Record<string, string[]> = {
  // As `npm start` runs it: a small young generation suits a heap of long-lived data (docs/performance.md).
  deno: [bin("deno"), "run", "-A", "--v8-flags=--max-semi-space-size=4,--heap-growing-percent=30"],
  bun: [bin("bun")],
  // Node 24 from npm where a package for this platform exists, else the `node` on the PATH.
  node: [existsSync(bin("node")) ? bin("node") : "node"],
};

/** The command that runs `script` (relative to the project) under a runtime. */
export function runtimeCommand(runtime: string, script: string, ...rest: string[]): string[] {
  const prefix = RUNTIMES[runtime];
  if (!prefix) throw new Error(`unknown runtime ${runtime}; use deno, bun or node`);
  return [...prefix, script, ...rest];
}

/** A running server. */
export interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  /** What it printed on stderr so far. */
  stderr(): string;
}

/**
 * Starts a server on a free loopback port and resolves when it serves every
 * route (its start-up line with the URL; after a restart that first served
 * the full feed it kept, the line that says the rest is served too), or,
 * with `firstFeed`, as soon as it serves the full feed; `cwd` is the project
 * it runs in (another checkout, to compare with).
 */
export function startServer(
  command: string[],
  env: Record<string, string> = {},
  cwd: string = root,
  firstFeed = false,
): Promise<Started> {
  const child = spawn(command[0], command.slice(1), {
    cwd,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let errors = "";
  child.stderr!.on("data", (chunk) => (errors += chunk));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const url = servingUrl(out, firstFeed);
      if (url) resolve({ child, url, stderr: () => errors });
    });
    child.on("exit", (code) => reject(new Error(`${command.join(" ")} exited ${code}: ${errors}`)));
  });
}

/** Stops a server with SIGTERM and waits for it to exit. */
export function stopServer(server: Started): Promise<void> {
  return new Promise((resolve) => {
    server.child.removeAllListeners("exit");
    server.child.on("exit", () => resolve());
    server.child.kill("SIGTERM");
  });
}

/** Runs a command to its end; resolves with its stdout and how long it took (ms), rejects on failure. */
export function runProcess(command: string[]): Promise<{ ms: number; stdout: string }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout!.on("data", (chunk) => (stdout += chunk));
    child.on(
      "exit",
      (code) =>
        code === 0
          ? resolve({ ms: performance.now() - t0, stdout })
          : reject(new Error(`${command.join(" ")} exited ${code}`)),
    );
  });
}

/** CPU time a process (all its threads) has used, in clock ticks (Linux /proc). */
export async function cpuTicks(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

/** Peak resident memory of a process in bytes (Linux /proc). */
export async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** A response's headers as the server set them (without those the HTTP layer adds). */
export function headersOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of response.headers) {
    if (
      !["date", "content-length", "connection", "keep-alive", "transfer-encoding"].includes(name)
    ) {
      out[name] = value;
    }
  }
  return out;
}

/**
 * The URL a server's output says it listens on, once it serves every route
 * (or, with `firstFeed`, the full feed): `undefined` until then. A restart
 * that serves the full feed it kept says so on its start-up line ("kept from
 * the last run"), and later that it serves every route.
 */
export function servingUrl(out: string, firstFeed = false): string | undefined {
  const match = /listening on (http:\/\/[^/ ]+)([^\n]*)\n/.exec(out);
  if (!match) return undefined;
  const early = match[2].includes("kept from the last run");
  return !early || firstFeed || out.includes("serving every route") ? match[1] : undefined;
}
