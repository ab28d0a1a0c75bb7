// One background worker a feature hands its jobs to; they queue for it. A job is done on this
// thread instead (`here`, the same work) when no worker can start, when the worker dies (with every
// job it still held), when it answers with an error and the pool retries errors here, and when the
// pool is stopped while jobs still wait. Used by the paperwork renderer and the report reader.

import { reportWorkerFallback } from "./worker-url";

export type TWorkerPool<TJob, TResult> = {
  /** Runs one job on the worker (or, failing that, here). */
  run(job: TJob): Promise<TResult>;
  /** Stops the worker (tests and shutdown); the jobs it still held run here instead. */
  stop(): void;
  /** How many jobs the worker itself answered (tests: proof that it ran). */
  answeredOffThread(): number;
};

type TReply = { id: number; error?: string } & Record<string, unknown>;

export function workerPool<TJob, TResult>(options: {
  /** The worker module, as `new URL("./x.worker.ts", import.meta.url).href` in the feature. */
  url: string;
  /** The message for one job (the pool adds its `id`). */
  message: (job: TJob) => Record<string, unknown>;
  /** The result in a reply, or undefined when the reply carries an error. */
  result: (reply: TReply) => TResult | undefined;
  /** The same work on this thread. */
  here: (job: TJob) => Promise<TResult>;
  /** An error answer: "retry" does the job here once; "reject" fails it with the worker's message. */
  onError: "retry" | "reject";
  /** The message of a rejected job whose reply said nothing more. */
  failure: string;
}): TWorkerPool<TJob, TResult> {
  type TPending = { job: TJob; resolve: (result: TResult) => void; reject: (error: Error) => void };
  let worker: Worker | null = null;
  let workerFailed = false;
  let nextId = 1;
  let answered = 0;
  const pending = new Map<number, TPending>();
  const doHere = (entry: TPending) => options.here(entry.job).then(entry.resolve, entry.reject);
  const handOver = () => {
    const jobs = [...pending.values()];
    pending.clear();
    for (const entry of jobs) doHere(entry);
  };

  const start = (): Worker | null => {
    if (worker || workerFailed) return worker;
    try {
      const started = new Worker(options.url);
      started.onmessage = (event: MessageEvent<TReply>) => {
        const entry = pending.get(event.data.id);
        if (!entry) return;
        pending.delete(event.data.id);
        const result = options.result(event.data);
        if (result !== undefined) {
          answered++;
          entry.resolve(result);
        } else if (options.onError === "retry") doHere(entry);
        else entry.reject(new Error(event.data.error ?? options.failure));
      };
      started.onerror = (event) => {
        // The worker could not start or crashed: from now on work here, including what it still held.
        reportWorkerFallback(options.url, event.message || "the worker stopped");
        workerFailed = true;
        started.terminate();
        if (worker === started) worker = null;
        handOver();
      };
      (started as Worker & { unref(): void }).unref();
      worker = started;
    } catch (error) {
      reportWorkerFallback(options.url, String(error));
      workerFailed = true;
    }
    return worker;
  };

  return {
    run(job) {
      const active = start();
      if (!active) return options.here(job);
      const id = nextId++;
      return new Promise<TResult>((resolve, reject) => {
        pending.set(id, { job, resolve, reject });
        active.postMessage({ ...options.message(job), id });
      });
    },
    stop() {
      worker?.terminate();
      worker = null;
      handOver();
    },
    answeredOffThread: () => answered,
  };
}
