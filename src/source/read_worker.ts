// The start-up helper: a Web Worker that reads, hashes and parses the batches
// of files the loader posts to it, so a cold start uses a second core. It
// holds no state; each message is a batch of jobs, each reply their results.
import { readContentFiles, type ReadJob, type ReadResult } from "./read_file.ts";

/** A batch of jobs, as the loader posts it. */
export interface HelperBatch {
  readonly id: number;
  readonly jobs: readonly ReadJob[];
}

/** A batch's results, as the helper posts them back. */
export interface HelperReply {
  readonly id: number;
  readonly results: readonly ReadResult[];
}

interface WorkerScope {
  onmessage: ((event: MessageEvent<HelperBatch>) => void) | null;
  postMessage(message: HelperReply): void;
}

const scope = globalThis as unknown as WorkerScope;
scope.onmessage = async ({ data: { id, jobs } }) => {
  const results: ReadResult[] = [];
  let i = 0;
  // Blocking reads: this thread does nothing else.
  await readContentFiles(() => jobs[i++], 32, (result) => results.push(result), true);
  scope.postMessage({ id, results });
};
