// The start-up helper: a Web Worker that reads, hashes and parses the
// batches of files the loader posts to it, and derives their fields as the
// main thread's `prepare` (content_files.ts) does, so a cold start uses a second core. It holds
// no state; each message is a batch of jobs, each reply their results.
import { indexFile } from "../fields/index_file.ts";
import type { PageContext } from "../fields/page.ts";
import type { HelperBatch, HelperReply } from "../source/worker_pool.ts";
import type { IndexedFile } from "../fields/indexed_file.ts";
import { isWarning } from "../source/parse.ts";
import type { CommitDates } from "../source/git.ts";
import { isSameBytes, readContentFiles } from "../source/read_file.ts";
import { textWork } from "../util/work_counts.ts";

/** What the pipeline sends with each batch (the loader's `helper.data`). */
export interface ReadWorkerData {
  /** Keep each file's body (a snapshot) or let it go (a server). */
  readonly keepBody: boolean;
  /** Each plugin's author keys and names (its `authors` file). */
  readonly authorNames?: Readonly<Record<string, ReadonlyMap<string, string>>>;
  /** What each plugin's generator and variant say of its files' pages (SPEC 16). */
  readonly pages?: Readonly<Record<string, PageContext>>;
}

interface WorkerScope {
  onmessage: ((event: MessageEvent<HelperBatch>) => void) | null;
  postMessage(message: HelperReply<IndexedFile>): void;
}

const scope = globalThis as unknown as WorkerScope;
scope.onmessage = async ({ data: { id, jobs, data } }) => {
  const { keepBody, authorNames, pages } = data as ReadWorkerData;
  const results: HelperReply<IndexedFile>["results"][number][] = [];
  const parsesBefore = textWork.parses;
  let i = 0;
  // Blocking reads: this thread does nothing else.
  await readContentFiles(() => jobs[i++], (read, { shown, plugin, extra }) => {
    if (isWarning(read.result) || isSameBytes(read.result)) {
      return void results.push({ ...read, result: read.result });
    }
    const context = {
      authorNames: authorNames?.[plugin],
      git: extra as CommitDates | undefined,
      ...pages?.[plugin],
    };
    results.push({ ...read, result: indexFile(read.result, shown, { keepBody, context }) });
  }, true);
  scope.postMessage({ id, results, parses: textWork.parses - parsesBefore });
};
