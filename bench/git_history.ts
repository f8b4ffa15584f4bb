// A git repository of one commit per file, made in seconds (issue 27's
// bench: a docs site is a repository whose history touched every file).
// The files must already be in `site`; they become the work tree of a
// repository whose HEAD holds them as written.
//
// Where the time went with `git fast-import`: not in the writes to it nor in
// `git reset`, but in fast-import itself. Each commit writes a new tree for
// every folder on its file's path, so a flat folder of n files costs n²/2
// tree entries over the history (the bench's `pages/` and `blog/` hold a
// fifth of the files each): 21 GB of tree versions to format, hash and delta
// at 100,000 files (0.2 GB at 10,000), five minutes; and at 10,000 files
// glibc's malloc also gave each tree's delta index back to the kernel and
// took it again (three quarters of fast-import's time went to `brk`). So the
// history is written here as one pack: the trees are kept serialized and
// changed in place, each version stored as a delta against the previous one
// whose three instructions are known without searching (copy what is before
// the changed entry, insert it, copy what follows; a full version every
// `MAX_DEPTH`, as fast-import's default depth), hashed with the runtime's
// SHA-1, and the pack's index written here too. What is left is the hashing
// of every tree version, which no writer of this history avoids. The
// repository is git's usual one: the same commits (the same hashes) as fast-
// import made, `git fsck --full` finds nothing.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, readSync, renameSync, writeSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import process from "node:process";
import { crc32, deflateSync } from "node:zlib";

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
  const run = spawnSync("git", ["-C", site, ...args], {
    env: GIT_ENV,
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  return run.stdout;
}

/** Deltas in a row before a tree is stored whole (fast-import's default depth). */
const MAX_DEPTH = 50;
/** Bytes of pack gathered before one write. */
const CHUNK_BYTES = 4 << 20;

/** Pack object types (gitformat-pack). */
const COMMIT = 1, TREE = 2, BLOB = 3, OFS_DELTA = 6;

/**
 * Makes `site` a git repository whose history adds the files one commit at a
 * time (`paths` relative to `site`, in order; one commit a minute from
 * `start`, epoch seconds), then the files `rest` lists (`services.yaml`,
 * say) in one last commit, on branch `main`. The work tree is left as it
 * is: its files are the commits' files, and the index is HEAD's, so `git
 * status` is clean. Memory holds the trees of the last commit and a few
 * numbers per object, whatever the history.
 */
export async function commitEachFile(
  site: string,
  paths: readonly string[],
  start = 1_700_000_000,
  rest: readonly string[] = [],
): Promise<void> {
  git(site, "init", "-q");
  const gitDir = git(site, "rev-parse", "--absolute-git-dir").trim();
  const packDir = `${gitDir}/objects/pack`;
  await mkdir(packDir, { recursive: true });
  const pack = new PackWriter(`${packDir}/tmp-bench.pack`);
  const trees = new Map<string, Tree>();
  const treeOf = (folder: string) => {
    let tree = trees.get(folder);
    if (!tree) trees.set(folder, tree = new Tree());
    return tree;
  };
  let parent: string | undefined;
  /** One commit of `files` on top of the last. */
  const commit = (
    time: number,
    message: string,
    files: readonly (readonly [string, Uint8Array])[],
  ) => {
    // The folders whose trees changed, deepest first once sorted by depth.
    const changed = new Set<string>([""]);
    for (const [path, bytes] of files) {
      const blob = pack.add(BLOB, bytes);
      const slash = path.lastIndexOf("/");
      const folder = slash < 0 ? "" : path.slice(0, slash);
      treeOf(folder).set(path.slice(slash + 1), false, blob);
      for (let f = folder; f !== ""; f = f.slice(0, Math.max(0, f.lastIndexOf("/")))) {
        changed.add(f);
      }
    }
    const depth = (f: string) => f === "" ? 0 : f.split("/").length;
    const folders = [...changed].sort((a, b) => depth(b) - depth(a));
    let root: Uint8Array = new Uint8Array();
    for (const folder of folders) {
      const id = treeOf(folder).store(pack);
      if (folder === "") root = id;
      else {
        const slash = folder.lastIndexOf("/");
        treeOf(slash < 0 ? "" : folder.slice(0, slash)).set(folder.slice(slash + 1), true, id);
      }
    }
    const who = `bench <bench@example.com> ${time} +0000`;
    const text = `tree ${hex(root)}\n${parent ? `parent ${parent}\n` : ""}` +
      `author ${who}\ncommitter ${who}\n\n${message}`;
    parent = hex(pack.add(COMMIT, Buffer.from(text)));
  };
  // Read in turn: each file is in the page cache (just written), and a
  // synchronous read costs a fraction of an asynchronous one's set-up.
  const read = (path: string) => readFileSync(`${site}/${path}`);
  paths.forEach((path, i) => commit(start + i * 60, `add ${path}`, [[path, read(path)]]));
  if (rest.length > 0) {
    const files = rest.map((path) => [path, read(path)] as const);
    commit(start + paths.length * 60, `add ${rest.join(", ")}`, files);
  }
  if (parent === undefined) throw new Error("no file to commit");
  const name = pack.finish(packDir);
  await writeFile(`${gitDir}/refs/heads/main`, `${parent}\n`);
  git(site, "symbolic-ref", "HEAD", "refs/heads/main");
  // The index as HEAD holds it; the files on disk are already the same.
  git(site, "reset", "-q");
  if (!git(site, "rev-parse", "HEAD").startsWith(parent)) throw new Error(`pack ${name}: no HEAD`);
}

/** An object id as hex. */
const hex = (id: Uint8Array) => Buffer.from(id).toString("hex");

/**
 * One folder's tree, kept serialized (`mode name\0id` entries in git's
 * order) and changed in place, with what its last stored version was.
 */
class Tree {
  /** Sort keys (the name's UTF-8 bytes as latin1, `/` after a folder's), ascending. */
  private readonly keys: string[] = [];
  /** The serialized entries' lengths, in the order of `keys`. */
  private readonly lengths: number[] = [];
  private bytes = new Uint8Array(256);
  private size = 0;
  /** The last version stored: its object, and the change since (`undefined`: store it whole). */
  private stored?: { index: number; depth: number; size: number };
  private change?: { at: number; removed: number; added: Uint8Array };

  /** Adds or replaces an entry. */
  set(name: string, folder: boolean, id: Uint8Array): void {
    const nameBytes = Buffer.from(name);
    const key = nameBytes.toString("latin1") + (folder ? "/" : "");
    const entry = Buffer.concat([
      Buffer.from(folder ? "40000 " : "100644 "),
      nameBytes,
      Buffer.from([0]),
      id,
    ]);
    let low = 0, high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.keys[middle] < key) low = middle + 1;
      else high = middle;
    }
    let at = 0;
    for (let i = 0; i < low; i++) at += this.lengths[i];
    const replaces = this.keys[low] === key;
    const removed = replaces ? this.lengths[low] : 0;
    if (replaces) this.lengths[low] = entry.length;
    else {
      this.keys.splice(low, 0, key);
      this.lengths.splice(low, 0, entry.length);
    }
    const size = this.size - removed + entry.length;
    if (size > this.bytes.length) {
      const grown = new Uint8Array(Math.max(size, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.size));
      this.bytes = grown;
    }
    this.bytes.copyWithin(at + entry.length, at + removed, this.size);
    this.bytes.set(entry, at);
    this.size = size;
    // One change since the last version keeps the delta to three instructions; more, whole.
    this.change = this.change === undefined && this.stored ? { at, removed, added: entry } : {
      at: -1,
      removed: 0,
      added: entry,
    };
  }

  /** Stores this version (a delta against the last when it can) and returns its id. */
  store(pack: PackWriter): Uint8Array {
    const content = this.bytes.subarray(0, this.size);
    const { stored, change } = this;
    let index: number;
    let depth = 0;
    if (stored && change && change.at >= 0 && stored.depth < MAX_DEPTH) {
      const delta = new DeltaWriter(stored.size, content.length);
      delta.copy(0, change.at);
      delta.insert(change.added);
      delta.copy(change.at + change.removed, stored.size - change.at - change.removed);
      index = pack.addDelta(TREE, content, stored.index, delta.bytes());
      depth = pack.depthOf(index);
    } else index = pack.addIndexed(TREE, content);
    this.stored = { index, depth, size: content.length };
    this.change = undefined;
    return pack.idOf(index);
  }
}

