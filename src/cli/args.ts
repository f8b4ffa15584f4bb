import { parseArgs } from "node:util";

/** How `check` prints its report: a table for people, JSON, or GitHub Actions annotations. */
export type CheckFormat = "text" | "json" | "github";

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
    readonly format: CheckFormat;
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
  /** `--help` alone (`topic` unset), `<command> --help` or `help <command>`. */
  | { readonly command: "help"; readonly topic?: CommandName }
  | { readonly command: "version" };

/** A command line that cannot be run: the message says why; the exit code is 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** One option of a command, as the parser reads it and the command's help prints it. */
export interface OptionHelp {
  /** A string option takes a value; a boolean one is a switch. */
  readonly type: "string" | "boolean";
  /** Its one-letter form (`-c`). */
  readonly short?: string;
  /** What its value is called in the help (`F`, `N`): string options only. */
  readonly value?: string;
  /** What it does. */
  readonly help: string;
}

/** One command of `content-feed`: its usage, what it does, and the options it takes. */
export interface CommandHelp {
  /** Its positional arguments as its usage line writes them (`<file>`), or `""`. */
  readonly args: string;
  /** What it does: the lines under its usage line, in the global help and in its own. */
  readonly summary: string;
  /** What only its own help says: what it reads from the environment, what it exits with. */
  readonly details: string;
  /** The options it takes, by name (`--config` included; `--help` is every command's). */
  readonly options: Readonly<Record<string, OptionHelp>>;
}

const CONFIG_OPTION: OptionHelp = {
  type: "string",
  short: "c",
  value: "F",
  help: "the config file (default: CONTENT_CONFIG, else content/services.yaml)",
};

/**
 * Every command, in the order the help lists them (SPEC 15). A new command
 * is one entry here (its options are parsed, refused on other commands and
 * printed by `--help` from it) and one case in {@link parseCliArgs}. An
 * option's name has one type across commands: the parser reads them all
 * before it knows the command.
 */
export const COMMANDS = {
  serve: {
    args: "",
    summary: `serve the content the config names, watching it and keeping the index
current; PORT, HOST, CONTENT_CONFIG and BASE_URL are read too`,
    details: `environment: PORT (default 8000), HOST (default 0.0.0.0), CONTENT_CONFIG (the
config file), BASE_URL (the base URL when the config sets none). SIGINT and
SIGTERM stop it. A plugin folder that does not exist is a warning after the
start-up line; the folder is served once it is made.

exit codes: 1 the port is in use or the start failed, 2 a wrong command line
or configuration`,
    options: {
      config: CONFIG_OPTION,
      port: { type: "string", short: "p", value: "N", help: "the port (default: PORT, else 8000)" },
      host: {
        type: "string",
        value: "H",
        help: "the address to listen on (default: HOST, else 0.0.0.0)",
      },
    },
  },
  check: {
    args: "",
    summary: `load the content as the server would and report, per plugin, files,
items, items in the feed and why the others are not, then what a
crawl of the site would see that the feed does not say (urls two
items share, links that reach no item, markup left in a text); exit 1
when there is any finding, a warning that changes what is served or a
plugin folder that does not exist (--strict: any warning), 0 otherwise`,
    details: `--format github prints one GitHub Actions annotation a line
(::error file=…,line=…::…), paths relative to the repository's root: what
fails the check is an error, the rest a warning.

exit codes: 0 nothing found, 1 findings or warnings, 2 a wrong command line
or configuration`,
    options: {
      config: CONFIG_OPTION,
      format: {
        type: "string",
        value: "F",
        help: "text (the default: a table), json, or github (Actions annotations)",
      },
      json: { type: "boolean", help: "the report as JSON (--format json)" },
      strict: { type: "boolean", help: "fail on any warning, a shallow clone's included" },
    },
  },
  snapshot: {
    args: "<file>",
    summary: `write the parsed content and its change journal to one JSON file, for
deployments without a file system; --previous continues its journal`,
    details: `exit codes: 0 written, 1 failed, 2 a wrong command line or configuration`,
    options: {
      config: CONFIG_OPTION,
      previous: {
        type: "string",
        value: "<old snapshot>",
        help: "the snapshot this one follows: its journal goes on",
      },
    },
  },
  build: {
    args: "<dir>",
    summary: `write what the routes answer as static files into <dir> (replaced whole
at the end: a failed build leaves the old one), links on the config's
url (--base-url overrides, BASE_URL if neither)`,
    details: `<dir> must be empty, missing or a previous build (--force replaces anything
else); a relative <dir> stays inside the working directory, a folder
elsewhere is named by an absolute path. SOURCE_DATE_EPOCH, when set, is the
feed's generated time: the same content gives the same bytes.

exit codes: 0 built, 1 failed (the old build kept), 2 a wrong command line,
configuration or folder`,
    options: {
      config: CONFIG_OPTION,
      "base-url": {
        type: "string",
        value: "URL",
        help: "the base URL of every link (default: the config's url, else BASE_URL)",
      },
      force: { type: "boolean", help: "replace a folder that is not a previous build" },
    },
  },
} as const satisfies Readonly<Record<string, CommandHelp>>;

/** A command's name: `serve`, `check`, `snapshot`, `build`. */
export type CommandName = keyof typeof COMMANDS;

const NAMES = Object.keys(COMMANDS) as CommandName[];

/** Every option of every command, with `--help` and `--version`, as `parseArgs` takes them. */
const PARSER_OPTIONS: Record<string, { type: "string" | "boolean"; short?: string }> = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
};
for (const name of NAMES) {
  for (const [option, { type, short }] of Object.entries(COMMANDS[name].options)) {
    PARSER_OPTIONS[option] = short === undefined ? { type } : { type, short };
  }
}

