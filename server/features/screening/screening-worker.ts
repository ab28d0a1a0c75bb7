// The main thread's side of screening.worker.ts: starts the worker, hands it batches of names and
// resolves each with its outcomes. Used by big jobs only (an import, a re-screen of many contacts):
// the worker builds its own index, which costs a few seconds of CPU on the other core and its own
// memory, so a single contact's save keeps screening on the main thread's index.
import type { TScreeningMatch } from "../../../db/contracts/screening";
import type { ScreenResult } from "./engine";
import { indexCacheDir } from "./index-cache";
import type { TListVersion } from "./lists.service";

/** One contact's outcome, as recorded (matches in their stored form). */
export type TOutcome = Pick<ScreenResult, "status" | "multiple" | "bestScore"> & {
  matches: TScreeningMatch[];
};

/** What a passed name with nothing near it is recorded as (the worker sends such outcomes as null). */
export const CLEAN_OUTCOME: TOutcome = { status: "passed", multiple: false, bestScore: 0, matches: [] };

/** [name, address, country code]. */
export type TQuery = [name: string, address: string, country: string | undefined];

export type TWorkerRequest =
  | {
      type: "init";
      url: string;
      authToken?: string;
      threshold: number;
      isBackground?: boolean;
      cacheDir?: string;
    }
  | { type: "prime"; names: string[] }
  | { type: "screen"; id: number; queries: TQuery[] };

export type TWorkerReply =
  | { type: "ready"; lists: TListVersion[] }
  | { type: "failed"; error: string }
  | {
      type: "screened";
      id: number;
      outcomes?: (TOutcome | null)[];
      error?: string;
      /** Primed names not scored yet when this batch was answered (a batch never waits behind them). */
      waiting?: number;
    };

export const compactMatches = (result: ScreenResult): TScreeningMatch[] =>
  result.matches.map((m) => ({
    source_list: m.entry.sourceList,
    source_id: m.entry.sourceId,
    entity_type: m.entry.entityType,
    name: m.entry.name,
    matched_name: m.matchedName,
    score: Math.round(m.score * 1000) / 1000,
    programs: m.entry.programs,
    countries: m.entry.countries,
    addresses: m.entry.addresses.slice(0, 3),
  }));

/** A screening worker over the database at `url`; `ready` resolves with the lists it screens against. */
export class ScreeningWorker {
  /** The active lists the worker's index holds (empty: nothing can be screened). */
  readonly ready: Promise<TListVersion[]>;
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (o: TOutcome[]) => void; reject: (e: Error) => void }
  >();
  private failure: Error | null = null;
  /** Primed names the worker had not scored yet when it answered the last batch. */
  primedWaiting = 0;

  private constructor(url: string, authToken: string | undefined, threshold: number, isBackground: boolean) {
    this.worker = new Worker(new URL("./screening.worker.ts", import.meta.url).href);
    let settle!: { resolve: (lists: TListVersion[]) => void; reject: (e: Error) => void };
    this.ready = new Promise((resolve, reject) => {
      settle = { resolve, reject };
    });
    // Nobody may be waiting on it yet; a failure still reaches every caller of screen().
    this.ready.catch(() => {});
    this.worker.onmessage = (event: MessageEvent<TWorkerReply>) => {
      const reply = event.data;
      if (reply.type === "ready") settle.resolve(reply.lists);
      else if (reply.type === "failed") this.fail(new Error(reply.error), settle.reject);
      else {
        const job = this.waiting.get(reply.id);
        if (!job) return;
        this.waiting.delete(reply.id);
        this.primedWaiting = reply.waiting ?? 0;
        if (reply.outcomes) job.resolve(reply.outcomes.map((o) => o ?? CLEAN_OUTCOME));
        else job.reject(new Error(reply.error ?? "screening failed"));
      }
    };
    this.worker.onerror = (event) =>
      this.fail(new Error(event.message || "the screening worker stopped"), settle.reject);
    const cacheDir = indexCacheDir();
    this.worker.postMessage({
      type: "init",
      url,
      authToken,
      threshold,
      isBackground,
      cacheDir,
    } satisfies TWorkerRequest);
  }

  /**
   * Starts a worker, or null when this runtime cannot (the caller screens on its own thread). A
   * `background` worker (in a server) runs at a lower scheduling priority, so the event loop and an
   * import's own thread get the cores first when requests come in.
   */
  static start(
    url: string,
    authToken: string | undefined,
    threshold: number,
    options: { background?: boolean } = {},
  ): ScreeningWorker | null {
    try {
      return new ScreeningWorker(url, authToken, threshold, Boolean(options.background));
    } catch {
      return null;
    }
  }

  private fail(error: Error, rejectReady: (e: Error) => void) {
    this.failure = error;
    rejectReady(error);
    for (const job of this.waiting.values()) job.reject(error);
    this.waiting.clear();
    this.worker.terminate();
  }

  /** Scores these names ahead of time (while the main thread is busy elsewhere, e.g. importing). */
  prime(names: string[]): void {
    if (!this.failure && names.length)
      this.worker.postMessage({ type: "prime", names } satisfies TWorkerRequest);
  }

  /** The outcome of each query, in order. */
  screen(queries: TQuery[]): Promise<TOutcome[]> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ type: "screen", id, queries } satisfies TWorkerRequest);
    });
  }

  stop(): void {
    this.worker.terminate();
    const error = new Error("the screening worker was stopped");
    for (const job of this.waiting.values()) job.reject(error);
    this.waiting.clear();
  }
}