/** A git delta (gitformat-pack): sizes, then copy and insert instructions. */
class DeltaWriter {
  private readonly order: (number | Uint8Array)[] = [];

  constructor(from: number, to: number) {
    this.order.push(...varint(from), ...varint(to));
  }

  /** Copies `length` bytes of the base from `offset`. */
  copy(offset: number, length: number): void {
    while (length > 0) {
      const n = Math.min(length, 0xffffff);
      const op = [0x80];
      for (let i = 0; i < 4; i++) {
        const byte = Math.floor(offset / 2 ** (8 * i)) & 0xff;
        if (byte) op[0] |= 1 << i, op.push(byte);
      }
      for (let i = 0; i < 3; i++) {
        const byte = (n >>> (8 * i)) & 0xff;
        if (byte) op[0] |= 0x10 << i, op.push(byte);
      }
      this.order.push(...op);
      offset += n;
      length -= n;
    }
  }

  /** Inserts bytes (127 an instruction). */
  insert(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i += 127) {
      const part = bytes.subarray(i, i + 127);
      this.order.push(part.length, part);
    }
  }

  bytes(): Uint8Array {
    const chunks: Uint8Array[] = [];
    let numbers: number[] = [];
    for (const item of this.order) {
      if (typeof item === "number") numbers.push(item);
      else {
        chunks.push(Uint8Array.from(numbers), item);
        numbers = [];
      }
    }
    chunks.push(Uint8Array.from(numbers));
    return Buffer.concat(chunks);
  }
}