const indent = (text: string, by: string) => text.split("\n").map((line) => by + line).join("\n");

/** A command's usage line: `content-feed snapshot <file> [--config F] [--previous <old snapshot>]`. */
function usageLine(name: CommandName): string {
  const { args, options } = COMMANDS[name] as CommandHelp;
  const flags = Object.entries(options).map(([option, { value }]) =>
    `[--${option}${value ? ` ${value}` : ""}]`
  );
  return ["content-feed", name, args, ...flags].filter(Boolean).join(" ");
}

/** The help text of `content-feed --help` and `content-feed help`: every command. */
export const USAGE = `content-feed: one JSON feed of a site's Markdown content

usage:
${
  NAMES.map((name) => `  ${usageLine(name)}\n${indent(COMMANDS[name].summary, "      ")}`).join(
    "\n",
  )
}
  content-feed help <command>   (or content-feed <command> --help)
      that command's options

exit codes: 0 done (check: nothing found), 1 failed (check: findings or warnings),
2 a wrong command line or configuration
`;

/**
 * The help text of one command (`content-feed check --help`, `content-feed
 * help check`): its usage, what it does, each option, what it reads from the
 * environment and its exit codes.
 *
 * @example
 * ```ts
 * import { commandHelp } from "./args.ts";
 * console.log(commandHelp("check")); // "usage: content-feed check [--config F] …"
 * ```
 */
export function commandHelp(name: CommandName): string {
  const { summary, details, options } = COMMANDS[name] as CommandHelp;
  const rows = [
    ...Object.entries(options).map(([option, { short, value, help }]) => [
      `${short ? `-${short}, ` : "    "}--${option}${value ? ` ${value}` : ""}`,
      help,
    ]),
    ["-h, --help", "print this help"],
  ];
  const width = Math.max(...rows.map(([flags]) => flags.length));
  return `usage: ${usageLine(name)}

${summary}

options:
${rows.map(([flags, help]) => `  ${flags.padEnd(width)}  ${help}`).join("\n")}

${details}
`;
}

/**
 * Reads `content-feed`'s arguments (without the runtime and script):
 * the command, then its options ({@link COMMANDS}); `--help` and
 * `--version` anywhere; `help <command>` and `<command> --help` ask for
 * that command's help.
 *
 * @example
 * ```ts
 * import { parseCliArgs } from "./args.ts";
 * parseCliArgs(["check", "--json"]); // { command: "check", format: "json", strict: false, config: undefined }
 * parseCliArgs(["serve", "--port", "9000"]); // { command: "serve", port: 9000, … }
 * parseCliArgs(["help", "serve"]); // { command: "help", topic: "serve" }
 * ```
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: PARSER_OPTIONS,
    });
  } catch (error) {
    // Node's messages name the option; drop its advice about "--" for positionals.
    throw new UsageError((error as Error).message.split(". To specify")[0]);
  }
  const { values, positionals } = parsed as {
    values: Record<string, string | boolean | undefined>;
    positionals: string[];
  };
  const [command, ...rest] = positionals;
  const known = (name: string | undefined): name is CommandName =>
    name !== undefined && Object.hasOwn(COMMANDS, name);
  if (command === "help" || values.help) {
    const topic = command === "help" ? rest[0] : command;
    if (topic === undefined || topic === "help") return { command: "help" };
    if (!known(topic)) throw unknownCommand(topic);
    return { command: "help", topic };
  }
  if (values.version) return { command: "version" };
  if (command === undefined) {
    throw new UsageError(`a command is needed: ${NAMES.join(", ")}`);
  }
  if (!known(command)) throw unknownCommand(command);
  // An option of another command is named, not silently ignored.
  for (const [option, value] of Object.entries(values)) {
    if (value !== undefined && !Object.hasOwn(COMMANDS[command].options, option)) {
      throw new UsageError(`--${option} does not apply to ${command}`);
    }
  }
  const text = (option: string) => values[option] as string | undefined;
  const flag = (option: string) => (values[option] as boolean | undefined) ?? false;
  const extra = (count: number) => {
    if (rest.length > count) {
      throw new UsageError(`unexpected argument ${JSON.stringify(rest[count])} after ${command}`);
    }
  };
  switch (command) {
    case "serve": {
      extra(0);
      const given = text("port");
      let port: number | undefined;
      if (given !== undefined) {
        port = Number(given);
        if (!/^\d+$/.test(given) || port > 65535) {
          throw new UsageError(
            `--port: expected an integer from 0 to 65535, got ${JSON.stringify(given)}`,
          );
        }
      }
      return { command, config: text("config"), port, host: text("host") };
    }
    case "check": {
      extra(0);
      const format = text("format") ?? (flag("json") ? "json" : "text");
      if (format !== "text" && format !== "json" && format !== "github") {
        throw new UsageError(
          `--format: expected text, json or github, got ${JSON.stringify(format)}`,
        );
      }
      if (flag("json") && format !== "json") {
        throw new UsageError(`--json and --format ${format} ask for two formats`);
      }
      return { command, config: text("config"), format, strict: flag("strict") };
    }
    case "snapshot":
      extra(1);
      if (rest[0] === undefined) throw new UsageError("snapshot needs the file to write");
      return { command, config: text("config"), out: rest[0], previous: text("previous") };
    case "build":
      extra(1);
      if (rest[0] === undefined) throw new UsageError("build needs the folder to write");
      return {
        command,
        config: text("config"),
        out: rest[0],
        baseUrl: text("base-url"),
        force: flag("force"),
      };
  }
}

function unknownCommand(name: string): UsageError {
  return new UsageError(
    `unknown command ${JSON.stringify(name)}; commands: ${NAMES.join(", ")}`,
  );
}
