// A child process run to its end, its outputs read whole (git's, `source/git.ts`),
// in each runtime's fastest form. Under Deno, `node:child_process` builds
// its streams and sockets in JavaScript: a process's first `execFile` held
// the thread 24-29 ms before git began (43-48 ms to git's end, 21-25 with
// `Deno.Command`), and a restart's check waits on that first git.
// Bun and Node run `node:child_process` natively.
import { execFile } from "node:child_process";

/** How a process ended, and what it printed. */
export interface ProcessRun {
  readonly stdout: string;
  /** The exit code (0: it succeeded), or `-1` when it could not be run, was killed or outran its time. */
  readonly code: number;
  readonly stderr: string;
}

/** How a process runs. */
export interface ProcessOptions {
  /** Its whole environment (nothing inherited). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Milliseconds before it is stopped (SIGTERM) and ends with `-1`; 0 for none. */
  readonly timeout: number;
}

/** The part of Deno's namespace used here (the global exists only under Deno). */
interface DenoCommands {
  Command: new (
    command: string,
    options: {
      args: string[];
      env: Record<string, string>;
      clearEnv: boolean;
      stdin: "null";
      stdout: "piped";
      stderr: "piped";
      signal?: AbortSignal;
    },
  ) => {
    output(): Promise<
      { code: number; signal: string | null; stdout: Uint8Array; stderr: Uint8Array }
    >;
  };
}

/** Deno's own calls, where this runs under Deno. */
const deno = (() => {
  const global = (globalThis as { Deno?: Partial<DenoCommands> }).Deno;
  return typeof global?.Command === "function" ? global as DenoCommands : undefined;
})();

/** The largest output read, per stream (`execFile`'s and `spawnSync`'s `maxBuffer` for git). */
export const MAX_OUTPUT = 1024 * 1024 * 1024;

/**
 * Runs `command` with `args` (no shell) to its end: what it printed on both
 * outputs (UTF-8) and how it ended; never a rejection.
 *
 * @example
 * ```ts
 * import { runProcess } from "./run_process.ts";
 * import process from "node:process";
 * const run = await runProcess("git", ["--version"], { env: process.env, timeout: 30_000 });
 * if (run.code === 0) console.log(run.stdout.trim());
 * ```
 */
export const runProcess: (
  command: string,
  args: readonly string[],
  options: ProcessOptions,
) => Promise<ProcessRun> = deno ? denoRun(deno) : nodeRun;

function nodeRun(
  command: string,
  args: readonly string[],
  options: ProcessOptions,
): Promise<ProcessRun> {
  return new Promise((resolve) =>
    execFile(
      command,
      args,
      { maxBuffer: MAX_OUTPUT, encoding: "utf8", env: options.env, timeout: options.timeout },
      (error, stdout, stderr) => {
        const code = error ? typeof error.code === "number" ? error.code : -1 : 0;
        resolve({ stdout: stdout ?? "", code, stderr: stderr ?? "" });
      },
    )
  );
}

function denoRun(deno: DenoCommands) {
  return async (
    command: string,
    args: readonly string[],
    options: ProcessOptions,
  ): Promise<ProcessRun> => {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.env)) {
      if (value !== undefined) env[name] = value;
    }
    try {
      const run = await new deno.Command(command, {
        args: [...args],
        env,
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        ...(options.timeout > 0 ? { signal: AbortSignal.timeout(options.timeout) } : {}),
      }).output();
      const text = new TextDecoder();
      return {
        stdout: text.decode(run.stdout),
        // Killed (its time ran out, or a signal from elsewhere): as `execFile` says it.
        code: run.signal !== null ? -1 : run.code,
        stderr: text.decode(run.stderr),
      };
    } catch {
      // Not found, not allowed: it could not be run.
      return { stdout: "", code: -1, stderr: "" };
    }
  };
}
