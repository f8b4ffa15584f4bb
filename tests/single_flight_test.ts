// One build per answer (SPEC 9 "Bounded memory"): requests that ask at once
// for the same answer, not made yet, wait for one build and share its bytes;
// distinct answers are built a few at a time. Counted in builds and in file
// reads, never in time.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSingleFlight } from "../src/util/single_flight.ts";
import { ALL_PLUGINS, LONG, md, removeSite, type SiteFiles, writeSite } from "./helpers.ts";
import { countedHandler } from "./counted_handler.ts";

/** A promise and the function that settles it. */
function later<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("createSingleFlight", () => {
  it("joins a build of the same key under way, and starts a new one once it is done", async () => {
    const flights = createSingleFlight<object>(2);
    const scope = {};
    const gate = later<string>();
    let made = 0;
    const make = () => {
      made++;
      return gate.promise;
    };
    const first = flights.run(scope, "a", make);
    const second = flights.run(scope, "a", make);
    gate.resolve("bytes");
    assert.deepEqual(await Promise.all([first, second]), ["bytes", "bytes"]);
    assert.equal(made, 1);
    assert.equal(flights.started, 1);
    // Done: the next request for the key builds again (the answer store keeps answers, not this).
    await flights.run(scope, "a", () => Promise.resolve("again"));
    assert.equal(flights.started, 2);
  });

  it("keeps keys apart per scope (an index) and per key", async () => {
    const flights = createSingleFlight<object>(4);
    const [one, two] = [{}, {}];
    const results = await Promise.all([
      flights.run(one, "a", () => Promise.resolve(1)),
      flights.run(two, "a", () => Promise.resolve(2)),
      flights.run(one, "b", () => Promise.resolve(3)),
    ]);
    assert.deepEqual(results, [1, 2, 3]);
    assert.equal(flights.started, 3);
  });

  it("runs at most `concurrency` builds at once, the others in the order they came", async () => {
    const flights = createSingleFlight<object>(2);
    const scope = {};
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const gates = new Map<string, ReturnType<typeof later<void>>>();
    const run = (key: string) =>
      flights.run(scope, key, async () => {
        order.push(key);
        most = Math.max(most, ++running);
        const gate = later<void>();
        gates.set(key, gate);
        await gate.promise;
        running--;
        return key;
      });
    const all = ["a", "b", "c", "d", "e"].map(run);
    await tick();
    assert.deepEqual(order, ["a", "b"]);
    gates.get("b")!.resolve();
    await tick();
    assert.deepEqual(order, ["a", "b", "c"]);
    for (const key of ["a", "c", "d", "e"]) {
      while (!gates.has(key)) await tick();
      gates.get(key)!.resolve();
    }
    assert.deepEqual(await Promise.all(all), ["a", "b", "c", "d", "e"]);
    assert.equal(most, 2);
  });

  it("passes a failed build's error to every request that joined it, and frees its place", async () => {
    const flights = createSingleFlight<object>(1);
    const scope = {};
    const gate = later<string>();
    const first = flights.run(scope, "a", () => gate.promise);
    const joined = flights.run(scope, "a", () => Promise.resolve("never"));
    gate.reject(new Error("disk gone"));
    await assert.rejects(first, /disk gone/);
    await assert.rejects(joined, /disk gone/);
    assert.equal(await flights.run(scope, "b", () => Promise.resolve("next")), "next");
  });
});

describe("one build per answer (SPEC 9)", () => {
  const FILES: SiteFiles = Object.fromEntries(
    Array.from({ length: 40 }, (_, i) => [
      `docs/page-${i}.md`,
      md({ title: `Page ${i}` }, `# Page ${i}\n\n${LONG}\n\n## Part\n\nMore ${i}.`),
    ]),
  );

  for (
    const path of [
      "/api/content.json?include=body,text,sections&limit=10000",
      "/api/content.json?since=0&include=body",
      "/docs/page-3.json?include=sections",
      "/docs/page-3.md",
      "/llms-full.txt",
      "/feed.json",
    ]
  ) {
    it(`100 requests at once for ${path}, not made yet: each file is read once`, async () => {
      const root = await writeSite({ ...FILES, "services.yaml": ALL_PLUGINS });
      try {
        const { handle, reads } = await countedHandler(root);
        const responses = await Promise.all(
          Array.from({ length: 100 }, () => handle(new Request(`https://example.com${path}`))),
        );
        const bodies = await Promise.all(responses.map((response) => response.text()));
        assert.ok(responses.every((response) => response.status === 200), path);
        assert.ok(bodies.every((body) => body === bodies[0]));
        assert.ok(reads.size > 0, "the answer reads files");
        for (const [file, times] of reads) assert.equal(times, 1, `${file} read ${times} times`);
      } finally {
        await removeSite(root);
      }
    });
  }
});
