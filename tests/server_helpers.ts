// Helpers for tests that run the real server (`main.ts`) under each runtime.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { servingUrl } from "../bench/servers.ts";

/** The repository's folder. */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));
const bin = (name: string) => `${ROOT}node_modules/.bin/${name}`;

/** The command that runs a script under each runtime, from the repository's folder. */
export const RUNTIMES: Record<string, (script: string) => string[]> = {
  deno: (script) => [bin("deno"), "run", "-A", script],
  bun: (script) => [bin("bun"), script],
  // Node 24 from npm where a package for this platform exists, else the `node` on the PATH.
  node: (script) => [existsSync(bin("node")) ? bin("node") : "node", script],
};

/**
 * The runtime running this test file. Slow server tests start only its own
 * server: `npm test` runs the suite under each runtime, so each server is
 * still tested, once.
 */
export const OWN_RUNTIME: string = "Deno" in globalThis
  ? "deno"
  : "Bun" in globalThis
  ? "bun"
  : "node";

/** A server process and the URL it listens on. */
export interface Running {
  readonly process: ChildProcess;
  readonly url: string;
  /** What it printed on stderr so far. */
  readonly stderr: () => string;
  /** What it printed on stdout so far. */
  readonly stdout: () => string;
  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `main.ts` (or another command) with `env` on a free port, in `cwd`
 * (the repository's folder by default); resolves once it listens.
 */
export function startServer(
  command: string[],
  env: Record<string, string>,
  cwd: string = ROOT,
): Promise<Running> {
  const child = spawn(command[0], command.slice(1), {
    cwd,
    env: {
      ...globalThis.process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "", err = "";
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command[0]} did not start: ${out}`)), 30000);
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const match = servingUrl(out);
      if (match) {
        clearTimeout(timer);
        resolve({
          process: child,
          url: match,
          stderr: () => err,
          stdout: () => out,
          async stop() {
            child.kill("SIGTERM");
            await exited;
          },
        });
      }
    });
    child.stderr!.on("data", (chunk) => err += chunk);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command[0]} exited ${code}: ${out}${err}`));
    });
  });
}

/** Sends raw bytes to a server and resolves with everything it answered (the connection closes). */
export function rawRequest(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk) => answer += chunk);
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}
