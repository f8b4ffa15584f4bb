// src/adapters/file_system.ts: the stamps a read takes from the open file
// (SPEC 3, 17). A read's stamp is what the derivation cache keys its row
// by, so it must be the file that was read, not whatever its path names by
// the time it is stat'ed, and the numbers node:fs's fstat gives on this
// runtime (a restart's listing compares them with its own).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  closeSync,
  constants,
  fstatSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openFileStamp, stampOfStats, statStamp } from "../src/adapters/file_system.ts";
import { readRegularFile, readRegularFileSync } from "../src/source/read_regular.ts";

function withFolder(run: (folder: string) => void): void {
  const folder = mkdtempSync(join(tmpdir(), "content-feed-fs-"));
  try {
    run(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe("openFileStamp", () => {
  it("gives the numbers node:fs's fstat gives, and the path's stat", () => {
    withFolder((folder) => {
      const path = join(folder, "a.md");
      writeFileSync(path, "# A\n\nSome text.\n");
      const fd = openSync(path, "r");
      try {
        const stamp = openFileStamp(fd);
        assert.deepEqual(stamp, { isFile: true, ...stampOfStats(fstatSync(fd)) });
        const { isFile: _, ...bare } = stamp;
        assert.deepEqual(bare, statStamp(path));
        assert.equal(stamp.size, 16);
      } finally {
        closeSync(fd);
      }
    });
  });

  it("is the open file's, after its path names another file", () => {
    withFolder((folder) => {
      const path = join(folder, "a.md");
      const other = join(folder, "b.md");
      writeFileSync(path, "first version\n");
      writeFileSync(other, "the second version, longer\n");
      const fd = openSync(path, "r");
      try {
        const opened = fstatSync(fd).ino;
        // A deploy swaps the file under its path: the open one is still the first.
        renameSync(other, path);
        assert.notEqual(statSync(path).ino, opened);
        const stamp = openFileStamp(fd);
        assert.equal(stamp.ino, opened);
        assert.equal(stamp.size, 14);
        assert.equal(stamp.isFile, true);
      } finally {
        closeSync(fd);
      }
    });
  });

  it("says a FIFO opened without waiting is no regular file", () => {
    withFolder((folder) => {
      const path = join(folder, "pipe.md");
      execFileSync("mkfifo", [path]);
      const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        assert.equal(openFileStamp(fd).isFile, false);
      } finally {
        closeSync(fd);
      }
    });
  });
});

describe("readRegularFileSync", () => {
  it("stamps the bytes with the file's own stat", () => {
    withFolder((folder) => {
      const path = join(folder, "a.md");
      writeFileSync(path, "# A\n");
      const read = readRegularFileSync(path, 1024);
      assert.equal(read.kind, "file");
      if (read.kind !== "file") return;
      assert.equal(new TextDecoder().decode(read.bytes), "# A\n");
      assert.deepEqual(
        { mtime: read.mtime, size: read.size, ino: read.ino, ctime: read.ctime },
        statStamp(path),
      );
    });
  });

  it("leaves a larger file unread, and names a FIFO and a folder", () => {
    withFolder((folder) => {
      const big = join(folder, "big.md");
      writeFileSync(big, "x".repeat(2048));
      const large = readRegularFileSync(big, 1024);
      assert.deepEqual(large, { kind: "too large", ...statStamp(big) });
      const pipe = join(folder, "pipe.md");
      execFileSync("mkfifo", [pipe]);
      assert.deepEqual(readRegularFileSync(pipe, 1024), {
        kind: "not a regular file",
        what: "a FIFO",
      });
      assert.deepEqual(readRegularFileSync(folder, 1024), {
        kind: "not a regular file",
        what: "a folder",
      });
    });
  });
});

describe("readRegularFile", () => {
  it("reads a file with its stamp, and names what is not one without opening it", async () => {
    const folder = mkdtempSync(join(tmpdir(), "content-feed-fs-"));
    try {
      const path = join(folder, "a.md");
      writeFileSync(path, "# A\n");
      const read = await readRegularFile(path, 1024);
      assert.equal(read.kind, "file");
      if (read.kind === "file") {
        assert.equal(new TextDecoder().decode(read.bytes), "# A\n");
        assert.deepEqual(
          { mtime: read.mtime, size: read.size, ino: read.ino, ctime: read.ctime },
          statStamp(path),
        );
      }
      const big = join(folder, "big.md");
      writeFileSync(big, "x".repeat(2048));
      assert.deepEqual(await readRegularFile(big, 1024), { kind: "too large", ...statStamp(big) });
      const pipe = join(folder, "pipe.md");
      execFileSync("mkfifo", [pipe]);
      assert.deepEqual(await readRegularFile(pipe, 1024), {
        kind: "not a regular file",
        what: "a FIFO",
      });
      assert.deepEqual(await readRegularFile(folder, 1024), {
        kind: "not a regular file",
        what: "a folder",
      });
      await assert.rejects(readRegularFile(join(folder, "gone.md"), 1024), { code: "ENOENT" });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
