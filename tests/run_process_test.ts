// src/adapters/run_process.ts: a child process run to its end, as git's
// calls need it (source/git.ts), the same under each runtime's form
// (`Deno.Command` under Deno, `node:child_process` under Bun and Node): its
// outputs whole, its exit code, its environment given whole, -1 where it
// could not run or outran its time, never a rejection.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { runProcess } from "../src/adapters/run_process.ts";

const env = { PATH: process.env.PATH };

describe("runProcess", () => {
  it("gives both outputs whole and the exit code", async () => {
    const run = await runProcess(
      "sh",
      ["-c", 'printf "%s\\n" "$1"; printf "é\\n" >&2; exit 3', "sh", "a b"],
      { env, timeout: 0 },
    );
    assert.deepEqual(run, { stdout: "a b\n", stderr: "é\n", code: 3 });
    assert.equal((await runProcess("true", [], { env, timeout: 0 })).code, 0);
  });

  it("reads an output of megabytes whole", async () => {
    const run = await runProcess("sh", ["-c", "head -c 3000000 /dev/zero | tr '\\0' x"], {
      env,
      timeout: 30_000,
    });
    assert.equal(run.code, 0);
    assert.equal(run.stdout.length, 3_000_000);
    assert.match(run.stdout, /^x+$/);
  });

  it("gives the process only the environment it is given", async () => {
    process.env.CONTENT_FEED_TEST_LEAK = "leaked";
    try {
      const run = await runProcess("sh", ["-c", 'echo "$GIVEN/$CONTENT_FEED_TEST_LEAK"'], {
        env: { ...env, GIVEN: "given", UNSET: undefined },
        timeout: 0,
      });
      assert.equal(run.stdout, "given/\n");
    } finally {
      delete process.env.CONTENT_FEED_TEST_LEAK;
    }
  });

  it("ends with -1 where the command cannot be run, and never rejects", async () => {
    const run = await runProcess("content-feed-no-such-command", ["x"], { env, timeout: 0 });
    assert.equal(run.code, -1);
    assert.equal(run.stdout, "");
  });

  it("stops a process that outruns its time, with -1", async () => {
    const run = await runProcess("sleep", ["20"], { env, timeout: 200 });
    assert.equal(run.code, -1);
  });
});
