// Draws paperwork off the main thread: a 100-line invoice is 100+ ms of CPU, which would otherwise
// stall every other request of the process while it runs.
import type { TPaperworkType } from "../../../db/contracts/paperwork";
import { renderPaperwork, type TPaperworkModel } from "./paperwork.render";

declare const self: Worker;

self.onmessage = async (
  event: MessageEvent<{ id: number; type: TPaperworkType; model: TPaperworkModel }>,
) => {
  const { id, type, model } = event.data;
  try {
    const bytes = await renderPaperwork(type, model);
    self.postMessage({ id, bytes }, [bytes.buffer]);
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
