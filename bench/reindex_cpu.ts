// The CPU time of a re-index after one file changed against that of the
// cold build, in one process (as bench/reindex.ts does with wall time): the
// process's own CPU (`process.cpuUsage()`: user + system, every thread, so
// the read workers too) and, where Linux tells it (`/proc/self/stat`), the
// CPU of the git processes it ran and waited for. The reload is told the
// changed path, as the file watcher tells it; the file is changed and not
// committed (the edit of someone writing). Prints one JSON line of
// milliseconds: the cold build's and the median of 5 re-indexes'.
// Usage: <runtime> bench/reindex_cpu.ts <services.yaml> <file to touch>
import { readFileSync } from "node:fs";
import { appendFile } from "node:fs/promises";
import process from "node:process";
import { createContentApi } from "../mod.ts";

/** CPU time of this process, all its threads, in ms. */
const own = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
/** CPU time of the children this process waited for, in ms (`undefined` off Linux). */
const children = (): number | undefined => {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    // cutime and cstime, in clock ticks (USER_HZ, 100 a second on Linux).
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
};
/** Runs `work` and returns its CPU time: this process's, and its children's. */
async function cpuOf(work: () => Promise<unknown>): Promise<{ own: number; git?: number }> {
  const [own0, children0] = [own(), children()];
  await work();
  const [own1, children1] = [own(), children()];
  return {
    own: own1 - own0,
    git: children0 === undefined || children1 === undefined ? undefined : children1 - children0,
  };
}

const [config, touched] = process.argv.slice(2);
const quiet = { info() {}, warn() {}, error: console.error };
let api: Awaited<ReturnType<typeof createContentApi>> | undefined;
const cold = await cpuOf(async () => {
  api = await createContentApi({ config, logger: quiet });
});
const reindexes: { own: number; git?: number }[] = [];
for (let i = 0; i < 5; i++) {
  await appendFile(touched, `\nOne more line ${i}.\n`);
  reindexes.push(await cpuOf(() => api!.reload([touched])));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[2];
console.log(JSON.stringify({
  cold: cold.own,
  coldGit: cold.git,
  reindex: median(reindexes.map((r) => r.own)),
  reindexWithGit: cold.git === undefined ? undefined : median(
    reindexes.map((r) => r.own + r.git!),
  ),
  items: api!.index.items.length,
}));
api!.close();