/** A size as a delta header writes it: 7 bits a byte, least significant first. */
function varint(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

/**
 * Writes a pack (version 2) object by object and then its index (version
 * 2); an object already in it (the same id) is not written twice.
 */
class PackWriter {
  private readonly fd: number;
  private offset = 12;
  private chunks: Uint8Array[] = [];
  private gathered = 0;
  /** Per object: its id (20 bytes each), its offset, its CRC-32, its delta depth. */
  private ids = new Uint8Array(20 * 1024);
  private readonly offsets: number[] = [];
  private readonly crcs: number[] = [];
  private readonly depths: number[] = [];
  private readonly byId = new Map<string, number>();
  private readonly path: string;

  constructor(path: string) {
    this.path = path;
    this.fd = openSync(path, "w+");
    this.push(new Uint8Array(12)); // the header, written at the end
  }

  /** Adds an object; returns its id. */
  add(type: number, content: Uint8Array): Uint8Array {
    return this.idOf(this.addIndexed(type, content));
  }

  /** Adds an object whole; returns its number. */
  addIndexed(type: number, content: Uint8Array): number {
    const id = objectId(type, content);
    const known = this.byId.get(hex(id));
    if (known !== undefined) return known;
    return this.record(id, 0, [header(type, content.length), zlibOf(content, type === TREE)]);
  }

  /** Adds an object as a delta against object `base`; returns its number. */
  addDelta(type: number, content: Uint8Array, base: number, delta: Uint8Array): number {
    const id = objectId(type, content);
    const known = this.byId.get(hex(id));
    if (known !== undefined) return known;
    return this.record(id, this.depths[base] + 1, [
      header(OFS_DELTA, delta.length),
      distance(this.offset - this.offsets[base]),
      zlibOf(delta, false),
    ]);
  }

  idOf(index: number): Uint8Array {
    return this.ids.subarray(20 * index, 20 * index + 20);
  }

  depthOf(index: number): number {
    return this.depths[index];
  }

  private record(id: Uint8Array, depth: number, parts: Uint8Array[]): number {
    const index = this.offsets.length;
    if (20 * (index + 1) > this.ids.length) {
      const grown = new Uint8Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids.set(id, 20 * index);
    this.byId.set(hex(id), index);
    this.offsets.push(this.offset);
    this.depths.push(depth);
    let crc = 0;
    for (const part of parts) {
      crc = crc32(part, crc);
      this.push(part);
      this.offset += part.length;
    }
    this.crcs.push(crc >>> 0);
    return index;
  }

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.gathered += bytes.length;
    if (this.gathered >= CHUNK_BYTES) this.flush();
  }

  private flush(): void {
    if (this.gathered === 0) return;
    writeSync(this.fd, Buffer.concat(this.chunks, this.gathered));
    this.chunks = [];
    this.gathered = 0;
  }

  /** Writes the header, the trailer and the index; renames the pack; returns its name. */
  finish(packDir: string): string {
    this.flush();
    const count = this.offsets.length;
    const head = Buffer.alloc(12);
    head.write("PACK", 0, "latin1");
    head.writeUInt32BE(2, 4);
    head.writeUInt32BE(count, 8);
    writeSync(this.fd, head, 0, 12, 0);
    // The trailer: SHA-1 of everything before it, read back (the header came last).
    const hash = createHash("sha1");
    const buffer = Buffer.alloc(CHUNK_BYTES);
    for (let at = 0; at < this.offset;) {
      const n = readSync(this.fd, buffer, 0, Math.min(buffer.length, this.offset - at), at);
      hash.update(buffer.subarray(0, n));
      at += n;
    }
    const checksum = hash.digest();
    writeSync(this.fd, checksum, 0, 20, this.offset);
    closeSync(this.fd);

    const order = Array.from({ length: count }, (_, i) => i);
    const ids = Buffer.from(this.ids.buffer, 0, 20 * count);
    order.sort((a, b) => ids.compare(ids, 20 * b, 20 * b + 20, 20 * a, 20 * a + 20));
    const perByte = new Array<number>(256).fill(0);
    for (let i = 0; i < count; i++) perByte[ids[20 * i]]++;
    const fanout = Buffer.alloc(1024);
    for (let byte = 0, total = 0; byte < 256; byte++) {
      total += perByte[byte];
      fanout.writeUInt32BE(total, 4 * byte);
    }
    const large: number[] = [];
    const sortedIds = Buffer.alloc(20 * count);
    const crcs = Buffer.alloc(4 * count);
    const offsets = Buffer.alloc(4 * count);
    order.forEach((i, at) => {
      ids.copy(sortedIds, 20 * at, 20 * i, 20 * i + 20);
      crcs.writeUInt32BE(this.crcs[i], 4 * at);
      const offset = this.offsets[i];
      if (offset < 0x80000000) offsets.writeUInt32BE(offset, 4 * at);
      else offsets.writeUInt32BE((0x80000000 | large.push(offset) - 1) >>> 0, 4 * at);
    });
    const largeOffsets = Buffer.alloc(8 * large.length);
    large.forEach((offset, i) => largeOffsets.writeBigUInt64BE(BigInt(offset), 8 * i));
    const index = Buffer.concat([
      Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]),
      fanout,
      sortedIds,
      crcs,
      offsets,
      largeOffsets,
      checksum,
    ]);
    const indexBytes = Buffer.concat([index, createHash("sha1").update(index).digest()]);
    const name = `pack-${checksum.toString("hex")}`;
    const indexFd = openSync(`${packDir}/${name}.idx`, "w");
    writeSync(indexFd, indexBytes);
    closeSync(indexFd);
    renameSync(this.path, `${packDir}/${name}.pack`);
    return name;
  }
}

