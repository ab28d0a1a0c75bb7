// The import's side of contact-parse.worker.ts: starting a parse worker ahead of an import, and
// handing it the file's chunks and taking back their parsed rows, in order.
import { reportWorkerFallback, workerUrl } from "../../lib/worker-url";
import {
  ImportFileError,
  type TLookups,
  type TParsedChunk,
  type TParseReply,
  type TParseRequest,
} from "./contact-rows";

/** How many parse workers this process started (the tests check the worker really parsed). */
export const parseWorkerStats = { started: 0 };

/** A parse worker loading its modules (startParseWorker), not handed its lookups yet. */
export type TStartedParseWorker = { worker: Worker; ended: Promise<void> };

/**
 * Starts a parse worker (contact-parse.worker.ts) for an import about to begin: it loads its modules
 * (~0.1 s) while the caller prepares the database, rather than while the import waits for its first
 * rows. Null when no worker can start (the import then parses on its own thread).
 */
export function startParseWorker(): TStartedParseWorker | null {
  const specifier = workerUrl(new URL("./contact-parse.worker.ts", import.meta.url));
  let worker: Worker;
  try {
    worker = new Worker(specifier);
  } catch (error) {
    reportWorkerFallback(specifier, String(error));
    return null;
  }
  // Listened to from the start: a worker whose modules fail to load may say so before it is used.
  const ended = new Promise<void>((resolve) => {
    worker.addEventListener("error", (event) => {
      reportWorkerFallback(specifier, event.message || "the parse worker stopped");
      resolve();
    });
    worker.addEventListener("close", () => resolve());
  });
  return { worker, ended };
}

/** The main thread's side of contact-parse.worker.ts: chunks in, parsed chunks out, in order. */
export class RowParseWorker {
  private readonly replies: TParseReply[] = [];
  private waiter: ((reply: TParseReply) => void) | null = null;

  private constructor(private readonly worker: Worker) {
    worker.onmessage = (event: MessageEvent<TParseReply>) => this.receive(event.data);
    worker.onerror = (event) =>
      this.receive({
        type: "error",
        message: event.message || "the parse worker stopped",
        isFileError: false,
      });
  }

  /**
   * A worker that has loaded and taken the lookups, or null when none can (the caller parses on its
   * own thread). A worker whose modules fail to load (e.g. a compiled binary that cannot resolve one)
   * reports an error or closes instead of answering "ready".
   */
  static async start(lookups: TLookups, started: TStartedParseWorker | null): Promise<RowParseWorker | null> {
    if (!started) return null;
    const { worker, ended } = started;
    const isReady = await Promise.race([
      new Promise<boolean>((resolve) => {
        worker.onmessage = (event: MessageEvent<TParseReply>) => resolve(event.data.type === "ready");
        worker.postMessage({ type: "init", lookups } satisfies TParseRequest);
      }),
      ended.then(() => false),
    ]);
    if (!isReady) {
      worker.terminate();
      return null;
    }
    parseWorkerStats.started++;
    return new RowParseWorker(worker);
  }

  private receive(reply: TParseReply) {
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = null;
      waiter(reply);
    } else this.replies.push(reply);
  }

  push(text: string): void {
    this.worker.postMessage({ type: "chunk", text } satisfies TParseRequest);
  }

  end(): void {
    this.worker.postMessage({ type: "end" } satisfies TParseRequest);
  }

  /** The next chunk's rows; a file the parser refuses throws ImportFileError, as on this thread. */
  async next(): Promise<TParsedChunk> {
    const reply =
      this.replies.shift() ?? (await new Promise<TParseReply>((resolve) => (this.waiter = resolve)));
    if (reply.type === "error")
      throw reply.isFileError ? new ImportFileError(reply.message) : new Error(reply.message);
    if (reply.type !== "parsed") throw new Error("the parse worker answered out of turn");
    return reply;
  }

  stop(): void {
    this.worker.terminate();
  }
}
