// src/http/quiet.ts: when a server is first quiet after its first index is
// served (the first load's watch begins then, SPEC 10). No duration is
// asserted: only what has settled, and in what order.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { statSync } from "node:fs";
import { quietMoment, type QuietOptions } from "../src/http/quiet.ts";
import { startService } from "../src/service.ts";
import { docsSite, eventually, memoryLogger, removeSite, writeSite } from "./helpers.ts";

/** Whether `promise` has settled, after a turn of the event loop. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(() => done = true, () => done = true);
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const GET = new Request("http://localhost/api/content.json");
const QUIET: QuietOptions = { quietMs: 10, mostMs: 60_000, capMs: 120_000 };

describe("quietMoment", () => {
  it("waits for begin, then for no request in flight", async () => {
    const quiet = quietMoment(QUIET);
    await pause(40);
    assert.equal(await settled(quiet.done), false, "not before the first index is served");
    let answer!: (response: Response) => void;
    const pending = quiet.track(GET, () => new Promise<Response>((resolve) => answer = resolve));
    quiet.begin();
    await pause(60);
    assert.equal(await settled(quiet.done), false, "not while a request is in flight");
    answer(new Response("ok"));
    assert.equal(await (await pending).text(), "ok");
    await eventually("quiet once the request was answered", () => settled(quiet.done));
  });

  it("answers what it counts as its handler does, synchronously or not, errors too", async () => {
    const quiet = quietMoment(QUIET);
    quiet.begin();
    const ready = quiet.track(GET, () => new Response("ready"));
    assert.ok(ready instanceof Response);
    assert.throws(() =>
      quiet.track(GET, () => {
        throw new Error("bad request");
      }), /bad request/);
    await assert.rejects(
      Promise.resolve(quiet.track(GET, () => Promise.reject(new Error("failed")))),
      /failed/,
    );
    await eventually("quiet after an error", () => settled(quiet.done));
    // Once quiet, requests are answered as they come.
    assert.equal(await (quiet.track(GET, () => new Response("after")) as Response).text(), "after");
  });

  it("at its bound, waits for the requests then in flight, not for those that come later", async () => {
    const quiet = quietMoment({ quietMs: 10, mostMs: 50, capMs: 120_000 });
    let first!: (response: Response) => void;
    const pending = quiet.track(GET, () => new Promise<Response>((resolve) => first = resolve));
    quiet.begin();
    await pause(120); // past the bound
    assert.equal(
      await settled(quiet.done),
      false,
      "the request in flight at the bound comes first",
    );
    // A steady stream of later requests, one always in flight: it does not put the moment off.
    let later!: (response: Response) => void;
    quiet.track(GET, () => new Promise<Response>((resolve) => later = resolve));
    first(new Response("first"));
    assert.equal(await (await pending).text(), "first");
    await eventually("quiet once the older request was answered", () => settled(quiet.done));
    later(new Response("later"));
  });

  it("settles at its cap however busy the server stays", async () => {
    const quiet = quietMoment({ quietMs: 10, mostMs: 20, capMs: 50 });
    quiet.track(GET, () => new Promise<Response>(() => {})); // never answered
    quiet.begin();
    await eventually("the cap", () => settled(quiet.done));
  });

  it("with slices, a large GET body counts until it is taken whole: the same status, headers and bytes", async () => {
    const quiet = quietMoment({ ...QUIET, slices: true });
    quiet.begin();
    const bytes = new Uint8Array(300_000).map((_, i) => i % 251);
    const headers = { "Content-Type": "application/json", "Content-Length": String(bytes.length) };
    const response = await quiet.track(GET, () => new Response(bytes, { headers }));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.equal(response.headers.get("content-length"), String(bytes.length));
    await pause(60);
    assert.equal(await settled(quiet.done), false, "in flight while its body is not taken");
    const reader = response.body!.getReader();
    const first = await reader.read();
    assert.ok(!first.done && first.value.length < bytes.length, "handed over a slice at a time");
    await pause(60);
    assert.equal(await settled(quiet.done), false, "in flight while a slice is left");
    const got = [first.value!];
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      got.push(read.value);
    }
    assert.deepEqual(new Uint8Array(await new Blob(got).arrayBuffer()), bytes);
    await eventually("quiet once the body was taken", () => settled(quiet.done));
  });

  it("with slices, a body the client drops, a HEAD, a 304 and a small body end their count at once", async () => {
    const big = new Uint8Array(300_000);
    const length = { "Content-Length": String(big.length) };
    const dropped = quietMoment({ ...QUIET, slices: true });
    dropped.begin();
    const response = await dropped.track(GET, () => new Response(big, { headers: length }));
    await response.body!.cancel();
    await eventually("quiet once the client is gone", () => settled(dropped.done));
    const head = new Request(GET.url, { method: "HEAD" });
    for (
      const [request, answer] of [
        [head, () => new Response(null, { headers: length })],
        // A HEAD, or a GET that is no 200, whose response holds a large body all the same.
        [head, () => new Response(big, { headers: length })],
        [GET, () => new Response(big, { status: 404, headers: length })],
        [GET, () => new Response(null, { status: 304 })],
        [GET, () => new Response("small", { headers: { "Content-Length": "5" } })],
      ] as const
    ) {
      const quiet = quietMoment({ ...QUIET, slices: true });
      quiet.begin();
      const answered = await quiet.track(request, answer);
      assert.ok(answered instanceof Response);
      await eventually(
        `quiet after ${request.method} ${answered.status}`,
        () => settled(quiet.done),
      );
    }
  });

  it("a server writes its derivation cache once its first full feed is taken, not while it is sent", async () => {
    const root = await writeSite(docsSite(400));
    const starting = await startService(
      { config: join(root, "services.yaml"), logger: memoryLogger() },
      { streamsKeepLength: true },
    );
    const { api } = await starting.ready;
    /**
     * The state database's write-ahead log as it stands (the server holds the database
     * itself): nothing else writes it here once the first index is recorded (no watch).
     */
    const wal = () => {
      const { size, mtimeMs } = statSync(join(root, ".content-feed/journal.sqlite-wal"));
      return `${size} ${mtimeMs}`;
    };
    try {
      const response = await starting.handle(
        new Request("https://example.com/api/content.json", {
          headers: { "Accept-Encoding": "identity" },
        }),
      );
      assert.ok(Number(response.headers.get("content-length")) > 100_000, "a body of slices");
      const recorded = wal();
      // Past the second after its build when the cache used to be written, its body untaken.
      await pause(1500);
      assert.equal(wal(), recorded, "nothing written while the first full feed is being sent");
      await response.arrayBuffer();
      // Written a moment after the quiet that follows (bounded here by half a minute, not timed).
      for (let i = 0; i < 600 && wal() === recorded; i++) await pause(50);
      assert.notEqual(wal(), recorded, "the cache written once the body was taken");
    } finally {
      api.close();
      await removeSite(root);
    }
  });
});
