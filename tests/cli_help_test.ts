// Each command's own help (SPEC 15, issue 28): `content-feed <command> --help`
// and `content-feed help <command>` print that command's usage and options,
// made from the one table of commands in src/cli/args.ts, which the parser
// reads too.
import { describe, it } from "node:test";
import process from "node:process";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  type CommandHelp,
  commandHelp,
  type CommandName,
  COMMANDS,
  parseCliArgs,
  USAGE,
  UsageError,
} from "../src/cli/args.ts";
import { OWN_RUNTIME, ROOT, RUNTIMES } from "./server_helpers.ts";

/** Runs `cli.ts` with arguments; its exit code, stdout and stderr. */
function cli(args: string[]) {
  const [program, ...rest] = RUNTIMES[OWN_RUNTIME]("cli.ts");
  const run = spawnSync(program, [...rest, ...args], {
    cwd: ROOT,
    env: { ...process.env, CONTENT_CONFIG: "" },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

const NAMES = Object.keys(COMMANDS) as CommandName[];

describe("each command's help (SPEC 15)", () => {
  it("<command> --help, -h and help <command> print that command's help, not the global one", () => {
    // One process per spelling of one command; the text itself is checked in-process below.
    const asked = [["check", "--help"], ["help", "check"], ["check", "-h"], ["--help", "check"]];
    const printed = asked.map((args) => cli(args));
    for (const [i, run] of printed.entries()) {
      assert.equal(run.code, 0, `${asked[i].join(" ")}: ${run.err}`);
      assert.equal(run.err, "");
      assert.equal(run.out, `${commandHelp("check")}\n`, asked[i].join(" "));
      assert.notEqual(run.out, `${USAGE}\n`);
    }
    for (const name of ["serve", "snapshot"] as const) {
      const run = cli([name, "--help"]);
      assert.equal(run.code, 0, run.err);
      assert.equal(run.out, `${commandHelp(name)}\n`);
    }
    // Without a command, the global help, as before.
    assert.equal(cli(["help"]).out, `${USAGE}\n`);
    const unknown = cli(["help", "bogus"]);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.out, "");
    assert.match(unknown.err, /^content-feed: unknown command "bogus"; commands: serve, check/);
  });

  it("a command's help names its usage and every option it takes, and no other command's", () => {
    for (const name of NAMES) {
      const help = commandHelp(name);
      const { options } = COMMANDS[name] as CommandHelp;
      assert.match(help, new RegExp(`^usage: content-feed ${name}\\b`), name);
      for (const [option, { help: what }] of Object.entries(options)) {
        assert.ok(help.includes(`--${option}`), `${name} --help names --${option}`);
        assert.ok(help.includes(what), `${name} --help says what --${option} does`);
      }
      for (const other of NAMES.filter((n) => n !== name)) {
        for (const option of Object.keys(COMMANDS[other].options)) {
          if (Object.hasOwn(options, option)) continue;
          assert.ok(
            !help.includes(`--${option}`),
            `${name} --help does not name ${other}'s --${option}`,
          );
        }
      }
      assert.match(help, /-h, --help/);
      // The global help lists the command with the same usage line.
      assert.ok(USAGE.includes(help.split("\n")[0].slice("usage: ".length)), name);
    }
    assert.match(commandHelp("serve"), /PORT/);
    assert.match(commandHelp("check"), /--format F/);
    assert.match(commandHelp("check"), /::error file=/);
    assert.match(commandHelp("snapshot"), /^usage: content-feed snapshot <file> /);
  });

  it("parses what the table says each command takes, and refuses what it does not", () => {
    assert.deepEqual(parseCliArgs(["help", "serve"]), { command: "help", topic: "serve" });
    assert.deepEqual(parseCliArgs(["snapshot", "--help"]), { command: "help", topic: "snapshot" });
    assert.deepEqual(parseCliArgs(["--help"]), { command: "help" });
    assert.deepEqual(parseCliArgs(["check", "--json"]), {
      command: "check",
      config: undefined,
      format: "json",
      strict: false,
    });
    assert.equal(
      (parseCliArgs(["check", "--format", "github"]) as { format: string }).format,
      "github",
    );
    assert.throws(() => parseCliArgs(["check", "--format", "xml"]), UsageError);
    assert.throws(() => parseCliArgs(["check", "--json", "--format", "github"]), /two formats/);
    // Every option of a command is refused on each command that does not take it.
    for (const name of NAMES) {
      for (const [option, { type }] of Object.entries(COMMANDS[name].options)) {
        for (const other of NAMES.filter((n) => !Object.hasOwn(COMMANDS[n].options, option))) {
          const args = [other, ...(other === "snapshot" ? ["out.json"] : [])];
          args.push(`--${option}`, ...(type === "string" ? ["x"] : []));
          assert.throws(
            () => parseCliArgs(args),
            new RegExp(`^UsageError: --${option} does not apply to ${other}$`),
            args.join(" "),
          );
        }
      }
    }
  });

  it("an option has one type across the commands that take it (one parser reads them all)", () => {
    const types = new Map<string, string>();
    for (const name of NAMES) {
      for (const [option, { type, short }] of Object.entries(COMMANDS[name].options)) {
        const spelled = `${type} ${short ?? ""}`;
        assert.equal(types.get(option) ?? spelled, spelled, `--${option} in ${name}`);
        types.set(option, spelled);
      }
    }
  });
});