/** An object's id: SHA-1 of its type, size and content. */
function objectId(type: number, content: Uint8Array): Uint8Array {
  const name = type === BLOB ? "blob" : type === TREE ? "tree" : "commit";
  return createHash("sha1").update(`${name} ${content.length}\0`).update(content).digest();
}

/** A pack entry's header: the type and the (uncompressed) size, 4 bits then 7 a byte. */
function header(type: number, size: number): Uint8Array {
  const out = [(type << 4) | (size & 0x0f)];
  size = Math.floor(size / 16);
  while (size > 0) {
    out[out.length - 1] |= 0x80;
    out.push(size & 0x7f);
    size = Math.floor(size / 128);
  }
  return Uint8Array.from(out);
}

/** An OFS_DELTA's distance back to its base, as git encodes it. */
function distance(n: number): Uint8Array {
  const out = [n & 0x7f];
  n = Math.floor(n / 128);
  while (n > 0) {
    n -= 1;
    out.unshift(0x80 | (n & 0x7f));
    n = Math.floor(n / 128);
  }
  return Uint8Array.from(out);
}

/**
 * A zlib stream of `bytes`: deflated at level 1 (`compress`: the whole
 * trees, which `git log` reads), or in stored blocks, which cost no zlib
 * set-up: a delta of one tree entry or a commit is a few hundred bytes that
 * deflate would hardly shrink, and setting up zlib for each object took
 * more time than the rest of the writer. Blobs are stored too: neither the
 * server nor git reads them from the pack (the files are in the work tree),
 * so their compression would only make the pack smaller.
 */
function zlibOf(bytes: Uint8Array, compress: boolean): Uint8Array {
  if (compress) return deflateSync(bytes, { level: 1 });
  const blocks = Math.max(1, Math.ceil(bytes.length / 0xffff));
  const out = Buffer.allocUnsafe(2 + 5 * blocks + bytes.length + 4);
  out[0] = 0x78; // deflate, 32 KB window
  out[1] = 0x01; // no dictionary, fastest (the check bits make 0x7801 a multiple of 31)
  let at = 2;
  for (let block = 0; block < blocks; block++) {
    const from = block * 0xffff;
    const length = Math.min(0xffff, bytes.length - from);
    out[at] = block === blocks - 1 ? 1 : 0;
    out.writeUInt16LE(length, at + 1);
    out.writeUInt16LE(~length & 0xffff, at + 3);
    out.set(bytes.subarray(from, from + length), at + 5);
    at += 5 + length;
  }
  out.writeUInt32BE(adler32(bytes), at);
  return out;
}

/** zlib's Adler-32 checksum. */
function adler32(bytes: Uint8Array): number {
  let a = 1, b = 0;
  for (let i = 0; i < bytes.length;) {
    // 3800 bytes keep the sums below 2^32 before the modulo (zlib's NMAX is 5552).
    const end = Math.min(bytes.length, i + 3800);
    for (; i < end; i++) {
      a += bytes[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}
