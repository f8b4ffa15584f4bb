// A git repository of one commit per file, made in seconds with
// `git fast-import` (issue 27's bench: a docs site is a repository whose
// history touched every file). The files must already be in `site`; they
// become the work tree of a repository whose HEAD holds them as written.
import { spawn, spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import process from "node:process";

/** A committer for the bench's repositories, whatever the machine's git config. */
export const GIT_ENV: Record<string, string | undefined> = {
  ...process.env,
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
};

/** Runs git in `site` and throws with its stderr when it fails. */
export function git(site: string, ...args: string[]): string {
  const run = spawnSync("git", ["-C", site, ...args], { env: GIT_ENV, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  return run.stdout;
}

/**
 * Makes `site` a git repository whose history adds the files one commit at a
 * time (`paths` relative to `site`, in order; one commit a minute from
 * `start`, epoch seconds), then `services.yaml` and anything else in one
 * last commit when `rest` lists it. The work tree is left as it is: its
 * files are the commits' files.
 */
export async function commitEachFile(
  site: string,
  paths: readonly string[],
  start = 1_700_000_000,
): Promise<void> {
  git(site, "init", "-q");
  const importer = spawn("git", ["-C", site, "fast-import", "--quiet"], {
    env: GIT_ENV,
    stdio: ["pipe", "inherit", "inherit"],
  });
  const done = new Promise<void>((resolve, reject) =>
    importer.on(
      "exit",
      (code) => code === 0 ? resolve() : reject(new Error(`git fast-import exited ${code}`)),
    )
  );
  const input = importer.stdin!;
  const write = (chunk: string | Uint8Array) =>
    input.write(chunk) ? Promise.resolve() : new Promise((r) => input.once("drain", r));
  const encoder = new TextEncoder();
  for (let i = 0; i < paths.length; i++) {
    const bytes = await readFile(`${site}/${paths[i]}`);
    const message = encoder.encode(`add ${paths[i]}`);
    const time = start + i * 60;
    await write(
      `commit refs/heads/main\nmark :${i + 1}\n` +
        `committer bench <bench@example.com> ${time} +0000\n` +
        `data ${message.length}\n`,
    );
    await write(message);
    await write(`\n${i > 0 ? `from :${i}\n` : ""}M 100644 inline ${quote(paths[i])}\n`);
    await write(`data ${bytes.length}\n`);
    await write(bytes);
    await write("\n");
  }
  input.end();
  await done;
  git(site, "symbolic-ref", "HEAD", "refs/heads/main");
  // The index as HEAD holds it; the files on disk are already the same.
  git(site, "reset", "-q");
}

/** A path as fast-import reads it (quoted when it holds a space, a quote or a newline). */
function quote(path: string): string {
  return /["\n\\ ]/.test(path) ? JSON.stringify(path) : path;
}
