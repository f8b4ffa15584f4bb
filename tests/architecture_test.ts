// docs/architecture.md matches the code (issue: "the table of rooms matches
// the code"): every folder and file its rooms name exists, and every folder
// and top-level file of src/ has a room.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./server_helpers.ts";

const doc = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
/** The rows of the table of rooms: its first cell (a folder or a file) and the names in the second. */
const rooms = doc.slice(doc.indexOf("## Rooms"), doc.indexOf("## Where each rule")).split("\n")
  .filter((line) => /^\| `/.test(line))
  .map((line) => {
    const [, room, what] = line.split("|").map((cell) => cell.trim());
    return {
      room: room.replaceAll("`", ""),
      names: [...what.matchAll(/`([a-z_0-9]+)`/g)].map((m) => m[1]),
    };
  });

describe("docs/architecture.md", () => {
  it("names rooms that exist, and the files of each folder it lists", () => {
    assert.ok(rooms.length > 10, "the table of rooms was found");
    for (const { room, names } of rooms) {
      assert.ok(existsSync(join(ROOT, room)), `${room} exists`);
      if (!room.endsWith("/")) continue;
      for (const name of names) {
        assert.ok(existsSync(join(ROOT, room, `${name}.ts`)), `${room}${name}.ts exists`);
      }
    }
  });

  it("has a room for every folder and top-level file of src/, and names every file of a folder", () => {
    const named = new Map(rooms.map(({ room, names }) => [room, new Set(names)]));
    for (const entry of readdirSync(join(ROOT, "src"), { withFileTypes: true })) {
      const room = `src/${entry.name}${entry.isDirectory() ? "/" : ""}`;
      assert.ok(named.has(room), `${room} has a room`);
      if (!entry.isDirectory()) continue;
      for (const file of readdirSync(join(ROOT, room))) {
        const name = file.replace(/\.ts$/, "");
        assert.ok(named.get(room)!.has(name), `${room}${file} is named in its room`);
      }
    }
  });

  it("names the layers scripts/check_layers.ts checks, in its order", () => {
    const script = readFileSync(join(ROOT, "scripts/check_layers.ts"), "utf8");
    const layers = [...script.matchAll(/\[\s*"([a-z ]+)",\s*\//g)].map((m) => m[1]);
    const start = doc.indexOf(`(\`${layers[0]} <`);
    assert.ok(start >= 0, `the line of layers begins with ${layers[0]}`);
    const line = doc.slice(start, doc.indexOf("`", start + 2));
    assert.deepEqual(line.slice(2).replace(/\s+/g, " ").split(" < "), layers);
  });
});
