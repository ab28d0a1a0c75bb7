// One background worker draws the PDFs; requests queue for it. When a worker cannot start (an
// unusual runtime), rendering falls back to this thread, yielding before each document.
import type { TPaperworkType } from "../../../db/contracts/paperwork";
import { workerPool } from "../../lib/worker-pool";
import { workerUrl } from "../../lib/worker-url";
import type { TPaperworkModel } from "./paperwork.render";

type TJob = { type: TPaperworkType; model: TPaperworkModel };

const pool = workerPool<TJob, Uint8Array>({
  url: workerUrl(new URL("./render.worker.ts", import.meta.url)),
  message: (job) => job,
  result: (reply) => (reply.bytes ? new Uint8Array(reply.bytes as ArrayBufferLike) : undefined),
  // The drawing code is loaded only when this thread has to draw: jsPDF alone adds ~40 MB to the
  // resident memory of a process, and the server's thread normally hands every document to the worker.
  here: async (job) => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    return (await import("./paperwork.render")).renderPaperwork(job.type, job.model);
  },
  onError: "reject",
  failure: "The document could not be drawn",
});

/** Renders one document in the background worker (or, failing that, here). */
export function renderInPool(type: TPaperworkType, model: TPaperworkModel): Promise<Uint8Array> {
  return pool.run({ type, model });
}

/** Stops the worker (tests and shutdown); documents it still held are drawn here. */
export function stopRenderPool(): void {
  pool.stop();
}
