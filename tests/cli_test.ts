// `content-feed serve | check | snapshot` (SPEC 15), run as a process under
// the runtime running this file: exit codes, one-line errors, the check
// report on the sample content and on a tree with every kind of problem.
import { describe, it } from "node:test";
import process from "node:process";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import net from "node:net";
import { join } from "node:path";
import { LONG, md, removeSite, troubledSite, writeSite } from "./helpers.ts";
import { OWN_RUNTIME, ROOT, RUNTIMES, startServer } from "./server_helpers.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** Runs `cli.ts` with arguments; its exit code, stdout and stderr. */
function cli(args: string[], env: Record<string, string> = {}) {
  const [program, ...rest] = RUNTIMES[OWN_RUNTIME]("cli.ts");
  const run = spawnSync(program, [...rest, ...args], {
    cwd: ROOT,
    env: { ...process.env, CONTENT_CONFIG: "", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

describe("content-feed (the command line, SPEC 15)", () => {
  it("--help lists the commands and exits 0; a wrong command line is one line and exit 2", () => {
    const help = cli(["--help"]);
    assert.equal(help.code, 0);
    for (const command of ["serve", "check", "snapshot"]) {
      assert.match(help.out, new RegExp(`content-feed ${command}`));
    }
    assert.equal(cli(["--version"]).out.trim(), "0.1.0");
    for (
      const [args, message] of [
        [[], /a command is needed/],
        [["bogus"], /unknown command "bogus"/],
        [["check", "--port", "1"], /--port does not apply to check/],
        [["check", "--colour"], /--colour/],
        [["serve", "--port", "http"], /--port: expected an integer/],
        [["snapshot"], /snapshot needs the file to write/],
        [["check", "extra"], /unexpected argument "extra"/],
      ] as const
    ) {
      const run = cli([...args]);
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.err}`);
      assert.equal(run.err.trim().split("\n").length, 1, run.err);
      assert.match(run.err, /^content-feed: /);
      assert.match(run.err, message);
      assert.equal(run.out, "");
    }
  });

  it("check on the sample content: a table, no warnings, exit 0; --json says the same", () => {
    const table = cli(["check", "--config", "content/services.yaml"]);
    assert.equal(table.code, 0, table.err);
    assert.match(table.out, /^plugin\s+folder\s+files\s+items\s+in feed\s+not in the feed$/m);
    assert.match(table.out, /^total\s+\d+\s+51\s+48$/m);
    assert.match(table.out, /\nno warnings\n?$/);
    const json = cli(["check", "--json"], { CONTENT_CONFIG: "content/services.yaml" });
    assert.equal(json.code, 0, json.err);
    const report = JSON.parse(json.out);
    assert.equal(report.ok, true);
    assert.deepEqual(report.warnings, []);
    assert.deepEqual(report.plugins.map((p: Json) => p.plugin), [
      "academy",
      "blog",
      "docs",
      "docs:1-0",
      "docs:es",
      "faq",
      "pages",
    ]);
    const sum = (key: string) => report.plugins.reduce((n: number, p: Json) => n + p[key], 0);
    assert.equal(sum("items"), 51);
    assert.equal(sum("feed"), 48); // the smoke test pins the same 48 feed items
    for (const plugin of report.plugins) {
      const out = Object.values(plugin.leftOut).reduce((n: number, c) => n + (c as number), 0);
      assert.ok(plugin.items - plugin.feed <= out, plugin.plugin);
    }
  });

  it("check on a tree with problems counts every reason and exits 1", async () => {
    const root = await writeSite(troubledSite());
    try {
      const run = cli(["check", "--json", "--config", join(root, "services.yaml")]);
      assert.equal(run.code, 1, run.err);
      const report = JSON.parse(run.out);
      assert.equal(report.ok, false);
      const docs = report.plugins.find((p: Json) => p.plugin === "docs");
      assert.deepEqual(docs.leftOut, {
        draft: 2,
        unlisted: 1,
        deprecated: 1,
        "empty body": 1,
        "short body": 1,
        "indexable: false": 1,
        "orphan folder": 2,
        "duplicate uri": 1,
        "invalid front matter": 1,
        "not text": 1,
        "too large": 1,
      });
      assert.deepEqual(docs.skipped, { ".png": 1, ".txt": 1 });
      assert.equal(docs.files, 15);
      assert.equal(docs.feed, 2); // good.md and the twin that won
      const academy = report.plugins.find((p: Json) => p.plugin === "academy");
      assert.deepEqual(academy.leftOut, { "too deep": 1 });
      assert.deepEqual(
        [academy.files, academy.items, academy.feed],
        [4, 3, 3],
      );
      const reasons = report.warnings.map((w: Json) => w.reason).filter(Boolean).sort();
      assert.deepEqual(reasons, [
        "duplicate uri",
        "invalid front matter",
        "not text",
        "orphan folder",
        "too deep",
        "too large",
      ]);
      // The table for people says the same, and lists the warnings.
      const table = cli(["check", "--config", join(root, "services.yaml")]);
      assert.equal(table.code, 1);
      assert.match(table.out, /^docs\s+docs\s+15\s+\d+\s+2\s+draft 2, unlisted 1, deprecated 1,/m);
      assert.match(table.out, /skipped by extension: docs \.png 1, \.txt 1/);
      assert.match(table.out, /\n\d+ warnings:\n/);
      assert.match(table.out, /\n {2}docs\/binary\.md: binary file \(NUL bytes\); left out\n/);
    } finally {
      await removeSite(root);
    }
  });

  it("check with a bad configuration is one line and exit 2", async () => {
    const root = await writeSite({ "services.yaml": "parameters: [" });
    try {
      const run = cli(["check", "--config", join(root, "services.yaml")]);
      assert.equal(run.code, 2);
      assert.equal(run.err.trim().split("\n").length, 1, run.err);
      assert.match(run.err, /^content-feed: .*services\.yaml/);
      const missing = cli(["check", "--config", join(root, "nope.yaml")]);
      assert.equal(missing.code, 2);
      assert.match(missing.err, /configuration file not found/);
    } finally {
      await removeSite(root);
    }
  });

  it("snapshot writes the file a deployment serves, and continues a previous journal", async () => {
    const root = await writeSite({
      "services.yaml": "parameters:\n  service.content.config:\n    plugins: { docs: ~, api: ~ }\n",
      "docs/a.md": md({ title: "A" }, LONG),
    });
    try {
      const config = join(root, "services.yaml");
      const first = cli(["snapshot", join(root, "one.json"), "--config", config]);
      assert.equal(first.code, 0, first.err);
      assert.match(first.out, /^wrote .*one\.json: 1 files from/);
      const one = JSON.parse(await readFile(join(root, "one.json"), "utf8"));
      await writeFile(join(root, "docs/b.md"), md({ title: "B" }, LONG));
      const second = cli([
        "snapshot",
        join(root, "two.json"),
        "--config",
        config,
        "--previous",
        join(root, "one.json"),
      ]);
      assert.equal(second.code, 0, second.err);
      const two = JSON.parse(await readFile(join(root, "two.json"), "utf8"));
      assert.equal(two.journal.id, one.journal.id, "the same journal goes on");
      assert.ok(two.journal.head > one.journal.head);
      const gone = cli(["snapshot", join(root, "x.json"), "--previous", join(root, "nope.json")], {
        CONTENT_CONFIG: config,
      });
      assert.equal(gone.code, 2);
      assert.match(gone.err, /^content-feed: .*nope\.json: snapshot file not found\n$/);
    } finally {
      await removeSite(root);
    }
  });

  it("serve listens where --port and --host say; a port in use is one line and exit 1", async () => {
    const server = await startServer(
      [...RUNTIMES[OWN_RUNTIME]("cli.ts"), "serve", "--port", "0", "--host", "127.0.0.1"],
      { CONTENT_CONFIG: "content/services.yaml", PORT: "1", HOST: "0.0.0.0" },
    );
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const feed = await (await fetch(`${server.url}/api/content.json`)).json();
      assert.equal(feed.meta.count, 48);
    } finally {
      await server.stop();
    }
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const run = cli(["serve", "--port", String(port), "--host", "127.0.0.1"], {
        CONTENT_CONFIG: "content/services.yaml",
      });
      assert.equal(run.code, 1, run.err);
      assert.equal(run.err.trim().split("\n").length, 1, run.err);
      assert.match(run.err, /the port is already in use/);
    } finally {
      blocker.close();
    }
  });
});
