import process from "node:process";
import { ConfigError } from "../config/types.ts";
import { commandHelp, parseCliArgs, USAGE, UsageError } from "./args.ts";
import { warningLines } from "../log.ts";
import { oneLine, serveContent, serveOptionsFromEnv, StartupError } from "./serve.ts";

/** The version `--version` prints (package.json and deno.json say the same). */
export const VERSION = "0.1.0";

/** Where the config is when neither `--config` nor `CONTENT_CONFIG` names one. */
const DEFAULT_CONFIG = "content/services.yaml";

/**
 * Runs `content-feed <command>` (SPEC 15) and resolves to its exit code: 0
 * done (`check`: no warnings), 1 failed (`check`: warnings), 2 a wrong
 * command line or configuration (`build`: a folder it may not replace, too).
 * Errors are one line on stderr, never a stack. `serve` resolves to
 * `"serving"` once it listens: the process lives on until a signal stops the
 * server.
 *
 * @param argv the arguments after the script (`process.argv.slice(2)`)
 * @param env the environment (`PORT`, `HOST`, `CONTENT_CONFIG`, `BASE_URL`;
 *   `SOURCE_DATE_EPOCH`, the build time of `build` in Unix seconds)
 *
 * @example
 * ```ts
 * import { runCli } from "./main.ts";
 * const code = await runCli(["check", "--json"], process.env);
 * if (code !== "serving") process.exit(code);
 * ```
 */
export async function runCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): Promise<number | "serving"> {
  const fail = (message: string, code: number) => {
    console.error(`content-feed: ${message}`);
    return code;
  };
  let command;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return fail(`${error.message} (content-feed --help lists the commands)`, 2);
  }
  const config = ("config" in command ? command.config : undefined) || env.CONTENT_CONFIG ||
    DEFAULT_CONFIG;
  try {
    switch (command.command) {
      case "help":
        console.log(command.topic === undefined ? USAGE : commandHelp(command.topic));
        return 0;
      case "version":
        console.log(VERSION);
        return 0;
      case "serve": {
        const fromEnv = serveOptionsFromEnv(env);
        await serveContent({
          ...fromEnv,
          config,
          port: command.port ?? fromEnv.port,
          hostname: command.host ?? fromEnv.hostname,
        });
        return "serving";
      }
      case "check": {
        // Loaded for the command that needs them: `serve` loads neither (a start's modules, SPEC 17).
        const { checkContent, checkFails, checkReportJson, formatCheckReport } = await import(
          "./check.ts"
        );
        const report = await checkContent(config);
        if (command.format === "github") {
          const { githubAnnotations } = await import("./github.ts");
          console.log(await githubAnnotations(report, command.strict));
        } else {
          console.log(
            command.format === "json" ? checkReportJson(report) : formatCheckReport(report),
          );
        }
        return checkFails(report, command.strict) ? 1 : 0;
      }
      case "snapshot": {
        const { writeSnapshotFile } = await import("../snapshot.ts");
        const progress = progressLine();
        const { files, warnings, snapshot } = await writeSnapshotFile(config, command.out, {
          previous: command.previous,
          progress: progress.show,
        });
        progress.done();
        for (const w of warnings) console.error(`warning: ${w.file}: ${w.message}`);
        console.log(
          `wrote ${command.out}: ${files} files from ${config}; journal ${snapshot.journal.id} at ${snapshot.journal.head}`,
        );
        return 0;
      }
      case "build": {
        const { buildStaticSite } = await import("./build.ts");
        const now = buildTime(env.SOURCE_DATE_EPOCH);
        if (typeof now === "string") return fail(now, 2);
        const progress = progressLine();
        const built = await buildStaticSite({
          config,
          out: command.out,
          baseUrl: command.baseUrl,
          fallbackBaseUrl: env.BASE_URL || undefined,
          force: command.force,
          now,
          progress: progress.show,
        }).finally(progress.done);
        for (const line of warningLines(built.warnings)) console.error(line);
        console.log(
          `built ${command.out}: ${built.files} files (${built.items} items, ${built.feed} in the feed, ` +
            `${formatBytes(built.bytes)}), links on ${built.base}/, cursor ${built.cursor}`,
        );
        return 0;
      }
    }
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message, 2);
    if ((error as Error)?.name === "OutFolderRefused") return fail((error as Error).message, 2);
    if (error instanceof StartupError) return fail(error.message, error.exitCode);
    return fail(oneLine(error), 1);
  }
}

/**
 * The build time `SOURCE_DATE_EPOCH` names (reproducible-builds.org: Unix
 * seconds), in epoch ms; `undefined` when it is unset (now), or the one
 * line that says why it is wrong.
 */
function buildTime(value: string | undefined): number | undefined | string {
  if (value === undefined || value === "") return undefined;
  if (!/^\d{1,12}$/.test(value)) {
    return `SOURCE_DATE_EPOCH: expected Unix seconds (an integer), got ${JSON.stringify(value)}`;
  }
  return Number(value) * 1000;
}

/** A size for people: `412 KB`, `3.1 MB`. */
function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A progress line on a terminal (`read 2048 of 100000 files`, `wrote …`),
 * rewritten in place at most ten times a second; nothing when stderr is not
 * a terminal.
 */
function progressLine(): {
  show: (done: number, total: number, phase?: "read" | "wrote") => void;
  done: () => void;
} {
  const tty = process.stderr.isTTY === true;
  let last = 0;
  let shown = false;
  return {
    show(done, total, phase = "read") {
      if (!tty || total < 1000) return;
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      shown = true;
      process.stderr.write(`\r\x1b[K${phase} ${done} of ${total} files`);
    },
    done() {
      if (shown) process.stderr.write("\r\x1b[K");
    },
  };
}
