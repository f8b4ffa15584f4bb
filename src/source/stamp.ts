// When a file's stamp says it is the one read before (SPEC 17: a restart,
// and a reload, re-read only the files whose stamp changed).
import type { Stamp } from "./fs.ts";

/**
 * Whether two stamps of a file say it is unchanged: the same size and
 * modification time, and the same inode and status change time where both
 * give one (0: not known, not compared). The status change time catches a
 * write whose modification time was put back (`touch -r`, `cp -p` over the
 * file, an archive's fixed times): the system sets it, and nothing can set
 * it back. It is compared, not used for the racy window (`RACY_MS`, which
 * stays the modification time's): a time put back by a write in the same
 * tick as the status change before the read (under Deno, the same second)
 * is the one change it does not tell.
 *
 * @example
 * ```ts
 * import { sameStamp } from "./stamp.ts";
 * const read = { mtime: 1_700_000_000_000, size: 10, ino: 7, ctime: 1_700_000_000_000 };
 * sameStamp(read, { ...read, ctime: 1_800_000_000_000 }); // false: written since
 * sameStamp(read, { ...read, ino: 0 }); // true: no inode to compare
 * ```
 */
export function sameStamp(a: Stamp, b: Stamp): boolean {
  return a.mtime === b.mtime && a.size === b.size &&
    (a.ino === 0 || b.ino === 0 || a.ino === b.ino) &&
    (a.ctime === 0 || b.ctime === 0 || a.ctime === b.ctime);
}

/**
 * The stamp's fields of anything that holds them (a loader's entry, a
 * listed file): what a stamps key and a vouch keep.
 *
 * @example
 * ```ts
 * import { stampOf } from "./stamp.ts";
 * const entry = { abs: "/site/a.md", mtime: 1, size: 2, ino: 3, ctime: 4 };
 * stampOf(entry); // { mtime: 1, size: 2, ino: 3, ctime: 4 }
 * ```
 */
export function stampOf({ mtime, size, ino, ctime }: Stamp): Stamp {
  return { mtime, size, ino, ctime };
}
