import { parseArgs } from "node:util";

/** What the command line asks for (SPEC 15). */
export type CliCommand =
  | {
    readonly command: "serve";
    readonly config?: string;
    readonly port?: number;
    readonly host?: string;
  }
  | {
    readonly command: "check";
    readonly config?: string;
    readonly json: boolean;
    readonly strict: boolean;
  }
  | {
    readonly command: "snapshot";
    readonly config?: string;
    readonly out: string;
    readonly previous?: string;
  }
  | {
    readonly command: "build";
    readonly config?: string;
    readonly out: string;
    readonly baseUrl?: string;
    readonly force: boolean;
  }
  | { readonly command: "help" }
  | { readonly command: "version" };

/** A command line that cannot be run: the message says why; the exit code is 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The help text of `content-feed --help`. */
export const USAGE = `content-feed: one JSON feed of a site's Markdown content

usage:
  content-feed serve [--config F] [--port N] [--host H]
      serve the content the config names (default content/services.yaml),
      watching it; PORT, HOST, CONTENT_CONFIG and BASE_URL are read too
  content-feed check [--config F] [--json] [--strict]
      load the content as the server would and report, per plugin, files,
      items, items in the feed and why the others are not, then what a
      crawl of the site would see that the feed does not say (urls two
      items share, links that reach no item, markup left in a text); exit 1
      when there is any finding or a warning that changes what is served
      (--strict: any warning), 0 otherwise
  content-feed snapshot <file> [--config F] [--previous <old snapshot>]
      write the parsed content and its change journal to one JSON file, for
      deployments without a file system; --previous continues its journal
  content-feed build <dir> [--config F] [--base-url URL] [--force]
      write what the routes answer as static files into <dir> (replaced whole
      at the end: a failed build leaves the old one), links on the config's
      url (--base-url overrides, BASE_URL if neither); refuses a folder that
      exists and is not a previous build unless --force; a folder outside the
      working directory is named by an absolute path

exit codes: 0 done (check: nothing found), 1 failed (check: findings or warnings),
2 a wrong command line or configuration
`;

/**
 * Reads `content-feed`'s arguments (without the runtime and script):
 * the command, then its options (`--config`, `--port`, `--host`, `--json`,
 * `--previous`, `--base-url`, `--force`), `--help` and `--version` anywhere.
 *
 * @example
 * ```ts
 * import { parseCliArgs } from "./args.ts";
 * parseCliArgs(["check", "--json"]); // { command: "check", json: true, config: undefined }
 * parseCliArgs(["serve", "--port", "9000"]); // { command: "serve", port: 9000, … }
 * ```
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        config: { type: "string", short: "c" },
        port: { type: "string", short: "p" },
        host: { type: "string" },
        json: { type: "boolean" },
        strict: { type: "boolean" },
        previous: { type: "string" },
        "base-url": { type: "string" },
        force: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
  } catch (error) {
    // Node's messages name the option; drop its advice about "--" for positionals.
    throw new UsageError((error as Error).message.split(". To specify")[0]);
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: "help" };
  if (values.version) return { command: "version" };
  const [command, ...rest] = positionals;
  const only = (allowed: string[]) => {
    const names = ["port", "host", "json", "strict", "previous", "base-url", "force"] as const;
    for (const name of names) {
      if (values[name] !== undefined && !allowed.includes(name)) {
        throw new UsageError(`--${name} does not apply to ${command}`);
      }
    }
  };
  const extra = (count: number) => {
    if (rest.length > count) {
      throw new UsageError(`unexpected argument ${JSON.stringify(rest[count])} after ${command}`);
    }
  };
  switch (command) {
    case "serve": {
      only(["port", "host"]);
      extra(0);
      let port: number | undefined;
      if (values.port !== undefined) {
        port = Number(values.port);
        if (!/^\d+$/.test(values.port) || port > 65535) {
          throw new UsageError(
            `--port: expected an integer from 0 to 65535, got ${JSON.stringify(values.port)}`,
          );
        }
      }
      return { command, config: values.config, port, host: values.host };
    }
    case "check":
      only(["json", "strict"]);
      extra(0);
      return {
        command,
        config: values.config,
        json: values.json ?? false,
        strict: values.strict ?? false,
      };
    case "snapshot":
      only(["previous"]);
      extra(1);
      if (rest[0] === undefined) throw new UsageError("snapshot needs the file to write");
      return { command, config: values.config, out: rest[0], previous: values.previous };
    case "build":
      only(["base-url", "force"]);
      extra(1);
      if (rest[0] === undefined) throw new UsageError("build needs the folder to write");
      return {
        command,
        config: values.config,
        out: rest[0],
        baseUrl: values["base-url"],
        force: values.force ?? false,
      };
    case undefined:
      throw new UsageError("a command is needed: serve, check, snapshot or build");
    default:
      throw new UsageError(
        `unknown command ${JSON.stringify(command)}; commands: serve, check, snapshot, build`,
      );
  }
}
