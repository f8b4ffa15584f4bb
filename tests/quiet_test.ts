// src/http/quiet.ts: when a server is first quiet after its first index is
// served (a cold first load's watch begins then, SPEC 10). No duration is
// asserted: only what has settled, and in what order.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { quietMoment } from "../src/http/quiet.ts";
import { eventually } from "./helpers.ts";

/** Whether `promise` has settled, after a turn of the event loop. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(() => done = true, () => done = true);
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
}

describe("quietMoment", () => {
  it("waits for begin, then for no request in flight", async () => {
    const quiet = quietMoment(10, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 40));
    assert.equal(await settled(quiet.done), false, "not before the first index is served");
    let answer!: (response: Response) => void;
    const pending = quiet.track(() => new Promise<Response>((resolve) => answer = resolve));
    quiet.begin();
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(await settled(quiet.done), false, "not while a request is in flight");
    answer(new Response("ok"));
    assert.equal(await (await pending).text(), "ok");
    await eventually("quiet once the request was answered", () => settled(quiet.done));
  });

  it("answers what it counts as its handler does, synchronously or not, errors too", async () => {
    const quiet = quietMoment(10, 60_000);
    quiet.begin();
    const ready = quiet.track(() => new Response("ready"));
    assert.ok(ready instanceof Response);
    assert.throws(() =>
      quiet.track(() => {
        throw new Error("bad request");
      }), /bad request/);
    await assert.rejects(
      Promise.resolve(quiet.track(() => Promise.reject(new Error("failed")))),
      /failed/,
    );
    await eventually("quiet after an error", () => settled(quiet.done));
    // Once quiet, requests are answered as they come.
    assert.equal(await (quiet.track(() => new Response("after")) as Response).text(), "after");
  });

  it("settles at its bound however busy the server stays", async () => {
    const quiet = quietMoment(10, 50);
    quiet.track(() => new Promise<Response>(() => {})); // never answered
    quiet.begin();
    await eventually("the bound", () => settled(quiet.done));
  });
});
