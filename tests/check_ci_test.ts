// `check` in a content repository's CI (SPEC 15, issue 28): a plugin folder
// that does not exist fails it and is named (serve warns and serves the
// folder once it is made), and `--format github` prints GitHub Actions
// annotations with files from the repository's root and lines where known.
import { describe, it } from "node:test";
import process from "node:process";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CheckReport } from "../src/cli/check.ts";
import { githubAnnotations } from "../src/cli/github.ts";
import { git, HAS_GIT, LONG, md, removeSite, site, writeSite } from "./helpers.ts";
import { OWN_RUNTIME, ROOT, RUNTIMES, startServer } from "./server_helpers.ts";

/** Runs `cli.ts` with arguments in `cwd`; its exit code, stdout and stderr. */
function cli(args: string[], cwd = ROOT) {
  const [program, ...rest] = RUNTIMES[OWN_RUNTIME](join(ROOT, "cli.ts"));
  const run = spawnSync(program, [...rest, ...args], {
    cwd,
    env: { ...process.env, CONTENT_CONFIG: "" },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

/** A site whose blog plugin's `path` has a typo: `blgo`, where the folder is `blog`. */
const TYPO = {
  "services.yaml": `parameters:
  service.content.config:
    plugins:
      docs: ~
      blog: { path: blgo }
      api: ~
`,
  "docs/a.md": md({ title: "A" }, LONG),
  "blog/2026-01-02-hello.md": md({ title: "Hello" }, LONG),
};

describe("a plugin folder that does not exist (SPEC 15)", () => {
  it("fails check (exit 1), named as the folder, in the table, --json and --format github", async () => {
    const root = await writeSite(TYPO);
    try {
      const config = join(root, "services.yaml");
      const table = cli(["check", "--config", config]);
      assert.equal(table.code, 1, table.err);
      assert.match(table.out, /\n1 warning:\n {2}blgo\/: plugin blog's folder does not exist; /);
      const json = cli(["check", "--json", "--config", config]);
      assert.equal(json.code, 1, json.err);
      const report = JSON.parse(json.out);
      assert.equal(report.ok, false);
      assert.deepEqual(report.findings, []);
      assert.deepEqual(report.warnings.map((w: { file: string }) => w.file), ["blgo/"]);
      const github = cli(["check", "--format", "github", "--config", config], root);
      assert.equal(github.code, 1, github.err);
      assert.match(
        github.out,
        /^::error file=blgo\/,title=[^:]*::plugin blog's folder does not exist/m,
      );
      // Fixed, it passes: the typo was the only problem.
      await writeFile(config, TYPO["services.yaml"].replace("blgo", "blog"));
      const fixed = cli(["check", "--config", config]);
      assert.equal(fixed.code, 0, fixed.out);
      assert.match(fixed.out, /\nno warnings\n?$/);
    } finally {
      await removeSite(root);
    }
  });

  it("a path that is a file, not a folder, fails check too", async () => {
    const root = await writeSite({ ...TYPO, blgo: "not a folder" });
    try {
      const run = cli(["check", "--config", join(root, "services.yaml")]);
      assert.equal(run.code, 1, run.err);
      assert.match(run.out, / {2}blgo\/: plugin blog's folder is not a folder; /);
    } finally {
      await removeSite(root);
    }
  });

  it("the service serves the other plugins, says so apart from content warnings, and serves the folder once made", async () => {
    const s = await site(TYPO, { config: TYPO["services.yaml"] });
    try {
      assert.deepEqual(s.api.unlistedFolders.map((w) => w.file), ["blgo/"]);
      assert.deepEqual(s.log.warnings(), [], "no content warning: the folder is said by serve");
      assert.equal((await s.json("/api/content.json")).body.meta.count, 1);
      await mkdir(join(s.root, "blgo"));
      await writeFile(join(s.root, "blgo", "2026-01-02-hello.md"), md({ title: "Hello" }, LONG));
      await s.api.reload();
      assert.deepEqual(s.api.unlistedFolders, []);
      const feed = (await s.json("/api/content.json")).body;
      assert.deepEqual(feed.data.map((item: { type: string }) => item.type).sort(), [
        "blog",
        "docs",
      ]);
    } finally {
      await s.close();
    }
  });

  it("serve prints it as a warning (after the start-up line), and starts", async () => {
    const root = await writeSite(TYPO);
    try {
      const server = await startServer(
        [...RUNTIMES[OWN_RUNTIME]("cli.ts"), "serve"],
        { CONTENT_CONFIG: join(root, "services.yaml") },
      );
      try {
        assert.equal((await (await fetch(`${server.url}/api/content.json`)).json()).meta.count, 1);
        assert.match(
          server.stderr(),
          /^warning: blgo\/: plugin blog's folder does not exist; nothing is served from it$/m,
        );
      } finally {
        await server.stop();
      }
    } finally {
      await removeSite(root);
    }
  });
});

describe("check --format github (SPEC 15)", () => {
  it("annotates findings and warnings on their files from the repository's root, with lines", {
    skip: HAS_GIT ? false : "no git here",
  }, async () => {
    // A content repository whose content root is content/, checked from the repository's root.
    const repo = await writeSite({
      "content/services.yaml": "parameters:\n  service.content.config:\n" +
        "    plugins: { docs: ~, api: ~ }\n",
      "content/docs/a.md": md({ title: "A" }, LONG),
      "content/docs/links, and: more.md":
        `---\ntitle: Links\n---\n${LONG}\n\nSee [gone](/docs/gone).\n`,
      "content/docs/bad.md": "---\ntitle: [oops\n---\nbody\n",
    });
    try {
      git(repo, ["init", "-q"]);
      git(repo, ["add", "-A"]);
      git(repo, ["commit", "-qm", "content"], "2026-01-02T03:04:05Z");
      const run = cli(["check", "--format", "github", "--config", "content/services.yaml"], repo);
      assert.equal(run.code, 1, run.err);
      const lines = run.out.trim().split("\n");
      assert.deepEqual(lines.slice(0, -1).sort(), [
        // A property's `,` and `:` are escaped, as the Actions runner reads them.
        "::error file=content/docs/bad.md,line=2,title=invalid front matter::" +
        "invalid YAML in front matter: unexpected end of the stream within a flow collection " +
        "(line 2); left out",
        "::error file=content/docs/links%2C and%3A more.md,line=6,title=broken link::" +
        "/docs/gone reaches no item",
      ]);
      assert.equal(lines.at(-1), "content-feed check: content/services.yaml: 2 errors, 0 warnings");
      // The same report as a table says the same and exits the same.
      assert.equal(cli(["check", "--config", "content/services.yaml"], repo).code, 1);
    } finally {
      await removeSite(repo);
    }
  });

  it("a warning that does not fail the check is a ::warning, and an error with --strict", async () => {
    const report: CheckReport = {
      config: "services.yaml",
      root: "/nowhere/content",
      plugins: [],
      findings: [{ kind: "markup in text", file: "docs/a.md", detail: "50% <Tabs>\nx" }],
      warnings: [{
        file: "docs/",
        message: "a shallow clone: dates fall back",
        informational: true,
      }],
      load: {
        files: 0,
        stated: 0,
        read: 0,
        derived: 0,
        verified: 0,
        rebased: 0,
        fromCache: 0,
        parses: 0,
        git: 0,
      },
    };
    const lenient = (await githubAnnotations(report, false)).split("\n");
    // Outside a git work tree and the working directory: the absolute path.
    assert.deepEqual(lenient, [
      "::error file=/nowhere/content/docs/a.md,title=markup in text::50%25 <Tabs>%0Ax",
      "::warning file=/nowhere/content/docs/,title=content-feed check::a shallow clone: dates fall back",
      "content-feed check: services.yaml: 1 error, 1 warning",
    ]);
    const strict = (await githubAnnotations(report, true)).split("\n");
    assert.match(strict[1], /^::error file=/);
    assert.equal(strict[2], "content-feed check: services.yaml: 2 errors, 0 warnings");
  });
});
