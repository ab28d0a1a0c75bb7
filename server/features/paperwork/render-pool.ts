// One background worker draws the PDFs; requests queue for it. When a worker cannot start (an
// unusual runtime), rendering falls back to this thread, yielding between documents.
import type { TPaperworkType } from "../../../db/contracts/paperwork";
import type { TPaperworkModel } from "./paperwork.render";

/**
 * The drawing code, loaded only when this thread has to draw: jsPDF alone adds ~40 MB to the
 * resident memory of a process, and the server's thread normally hands every document to the worker.
 */
const renderHereNow = async (type: TPaperworkType, model: TPaperworkModel) =>
  (await import("./paperwork.render")).renderPaperwork(type, model);

type TPending = {
  type: TPaperworkType;
  model: TPaperworkModel;
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
};

let worker: Worker | null = null;
let workerFailed = false;
let nextId = 1;
const pending = new Map<number, TPending>();

/** Draws the worker's unfinished jobs here instead (a worker that cannot load, e.g. a missing file). */
function renderHere(jobs: TPending[]) {
  for (const job of jobs) renderHereNow(job.type, job.model).then(job.resolve, job.reject);
}

function startWorker(): Worker | null {
  if (worker || workerFailed) return worker;
  try {
    const started = new Worker(new URL("./render.worker.ts", import.meta.url).href);
    started.onmessage = (event: MessageEvent<{ id: number; bytes?: Uint8Array; error?: string }>) => {
      const job = pending.get(event.data.id);
      if (!job) return;
      pending.delete(event.data.id);
      if (event.data.bytes) job.resolve(new Uint8Array(event.data.bytes));
      else job.reject(new Error(event.data.error ?? "The document could not be drawn"));
    };
    started.onerror = () => {
      // The worker could not start or crashed: from now on draw here, including what it still held.
      workerFailed = true;
      started.terminate();
      if (worker === started) worker = null;
      const jobs = [...pending.values()];
      pending.clear();
      renderHere(jobs);
    };
    (started as Worker & { unref(): void }).unref();
    worker = started;
  } catch {
    workerFailed = true;
  }
  return worker;
}

/** Renders one document in the background worker (or, failing that, here). */
export async function renderInPool(type: TPaperworkType, model: TPaperworkModel): Promise<Uint8Array> {
  const active = startWorker();
  if (!active) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    return renderHereNow(type, model);
  }
  const id = nextId++;
  return new Promise<Uint8Array>((resolve, reject) => {
    pending.set(id, { type, model, resolve, reject });
    active.postMessage({ id, type, model });
  });
}

/** Stops the worker (tests and shutdown). */
export function stopRenderPool(): void {
  worker?.terminate();
  worker = null;
}
