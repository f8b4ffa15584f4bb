// git's whole history in parts, one git process each (SPEC 17: "git's
// history is read once, beside the file reads"). `git log --name-only`
// diffs each commit's tree against its parent's, on one core: at 100,000
// commits in folders of 20,000 files it took 28 s of CPU, longer than the
// server's own reads (17 s), and a first start waited 44 s where one with
// `git: false` took 22. Split at commits git names, the same history is
// read by as many processes as there are cores to spare.
import { closeSync, openSync, readdirSync, readSync } from "node:fs";
import os from "node:os";

/** When a repository's history is read in parts, and in how many. */
export interface HistoryParting {
  /**
   * The fewest objects git's packs must hold before the commits are listed
   * to split the history at (a cheaper test than the listing, which costs a
   * process before the log may begin): below, one log, begun at once.
   */
  readonly minObjects: number;
  /** The fewest commits a part reads: fewer commits, fewer parts. */
  readonly commitsPerPart: number;
  /** The most parts (git processes at once). */
  readonly maxParts: number;
}

/**
 * The parting a server uses: packs of 100,000 objects or more (the bench's
 * site of 10,000 files, one commit each, holds 47,000; of 100,000, 472,000),
 * at least 10,000 commits a part, and a part per core, up to four.
 *
 * @example
 * ```ts
 * import { defaultParting } from "./history_parts.ts";
 * defaultParting().maxParts; // 2 on a two-core machine
 * ```
 */
export function defaultParting(): HistoryParting {
  const cores = typeof os.availableParallelism === "function"
    ? os.availableParallelism()
    : os.cpus().length;
  return { minObjects: 100_000, commitsPerPart: 10_000, maxParts: Math.max(1, Math.min(4, cores)) };
}

/**
 * How many objects the packs of a git folder hold (each pack index's
 * count, the last entry of its fan-out table), without a process: a
 * blocking read of 1,032 bytes a pack. Loose objects are not counted (git
 * packs them as they grow); 0 where nothing can be read.
 *
 * @param commonDir the repository's common git folder (`.git`)
 *
 * @example
 * ```ts
 * import { packedObjects } from "./history_parts.ts";
 * packedObjects("/site/.git"); // 47224
 * ```
 */
export function packedObjects(commonDir: string): number {
  let names: string[];
  try {
    names = readdirSync(`${commonDir}/objects/pack`);
  } catch {
    return 0;
  }
  let total = 0;
  const header = new Uint8Array(8 + 256 * 4);
  for (const name of names) {
    if (!name.endsWith(".idx")) continue;
    let fd: number | undefined;
    try {
      fd = openSync(`${commonDir}/objects/pack/${name}`, "r");
      const read = readSync(fd, header, 0, header.length, 0);
      const view = new DataView(header.buffer);
      // Version 2: "\xfftOc", the version, then 256 counts; the last is the total. Another
      // version's layout is not known here: counted as nothing.
      if (read === header.length && view.getUint32(0) === 0xff744f63) {
        if (view.getUint32(4) === 2) total += view.getUint32(8 + 255 * 4);
      } else if (read >= 1024) {
        total += view.getUint32(255 * 4); // version 1: the fan-out table alone
      }
    } catch {
      // a pack being written or removed: counted as nothing
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  return total;
}

/**
 * The revisions of each part of a history, given its commits as `git log`
 * lists them from its tip (`commits[0]`): `[tip, ^m1]`, `[m1, ^m2]`, …,
 * `[mk]`, where each `m` is the commit at a k-th of the list. Part i reads
 * the commits `m(i)` reaches that `m(i+1)` does not. So every part reads
 * only commits the tip reaches, and together they read each of them,
 * whatever its merges: of a commit the tip reaches, take the last `m(i)`
 * that reaches it; `m(i+1)` does not, so part i reads it (the last part,
 * where that is `m(k)`). Where merges cross a cut, or commit dates are
 * skewed (git's walk of `x ^y` stops by date once only excluded commits
 * are left), a commit may be read by more than one part: that costs time,
 * not dates (a file's first and last dates are the least and greatest).
 * One part, `[tip]`, below two parts' worth of commits.
 *
 * @example
 * ```ts
 * import { historyRanges } from "./history_parts.ts";
 * historyRanges(["e", "d", "c", "b", "a"], 2, 2); // [["e", "^c"], ["c"]]
 * historyRanges(["b", "a"], 2, 4); // [["b"]]
 * ```
 */
export function historyRanges(
  commits: readonly string[],
  commitsPerPart: number,
  maxParts: number,
): string[][] {
  const perPart = Math.max(1, commitsPerPart);
  const parts = Math.max(1, Math.min(maxParts, Math.floor(commits.length / perPart)));
  const cuts = Array.from(
    { length: parts - 1 },
    (_, i) => commits[Math.floor(((i + 1) * commits.length) / parts)],
  );
  return [commits[0], ...cuts].map((from, i) => i < cuts.length ? [from, `^${cuts[i]}`] : [from]);
}
