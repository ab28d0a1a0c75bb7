// The pivot worker: DuckDB and the connections' virtual servers (pivot-engine.ts) off the main
// thread, so loading a million lines or grouping them never holds another request. Messages are
// tagged by connection id; each connection's requests are answered in order.
import { PivotEngine, type TPivotSource } from "./pivot-engine";
import type { TPivotIn, TPivotOut } from "./pivot-protocol";

declare const self: Worker;

let engine: Promise<PivotEngine> | null = null;
const queues = new Map<number, Promise<void>>();

const post = (message: TPivotOut, transfer: Transferable[] = []) => self.postMessage(message, transfer);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs `work` after connection `id`'s earlier work: one request at a time per connection. */
function inOrder(id: number, work: () => Promise<void>): void {
  const next = (queues.get(id) ?? Promise.resolve()).then(work, work);
  queues.set(id, next);
}

self.onmessage = (event: MessageEvent<TPivotIn>) => {
  const message = event.data;
  if (message.type === "source") {
    const source: TPivotSource = {
      databaseUrl: message.databaseUrl,
      authToken: message.authToken,
      // Nothing loaded and nobody connected: the main thread may stop this worker (DuckDB's memory
      // goes with it) and start another for the next report.
      onIdle: () => post({ type: "idle" }),
    };
    engine ??= PivotEngine.start(source);
    engine.catch(() => {
      engine = null;
    });
    return;
  }
  if (message.type === "stop") {
    // Nothing is loaded or connected (the main thread sends no more): DuckDB's native memory is
    // handed back before the worker ends.
    const stopping = engine;
    engine = null;
    void (stopping ?? Promise.reject(new Error("no engine")))
      .then((started) => started.stop())
      .catch(() => undefined)
      .finally(() => post({ type: "stopped" }));
    return;
  }
  if (message.type === "warm") {
    // Errors show when a connection opens: a warm-up only saves it the wait.
    void engine?.then((started) => started.warm(message.workspaceId)).catch(() => undefined);
    return;
  }
  const { id } = message;
  if (message.type === "open") {
    inOrder(id, async () => {
      try {
        if (!engine) throw new Error("The pivot service has no database");
        await (await engine).open(id, message.workspaceId);
        post({ type: "opened", id });
      } catch (error) {
        post({ type: "failed", id, message: messageOf(error) });
      }
    });
  } else if (message.type === "request") {
    inOrder(id, async () => {
      try {
        if (!engine) throw new Error("The pivot service has no database");
        const bytes = await (await engine).handle(id, new Uint8Array(message.bytes));
        const buffer = bytes.buffer as ArrayBuffer;
        post({ type: "response", id, bytes: buffer }, [buffer]);
      } catch (error) {
        post({ type: "failed", id, message: messageOf(error) });
      }
    });
  } else if (message.type === "close") {
    inOrder(id, async () => {
      queues.delete(id);
      // A close that fails (DuckDB already closed) has nothing left to answer.
      if (engine) await (await engine).close(id).catch(() => undefined);
    });
  }
};
