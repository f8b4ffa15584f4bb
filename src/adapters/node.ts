import { FastResponse } from "srvx";
import type { Tuning } from "../http/settings.ts";
import { collectV8Garbage } from "./v8_collect.ts";

/**
 * Node: srvx's `FastResponse` writes the body to `node:http` without the
 * web `Response` object's overhead, and no clones (a web `Response` clone
 * tees its stream under Node, which costs more than it saves). A first
 * start's load is followed by a full collection (V8's `gc()`).
 *
 * @example
 * ```ts
 * import { nodeTuning } from "./node.ts";
 * nodeTuning.cloneResponses; // undefined
 * ```
 */
export const nodeTuning: Tuning = {
  Response: FastResponse,
  streamsKeepLength: true,
  collectAfterLoad: collectV8Garbage,
};