/** What a big job screens on: one worker, or a pool of them (the calls a job makes). */
export type TBatchScreener = Pick<ScreeningWorker, "ready" | "prime" | "screen" | "stop" | "primedWaiting">;

/** Which of `size` workers screens a name: always the same one, so its name cache serves every repeat. */
export function workerOfName(name: string, size: number): number {
  if (size === 1) return 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return (h >>> 0) % size;
}

/**
 * Several screening workers, each with its own index (loaded from the stored index file), sharing
 * every batch: both cores score names for one big job. A name always goes to the same worker, so a
 * name repeated across the contacts is still scored once; outcomes come back in the batch's order.
 * Each worker answers exactly as one alone would (same engine, same lists), so the pool changes no
 * outcome, only how long a batch takes. If the workers loaded different lists (a list changed while
 * they started), `ready` fails and the caller screens on its own thread, as when a worker fails.
 */
export class ScreeningWorkerPool {
  readonly ready: Promise<TListVersion[]>;

  private constructor(private readonly workers: ScreeningWorker[]) {
    this.ready = Promise.all(workers.map((w) => w.ready)).then((all) => {
      const first = all[0] ?? [];
      const key = JSON.stringify(first);
      if (all.some((lists) => JSON.stringify(lists) !== key))
        throw new Error("the screening workers loaded different lists: a list changed while they started");
      return first;
    });
    this.ready.catch(() => {});
  }

  /**
   * Starts `workers` screening workers (default 1; see ScreeningWorker.start), or null when none can
   * start. Each holds its own index: ~0.2 s to load the stored file and its own memory.
   */
  static start(
    url: string,
    authToken: string | undefined,
    threshold: number,
    options: { background?: boolean; workers?: number } = {},
  ): ScreeningWorkerPool | null {
    const workers: ScreeningWorker[] = [];
    for (let i = 0; i < Math.max(1, options.workers ?? 1); i++) {
      const worker = ScreeningWorker.start(url, authToken, threshold, options);
      if (worker) workers.push(worker);
    }
    return workers.length ? new ScreeningWorkerPool(workers) : null;
  }

  /** How many workers share each batch. */
  get size(): number {
    return this.workers.length;
  }

  /** Primed names the workers had not scored yet when they answered their last batches. */
  get primedWaiting(): number {
    let waiting = 0;
    for (const worker of this.workers) waiting += worker.primedWaiting;
    return waiting;
  }

  prime(names: string[]): void {
    const size = this.workers.length;
    const parts: string[][] = this.workers.map(() => []);
    for (const name of names) parts[workerOfName(name, size)]?.push(name);
    for (let i = 0; i < size; i++) this.workers[i]?.prime(parts[i] as string[]);
  }

  /** The outcome of each query, in order. */
  async screen(queries: TQuery[]): Promise<TOutcome[]> {
    const size = this.workers.length;
    if (size === 1) return (this.workers[0] as ScreeningWorker).screen(queries);
    const at: number[][] = this.workers.map(() => []);
    for (let i = 0; i < queries.length; i++) at[workerOfName((queries[i] as TQuery)[0], size)]?.push(i);
    const answers = await Promise.all(
      at.map((positions, w) =>
        positions.length
          ? (this.workers[w] as ScreeningWorker).screen(positions.map((i) => queries[i] as TQuery))
          : Promise.resolve([]),
      ),
    );
    const outcomes = new Array<TOutcome>(queries.length);
    at.forEach((positions, w) => {
      const answer = answers[w] as TOutcome[];
      positions.forEach((i, k) => {
        outcomes[i] = answer[k] as TOutcome;
      });
    });
    return outcomes;
  }

  stop(): void {
    for (const worker of this.workers) worker.stop();
  }
}
