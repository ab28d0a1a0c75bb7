// Reads a workspace's report lines for the pivot worker on a thread of its own: the SQL pages and
// their encoding as Arrow (the same stream /api/reports-data sends) happen here while the pivot
// worker appends the batches before them to DuckDB, so a load costs the longer of the two, not
// their sum. At most PIVOT_LINES_AHEAD chunks are in flight: the reader waits for the pivot worker.
import { createClient } from "@libsql/client";
import { reportRowSource } from "../report-row-source";
import { reportArrowStream } from "../reports.service";
import type { TPivotLinesIn, TPivotLinesOut } from "./pivot-protocol";

declare const self: Worker;

/** Chunks of the stream sent and not yet taken by the pivot worker, at most. */
export const PIVOT_LINES_AHEAD = 2;

/** Chunks sent between two garbage collections. */
const GC_EVERY_CHUNKS = 4;

const post = (message: TPivotLinesOut, transfer: Transferable[] = []) => self.postMessage(message, transfer);

let taken: (() => void) | null = null;
let inFlight = 0;

self.onmessage = (event: MessageEvent<TPivotLinesIn>) => {
  const message = event.data;
  if (message.type === "taken") {
    inFlight--;
    taken?.();
    taken = null;
    return;
  }
  void (async () => {
    const client = createClient({ url: message.databaseUrl, authToken: message.authToken });
    try {
      const stream = await reportArrowStream(
        client,
        reportRowSource(client, message.databaseUrl),
        message.workspaceId,
        { names: "labels", pageSize: message.pageSize },
      );
      let chunks = 0;
      for await (const chunk of stream) {
        while (inFlight >= PIVOT_LINES_AHEAD) await new Promise<void>((resolve) => (taken = resolve));
        inFlight++;
        const bytes = chunk.slice().buffer as ArrayBuffer;
        post({ type: "chunk", bytes }, [bytes]);
        // A page's rows and lines are garbage once sent: collected every few pages, this thread's
        // heap stays near one page (left to itself it grew by hundreds of MB).
        if (++chunks % GC_EVERY_CHUNKS === 0) {
          Bun.gc(true);
        }
      }
      post({ type: "end" });
    } catch (error) {
      post({ type: "failed", message: error instanceof Error ? error.message : String(error) });
    } finally {
      client.close();
    }
  })();
};
