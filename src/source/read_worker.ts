// The start-up helper: a Web Worker that reads, hashes, parses and derives
// the batches of files the loader posts to it, so a cold start uses a second
// core. It holds no state; each message is a batch of jobs, each reply their
// results.
import { type Derived, indexedPart } from "../item/derived.ts";
import { deriveFields } from "../item/derive.ts";
import { isWarning } from "./parse.ts";
import type { IndexedFile, Warning } from "./parsed_file.ts";
import { readContentFiles, type ReadJob, type ReadResult } from "./read_file.ts";

/** A batch of jobs, as the loader posts it. */
export interface HelperBatch {
  readonly id: number;
  readonly jobs: readonly ReadJob[];
  /** Whether to send each file's text back (else only what the index needs, and its fields). */
  readonly keepText: boolean;
}

/** One file's result from the helper: with a parsed file, its derived fields too. */
export type HelperResult = Omit<ReadResult, "result"> & {
  readonly result: IndexedFile | Warning;
  readonly derived?: Derived & { readonly shown: string };
};

/** A batch's results, as the helper posts them back. */
export interface HelperReply {
  readonly id: number;
  readonly results: readonly HelperResult[];
}

interface WorkerScope {
  onmessage: ((event: MessageEvent<HelperBatch>) => void) | null;
  postMessage(message: HelperReply): void;
}

const scope = globalThis as unknown as WorkerScope;
scope.onmessage = async ({ data: { id, jobs, keepText } }) => {
  const results: HelperResult[] = [];
  let i = 0;
  // Blocking reads: this thread does nothing else.
  await readContentFiles(() => jobs[i++], (read, { shown }) => {
    if (isWarning(read.result)) return void results.push(read);
    const warnings: Warning[] = [];
    const fields = deriveFields(read.result, shown, warnings);
    // Without the text, a reply is a tenth of the bytes to copy between threads.
    const result = keepText ? read.result : indexedPart(read.result);
    results.push({ ...read, result, derived: { shown, fields, warnings } });
  }, true);
  scope.postMessage({ id, results });
};
