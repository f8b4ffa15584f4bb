// The start-up helper's side of the loader: batches of files posted to a Web
// Worker (a second core), their results taken back. The worker module is the
// service's (src/read_worker.ts), which prepares files as the loader does.
import type { Entry, LoaderHelper } from "./loader.ts";
import { isWarning } from "./parse.ts";
import type { Warning } from "./parsed_file.ts";
import {
  isSameBytes,
  readContentFiles,
  type ReadJob,
  type ReadResult,
  type SameBytes,
} from "./read_file.ts";

/** Files a message to the helper carries: large enough that messaging is a small share. */
const BATCH = 128;

/** A batch of jobs, as the loader posts it to the helper. */
export interface HelperBatch {
  readonly id: number;
  readonly jobs: readonly ReadJob[];
  /** The helper's `data`. */
  readonly data: unknown;
}

/**
 * A batch's results, as the helper posts them back: each file prepared, or a
 * warning, in the order of the batch's jobs.
 */
export interface HelperReply<T> {
  readonly id: number;
  readonly results: readonly (
    & Omit<ReadResult, "result">
    & { readonly result: T | Warning | SameBytes }
  )[];
  /** Markdown parser runs the batch took (the helper's own count: another isolate). */
  readonly parses?: number;
}

/**
 * Runs batches from `take` on the helper Web Worker until `take` runs dry,
 * two in flight so the worker never waits on this thread, and resolves with
 * how many files it read and how many parser runs it made. Without `Worker`
 * it does nothing; if the worker
 * fails, its batches in flight are read here. The worker ends with the
 * load: it holds nothing between loads.
 *
 * @example
 * ```ts
 * import { runHelper } from "./worker_pool.ts";
 * const jobs: import("./read_file.ts").ReadJob[] = [];
 * const { read } = await runHelper(
 *   { url: new URL("../pipeline/read_worker.ts", import.meta.url), data: { keepBody: false } },
 *   (count) => jobs.splice(0, count),
 *   () => {},
 *   () => {},
 * );
 * ```
 */
export function runHelper<T extends object>(
  helper: LoaderHelper<T>,
  take: (count: number) => readonly ReadJob[],
  store: (entry: Entry<T>) => void,
  readHere: (result: ReadResult, job: ReadJob) => void,
): Promise<{ read: number; parses: number }> {
  let worker: Worker;
  try {
    worker = new Worker(helper.url, { type: "module" });
  } catch {
    // no Worker here (Node), or it may not start one (an edge runtime)
    return Promise.resolve({ read: 0, parses: 0 });
  }
  let read = 0;
  let parses = 0;
  return new Promise((resolve) => {
    const pending = new Map<number, readonly ReadJob[]>();
    let id = 0;
    const send = () => {
      const jobs = take(BATCH);
      if (jobs.length === 0) return;
      pending.set(++id, jobs);
      worker.postMessage({ id, jobs, data: helper.data } satisfies HelperBatch);
    };
    const end = () => {
      worker.terminate();
      resolve({ read, parses });
    };
    worker.onmessage = ({ data }: MessageEvent<HelperReply<T>>) => {
      const jobs = pending.get(data.id) ?? [];
      pending.delete(data.id);
      data.results.forEach((result, i) => {
        const value = result.result;
        if (isWarning(value)) return store({ ...result, result: value });
        // What the file was prepared with, kept beside it (the loader compares it
        // on the next load): the worker answers a batch's jobs in their order.
        const job = jobs[i]?.abs === result.abs && jobs[i].plugin === result.plugin
          ? jobs[i]
          : jobs.find((j) => j.abs === result.abs && j.plugin === result.plugin)!;
        // The loader keeps what it made of the same bytes: its own read's way.
        if (isSameBytes(value)) return readHere({ ...result, result: value }, job);
        store({ ...result, result: helper.adopt ? helper.adopt(value) : value, extra: job.extra });
      });
      read += data.results.length;
      parses += data.parses ?? 0;
      send();
      if (pending.size === 0) end();
    };
    worker.onerror = worker.onmessageerror = (event: Event) => {
      event.preventDefault();
      worker.terminate();
      const left = [...pending.values()].flat();
      pending.clear();
      let i = 0;
      readContentFiles(() => left[i++], readHere).then(() => resolve({ read, parses }));
    };
    send();
    send();
    if (pending.size === 0) end();
  });
}
