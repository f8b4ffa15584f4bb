// An overlay reads as a copy of its map with the same sets and deletes made
// on it (src/util/overlay_map.ts, what a patched re-index holds): the same
// entries, in the same order, layer on layer.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mulberry32 } from "../bench/site.ts";
import { OverlayMap } from "../src/util/overlay_map.ts";

/** Everything a reader of a map sees. */
function view(map: ReadonlyMap<string, number>) {
  const forEach: [string, number][] = [];
  map.forEach((value, key) => forEach.push([key, value]));
  return {
    size: map.size,
    entries: [...map],
    keys: [...map.keys()],
    values: [...map.values()],
    forEach,
  };
}

describe("an overlay map reads as a copy with the same changes (SPEC 17)", () => {
  it("sets, deletes, sets again after a delete, and new keys: in a copy's order", () => {
    const base = new Map([["a", 1], ["b", 2], ["c", 3]]);
    const overlay = new OverlayMap(base);
    const copy = new Map(base);
    for (const map of [overlay, copy]) {
      map.set("b", 20); // in place
      map.delete("a");
      map.set("d", 4); // new: last
      map.set("a", 10); // deleted, then set: after d
      map.set("d", 40); // new, set again: stays where it came
      map.delete("zz"); // not there
    }
    assert.deepEqual(view(overlay), view(copy));
    assert.deepEqual([...base], [["a", 1], ["b", 2], ["c", 3]], "the map under it unchanged");
    for (const key of ["a", "b", "c", "d", "zz"]) {
      assert.equal(overlay.get(key), copy.get(key), key);
      assert.equal(overlay.has(key), copy.has(key), key);
    }
    assert.equal(overlay.delete("d"), true);
    assert.equal(overlay.delete("d"), false);
    assert.equal(overlay.has("d"), false);
  });

  it("random changes, overlay on overlay past the layers it allows, against copies", () => {
    const random = mulberry32(7);
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
    let copy = new Map(keys.slice(0, 25).map((key, i) => [key, i]));
    let overlay: ReadonlyMap<string, number> = new Map(copy);
    for (let layer = 0; layer < 30; layer++) {
      const next = new OverlayMap(overlay);
      copy = new Map(copy);
      for (let step = 0; step < 6; step++) {
        const key = keys[Math.floor(random() * keys.length)];
        if (random() < 0.4) assert.equal(next.delete(key), copy.delete(key), `delete ${key}`);
        else {
          const value = Math.floor(random() * 1000);
          next.set(key, value);
          copy.set(key, value);
        }
      }
      overlay = next;
      assert.deepEqual(view(overlay), view(copy), `layer ${layer}`);
      for (const key of keys) {
        assert.equal(overlay.get(key), copy.get(key), `layer ${layer}: ${key}`);
        assert.equal(overlay.has(key), copy.has(key), `layer ${layer}: ${key}`);
      }
    }
  });
});
