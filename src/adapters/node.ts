import { FastResponse } from "srvx";
import type { Tuning } from "../http/settings.ts";

/**
 * Node: srvx's `FastResponse` writes the body to `node:http` without the
 * web `Response` object's overhead, and no clones (a web `Response` clone
 * tees its stream under Node, which costs more than it saves).
 *
 * @example
 * ```ts
 * import { nodeTuning } from "./node.ts";
 * nodeTuning.cloneResponses; // undefined
 * ```
 */
export const nodeTuning: Tuning = { Response: FastResponse, streamsKeepLength: true };
