// The main thread's side of the pivot worker: one worker per process, started with the first report
// connection, and the connections' frames relayed to it and back, tagged by connection id. The
// worker holds DuckDB; this thread only passes bytes.
import { reportWorkerFallback, workerUrl } from "../../../lib/worker-url";
import type { TPivotIn, TPivotOut } from "./pivot-protocol";

export type TPivotSourceConfig = { databaseUrl: string; authToken?: string };

/** One open report connection: its requests go to the worker; answers and failures come back. */
export type TPivotConnection = {
  request(bytes: Uint8Array): void;
  close(): void;
};

type TListener = { onResponse(bytes: Uint8Array): void; onFailure(message: string): void };

let worker: Worker | null = null;
let nextId = 1;
const listeners = new Map<number, TListener>();

let lastPost = 0;

function post(message: TPivotIn, transfer: Transferable[] = []) {
  lastPost = performance.now();
  worker?.postMessage(message, transfer);
}

/** Every open connection fails (the worker stopped); the next opener starts a new worker. */
function failAll(message: string) {
  worker = null;
  const open = [...listeners.values()];
  listeners.clear();
  for (const listener of open) listener.onFailure(message);
}

function start(source: TPivotSourceConfig): Worker {
  if (worker) return worker;
  const url = workerUrl(new URL("./pivot.worker.ts", import.meta.url));
  const started = new Worker(url);
  started.onmessage = (event: MessageEvent<TPivotOut>) => {
    const message = event.data;
    if (message.type === "idle") {
      // Stopped only when nothing was asked of it since: a connection or a warm-up on its way
      // keeps it. It closes DuckDB (its memory is native, outside the worker's heap) before it
      // ends; the next report starts a new one (a tenth of a second).
      if (listeners.size === 0 && performance.now() - lastPost > 1000 && worker === started) {
        worker = null;
        started.postMessage({ type: "stop" } satisfies TPivotIn);
      }
      return;
    }
    if (message.type === "stopped") {
      started.terminate();
      return;
    }
    const listener = listeners.get(message.id);
    if (!listener) return;
    if (message.type === "response") listener.onResponse(new Uint8Array(message.bytes));
    else if (message.type === "failed") listener.onFailure(message.message);
  };
  started.onerror = (event) => {
    reportWorkerFallback(url, event.message);
    started.terminate();
    if (worker === started) failAll("The report service stopped; open the report again");
  };
  worker = started;
  post({ type: "source", databaseUrl: source.databaseUrl, authToken: source.authToken });
  return started;
}

/** Opens a report connection over the workspace's lines (loaded, or refreshed, by the worker). */
export function openPivotConnection(
  source: TPivotSourceConfig,
  workspaceId: number,
  listener: TListener,
): TPivotConnection {
  start(source);
  const id = nextId++;
  listeners.set(id, listener);
  post({ type: "open", id, workspaceId });
  return {
    request(bytes) {
      if (!listeners.has(id)) return;
      const copy = bytes.slice().buffer as ArrayBuffer;
      post({ type: "request", id, bytes: copy }, [copy]);
    },
    close() {
      if (!listeners.delete(id)) return;
      post({ type: "close", id });
    },
  };
}

/**
 * Starts loading the workspace's lines into the pivot worker (a page that will connect is on its
 * way: the /reports render asks for its columns first).
 */
export function warmPivot(source: TPivotSourceConfig, workspaceId: number): void {
  start(source);
  post({ type: "warm", workspaceId });
}

/** Stops the worker (tests and shutdown): open connections fail. */
export function stopPivotService(): void {
  const stopping = worker;
  if (!stopping) return;
  failAll("The report service stopped");
  stopping.terminate();
}
