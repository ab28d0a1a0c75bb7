// The main thread's side of screening.worker.ts: starts the worker, hands it batches of names and
// resolves each with its outcomes. Used by big jobs only (an import, a re-screen of many contacts):
// the worker builds its own index, which costs a few seconds of CPU on the other core and its own
// memory, so a single contact's save keeps screening on the main thread's index.
import type { TScreeningMatch } from "../../../db/contracts/screening";
import { reportWorkerFallback, workerUrl } from "../../lib/worker-url";
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
  /** Queries to screen in the background; their outcomes come back in order ("outcomes" replies). */
  | { type: "submit"; queries: TQuery[] }
  | { type: "screen"; id: number; queries: TQuery[] };

export type TWorkerReply =
  | { type: "ready"; lists: TListVersion[] }
  | { type: "failed"; error: string }
  /**
   * The outcomes of the next submitted queries, in the order they were submitted, and how many names
   * the worker scored for them (the others it had scored before, under any spelling).
   */
  | { type: "outcomes"; outcomes: (TOutcome | null)[]; scored: number }
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
  private readonly specifier: string;
  /** Primed names the worker had not scored yet when it answered the last batch. */
  primedWaiting = 0;
  /** Receives the outcomes of submitted queries, in submission order (see QueryScreener). */
  onOutcomes: ((outcomes: (TOutcome | null)[], scored: number) => void) | null = null;
  /** Called once if the worker fails or stops. */
  onFailure: ((error: Error) => void) | null = null;

  private constructor(url: string, authToken: string | undefined, threshold: number, isBackground: boolean) {
    this.specifier = workerUrl(new URL("./screening.worker.ts", import.meta.url));
    this.worker = new Worker(this.specifier);
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
      else if (reply.type === "outcomes") this.onOutcomes?.(reply.outcomes, reply.scored);
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
    reportWorkerFallback(this.specifier, error.message);
    this.failure = error;
    rejectReady(error);
    for (const job of this.waiting.values()) job.reject(error);
    this.waiting.clear();
    this.worker.terminate();
    this.onFailure?.(error);
  }

  /** Scores these names ahead of time (while the main thread is busy elsewhere, e.g. importing). */
  prime(names: string[]): void {
    if (!this.failure && names.length)
      this.worker.postMessage({ type: "prime", names } satisfies TWorkerRequest);
  }

  /** Screens these queries in the background; outcomes come back through `onOutcomes`, in order. */
  submit(queries: TQuery[]): void {
    if (!this.failure && queries.length)
      this.worker.postMessage({ type: "submit", queries } satisfies TWorkerRequest);
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

  /** Whether the worker failed or was stopped (it screens nothing more). */
  get isStopped(): boolean {
    return this.failure !== null;
  }

  stop(): void {
    this.worker.terminate();
    const error = new Error("the screening worker was stopped");
    for (const job of this.waiting.values()) job.reject(error);
    this.waiting.clear();
    this.failure ??= error;
    this.onFailure?.(error);
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
 * outcome, only how long a batch takes. A worker that fails to start, or fails later, is dropped and
 * the others take its names (a batch it held is screened again on them); only when every worker has
 * failed do callers get the error, and screen on their own thread as with one worker. If the workers
 * loaded different lists (a list changed while they started), `ready` fails: which lists are current
 * can't be told here, and the caller screens on its own thread.
 */
export class ScreeningWorkerPool {
  readonly ready: Promise<TListVersion[]>;
  private workers: ScreeningWorker[];

  private constructor(started: ScreeningWorker[]) {
    this.workers = started;
    this.ready = Promise.allSettled(started.map((w) => w.ready)).then((settled) => {
      const lists: TListVersion[][] = [];
      const live: ScreeningWorker[] = [];
      settled.forEach((result, i) => {
        const worker = started[i] as ScreeningWorker;
        if (result.status === "fulfilled") {
          lists.push(result.value);
          live.push(worker);
        } else worker.stop();
      });
      if (live.length === 0) throw (settled[0] as PromiseRejectedResult).reason;
      const key = JSON.stringify(lists[0]);
      if (lists.some((l) => JSON.stringify(l) !== key))
        throw new Error("the screening workers loaded different lists: a list changed while they started");
      this.workers = live;
      return lists[0] as TListVersion[];
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
    const workers = this.workers;
    const size = workers.length;
    if (size === 1) return (workers[0] as ScreeningWorker).screen(queries);
    const at: number[][] = workers.map(() => []);
    for (let i = 0; i < queries.length; i++) at[workerOfName((queries[i] as TQuery)[0], size)]?.push(i);
    const answers = await Promise.allSettled(
      at.map((positions, w) =>
        positions.length
          ? (workers[w] as ScreeningWorker).screen(positions.map((i) => queries[i] as TQuery))
          : Promise.resolve([]),
      ),
    );
    const failed = answers.findIndex((answer) => answer.status === "rejected");
    if (failed >= 0) {
      // A worker that stopped is dropped and the batch goes to the others; a batch a live worker
      // refused is the caller's error, as with one worker.
      const live = workers.filter((w) => !w.isStopped);
      if (live.length === workers.length || live.length === 0)
        throw (answers[failed] as PromiseRejectedResult).reason;
      if (this.workers === workers) this.workers = live;
      return this.screen(queries);
    }
    const outcomes = new Array<TOutcome>(queries.length);
    at.forEach((positions, w) => {
      const answer = (answers[w] as PromiseFulfilledResult<TOutcome[]>).value;
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

const queryKey = ([name, address, country]: TQuery) => `${name}\u0000${address}\u0000${country ?? ""}`;

/** Whether two workers screen against the same lists (the same versions of each). */
const sameLists = (a: TListVersion[], b: TListVersion[]) =>
  a.length === b.length && a.every((l, i) => l.source === b[i]?.source && l.checksum === b[i]?.checksum);

/**
 * When a QueryScreener may start one more worker: once `afterQueries` of its queries are answered,
 * if the workers had to score the names of at least `minShare` of them (a name scored before, under
 * any spelling, costs nothing): mostly distinct names make scoring the job's critical path, and a
 * second worker then pays for its index. Each step is checked once, in order; the first that holds
 * starts it.
 */
export type TAddWorkerPolicy = {
  steps: { afterQueries: number; minShare: number }[];
  start: () => ScreeningWorker | null;
  /** Queries a worker has at most sent and not answered while one may still be added (IN_FLIGHT). */
  inFlight?: number;
};

/**
 * Screens queries in the background on one or more workers while the caller does other work (an
 * import parsing and writing its rows), and keeps each outcome for the caller to pick up when it
 * writes the row. Identical queries are screened once; a name goes to the same worker (while the
 * workers are the same), so the workers' name caches do not overlap. Used by the contacts import
 * (decision 009). With an `addWorker` policy, it may start one more worker as it goes.
 */
export class QueryScreener {
  /** The lists every worker screens against (they must agree), or null if none could start. */
  readonly ready: Promise<TListVersion[] | null>;
  private readonly outcomes = new Map<string, TOutcome>();
  /** Per worker, the keys of the queries submitted and not answered yet, in order. */
  private readonly inFlight: string[][];
  private readonly inFlightAt: number[];
  /**
   * Per worker, the queries (and their keys) not sent yet, from unsentAt on: while a worker may still
   * be added, each has at most IN_FLIGHT sent and not answered, so the added one takes its share of
   * the rest.
   */
  private unsent: TQuery[][];
  private unsentKeys: string[][];
  private unsentAt: number[];
  /** A worker added and not ready yet (names do not go to it before). */
  private isAdding = false;
  private waiters: { keys: string[]; resolve: (known: boolean) => void }[] = [];
  private failed = false;
  /** The workers names go to (by index in `workers`): all but one added and not ready yet. */
  private readonly routes: number[];
  /** Queries answered, and names the workers scored for them (see TAddWorkerPolicy). */
  private answered = 0;
  private scored = 0;
  private addSteps: TAddWorkerPolicy["steps"];
  /** Workers started as the job went (see TAddWorkerPolicy), for the tests and the logs. */
  added = 0;
  /** Queries each worker answered (by index: the added one last), for the tests and the logs. */
  readonly answeredBy: number[] = [];

  /** How many workers names go to now. */
  get routed(): number {
    return this.routes.length;
  }

  constructor(
    private readonly workers: ScreeningWorker[],
    private readonly addWorker?: TAddWorkerPolicy,
  ) {
    this.inFlight = [];
    this.inFlightAt = [];
    this.unsent = [];
    this.unsentKeys = [];
    this.unsentAt = [];
    this.routes = workers.map((_, w) => w);
    this.addSteps = addWorker?.steps ?? [];
    workers.forEach((worker, w) => {
      this.attach(worker, w);
    });
    this.ready = workers.length
      ? Promise.all(workers.map((w) => w.ready)).then(
          (all) => {
            const first = all[0] as TListVersion[];
            const same = all.every((lists) => sameLists(lists, first));
            if (!same) this.fail();
            return same ? first : null;
          },
          () => {
            this.fail();
            return null;
          },
        )
      : Promise.resolve(null);
  }

  private attach(worker: ScreeningWorker, w: number) {
    this.inFlight[w] = [];
    this.inFlightAt[w] = 0;
    this.unsent[w] = [];
    this.unsentKeys[w] = [];
    this.unsentAt[w] = 0;
    this.answeredBy[w] = 0;
    worker.onOutcomes = (outcomes, scored) => this.receive(w, outcomes, scored);
    // A worker names went to takes their outcomes with it; one added and not ready yet, nothing.
    worker.onFailure = () => {
      if (this.routes.includes(w)) this.fail();
    };
  }

  /** Starts one more worker; names go to it too once it is ready with the same lists as the others. */
  private add(start: () => ScreeningWorker | null) {
    const worker = start();
    if (!worker) return;
    const w = this.workers.length;
    this.workers.push(worker);
    this.attach(worker, w);
    this.added++;
    this.isAdding = true;
    Promise.all([this.ready, worker.ready])
      .then(
        ([lists, theirs]) => {
          if (!this.failed && lists && sameLists(theirs, lists)) {
            this.routes.push(w);
            this.reroute();
          } else worker.stop();
        },
        () => worker.stop(),
      )
      .finally(() => {
        this.isAdding = false;
        // No more rerouting: the workers have all they can take from now on.
        this.flush();
      });
  }

  /**
   * Queues a query (once: an identical one already queued or known is not screened again); returns
   * the key its outcome is kept under.
   */
  submit(query: TQuery): string {
    const key = queryKey(query);
    if (this.failed || this.outcomes.has(key) || this.queued.has(key)) return key;
    this.queued.add(key);
    this.submitted++;
    const w = this.routes[workerOfName(query[0], this.routes.length)] as number;
    (this.unsent[w] as TQuery[]).push(query);
    (this.unsentKeys[w] as string[]).push(key);
    if ((this.unsent[w] as TQuery[]).length - (this.unsentAt[w] as number) >= SUBMIT_BATCH)
      this.send(w, false);
    return key;
  }

  /**
   * Sends worker `w` its unsent queries, in batches of SUBMIT_BATCH (with `partial`, the last one
   * smaller), while it has fewer than IN_FLIGHT not answered.
   */
  private send(w: number, partial: boolean) {
    const queries = this.unsent[w] as TQuery[];
    const keys = this.unsentKeys[w] as string[];
    const inFlight = this.inFlight[w] as string[];
    const cap = this.addSteps.length || this.isAdding ? (this.addWorker?.inFlight ?? IN_FLIGHT) : Infinity;
    let room = cap - (inFlight.length - (this.inFlightAt[w] as number));
    let at = this.unsentAt[w] as number;
    while (room > 0 && queries.length - at >= (partial ? 1 : SUBMIT_BATCH)) {
      const n = Math.min(SUBMIT_BATCH, room, queries.length - at);
      this.workers[w]?.submit(queries.slice(at, at + n));
      for (let i = at; i < at + n; i++) inFlight.push(keys[i] as string);
      at += n;
      room -= n;
    }
    // The sent ones are dropped now and then, not at every send.
    if (at === queries.length) {
      this.unsent[w] = [];
      this.unsentKeys[w] = [];
      at = 0;
    } else if (at > 4096 && at * 2 > queries.length) {
      this.unsent[w] = queries.slice(at);
      this.unsentKeys[w] = keys.slice(at);
      at = 0;
    }
    this.unsentAt[w] = at;
  }

  /** The unsent queries routed again over the workers names go to now (one was added), and sent. */
  private reroute() {
    const queries = this.unsent.flatMap((list, w) => list.slice(this.unsentAt[w]));
    const keys = this.unsentKeys.flatMap((list, w) => list.slice(this.unsentAt[w]));
    this.unsent = this.unsent.map(() => []);
    this.unsentKeys = this.unsentKeys.map(() => []);
    this.unsentAt = this.unsentAt.map(() => 0);
    queries.forEach((query, i) => {
      const w = this.routes[workerOfName(query[0], this.routes.length)] as number;
      (this.unsent[w] as TQuery[]).push(query);
      (this.unsentKeys[w] as string[]).push(keys[i] as string);
    });
    this.flush();
  }
  private readonly queued = new Set<string>();
  /** How many distinct queries were sent to the workers. */
  submitted = 0;

  /**
   * Sends the queries queued so far, as far as the workers have room (call when the caller is about
   * to wait or stop submitting); the rest go as the workers answer.
   */
  flush(): void {
    for (let w = 0; w < this.workers.length; w++) this.send(w, true);
  }

  /** The outcome of a submitted query (by the key submit gave), if it is back. */
  outcome(key: string): TOutcome | undefined {
    return this.outcomes.get(key);
  }

  /** Whether the outcome of every one of these submitted queries is back. */
  isKnown(keys: string[]): boolean {
    for (const key of keys) if (!this.outcomes.has(key)) return false;
    return true;
  }

  /** Resolves true when every one of these submitted queries is known, false if a worker failed. */
  whenKnown(submitted: string[]): Promise<boolean> {
    if (this.failed) return Promise.resolve(false);
    const keys = submitted.filter((key) => !this.outcomes.has(key));
    if (!keys.length) return Promise.resolve(true);
    this.flush();
    return new Promise((resolve) => this.waiters.push({ keys, resolve }));
  }

  /** How many submitted queries are not back yet. */
  get backlog(): number {
    return this.inFlight.reduce(
      (n, keys, w) =>
        n +
        keys.length -
        (this.inFlightAt[w] as number) +
        (this.unsent[w]?.length ?? 0) -
        (this.unsentAt[w] as number),
      0,
    );
  }

  private receive(w: number, outcomes: (TOutcome | null)[], scored: number) {
    this.answered += outcomes.length;
    this.answeredBy[w] = (this.answeredBy[w] ?? 0) + outcomes.length;
    this.scored += scored;
    while (this.addSteps.length && this.answered >= (this.addSteps[0]?.afterQueries ?? 0)) {
      const step = this.addSteps.shift() as TAddWorkerPolicy["steps"][number];
      if (this.scored >= step.minShare * this.answered && this.addWorker && !this.failed) {
        this.addSteps = [];
        this.add(this.addWorker.start);
      }
    }
    const keys = this.inFlight[w] as string[];
    let at = this.inFlightAt[w] as number;
    for (const outcome of outcomes) {
      const key = keys[at++] as string;
      this.queued.delete(key);
      this.outcomes.set(key, outcome ?? CLEAN_OUTCOME);
    }
    // The answered keys are dropped now and then, not one by one (shift() is linear).
    if (at > 4096 && at * 2 > keys.length) {
      this.inFlight[w] = keys.slice(at);
      at = 0;
    }
    this.inFlightAt[w] = at;
    // Room for more: what is queued for this worker goes now.
    this.send(w, true);
    if (this.waiters.length) {
      this.waiters = this.waiters.filter((waiter) => {
        while (waiter.keys.length && this.outcomes.has(waiter.keys[waiter.keys.length - 1] as string))
          waiter.keys.pop();
        if (waiter.keys.length) return true;
        waiter.resolve(true);
        return false;
      });
    }
  }

  private fail() {
    if (this.failed) return;
    this.failed = true;
    for (const waiter of this.waiters) waiter.resolve(false);
    this.waiters = [];
  }

  /** Stops the workers. */
  stop(): void {
    this.fail();
    for (const worker of this.workers) worker.stop();
  }

  /**
   * Stops the workers once each has loaded (or failed), waiting at most `timeoutMs`: a worker
   * terminated while its database connection opens can abort the whole process (a native call still
   * in flight on its thread; seen as exit 134 after an import that wrote nothing and ended at once).
   */
  async stopWhenLoaded(timeoutMs = 5_000): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled(this.workers.map((worker) => worker.ready)),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    this.stop();
  }
}

/** Queries sent to a worker per message. */
const SUBMIT_BATCH = 200;
/**
 * Queries a worker has at most sent and not answered while another may still be added: more than it
 * scores between two of the import's turns of the event loop (~0.1 s of writes; 3,000 of the bench
 * file's names take ~0.15 s), few enough that the added worker takes most of what is left.
 */
const IN_FLIGHT = 3_000;
