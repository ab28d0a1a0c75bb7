import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { contacts, countries, users } from "../../../db/schema";
import { yieldToLoop } from "../../lib/event-loop";
import type { TLogger } from "../../lib/logger";
import { type NameHit, scoreNameCached } from "./engine";
import type { TListVersion } from "./lists.service";
import {
  contactAddress,
  NAME_CACHE_LIMIT,
  pendingAmong,
  screenContacts,
  type TChangeReason,
  type TScreenBatchOptions,
  type TScreenBatchResult,
  type TScreenItem,
  type TScreeningDeps,
} from "./screening.service";
import type { TBatchScreener, TOutcome, TQuery } from "./screening-worker";

export type TRescreenState = {
  isRunning: boolean;
  reason: string | null;
  total: number;
  done: number;
  changed: number;
  failed: number;
  started_at: string | null;
  finished_at: string | null;
};

/** Contacts per write transaction: one read, three writes and one commit for this many. */
const CHUNK = 500;
/** Longest stretch of screening between two yields to the event loop. */
const SLICE_MS = 10;
/**
 * Contacts per write transaction when a worker screens (this thread only reads and writes): small
 * in a server, where each chunk's statements hold the event loop while they run; a CLI, which serves
 * nobody, passes a bigger one (fewer commits).
 */
const WORKER_CHUNK = 250;
/** Runs over at least this many contacts screen on a worker of their own (when the job can start one). */
export const WORKER_MIN_CONTACTS = 2_000;

export type TRescreenOptions = {
  /** Explains each changed outcome (list re-imports: new entry, removed entry, changed alias). */
  changeReason?: TChangeReason;
  /** Screens on this worker (the caller's, left running) instead of this thread's index. */
  worker?: TBatchScreener;
  /**
   * Screens only the contacts still marked pending when the run starts: runs that exist to clear
   * pending marks (the sweep, the screening after an import) may be queued for the same contacts
   * (the sweep fired between an import's commit and its own run), and each contact is screened once.
   */
  pendingOnly?: boolean;
};

/**
 * Of these contacts, those still marked pending, in their order. Read in slices with a yield in
 * between: libSQL reads synchronously, and 100,000 ids read back to back held the event loop for
 * ~0.5 s (the stall test's worst /api/health during an import's screening).
 */
async function stillPending(db: TDb, contactIds: number[]): Promise<number[]> {
  const pending = new Set<number>();
  for (let at = 0; at < contactIds.length; at += PENDING_SLICE) {
    if (at > 0) await yieldToLoop();
    for (const id of await pendingAmong(db, contactIds.slice(at, at + PENDING_SLICE))) pending.add(id);
  }
  return contactIds.filter((id) => pending.has(id));
}
const PENDING_SLICE = 2_000;

/** Contacts whose newest screening is older than their last change (or who have none), by id. */
export async function staleContactIds(db: TDb, workspaceId?: number): Promise<number[]> {
  const rows = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      and(
        workspaceId ? eq(contacts.workspace_id, workspaceId) : undefined,
        sql`not exists (select 1 from contact_screening_results r where r.contact_id = ${contacts.id} and r.created_at >= ${contacts.updated_at})`,
      ),
    );
  return rows.map((r) => r.id);
}

/** Every contact of every workspace (after a list import everything is screened again). */
export async function allContactIds(db: TDb): Promise<number[]> {
  // A page at a time with a yield in between: one read of every id holds the server (see pendingContactIds).
  const ids: number[] = [];
  for (;;) {
    const rows = await db
      .select({ id: contacts.id })
      .from(contacts)
      .where(ids.length ? gt(contacts.id, ids[ids.length - 1] as number) : undefined)
      .orderBy(contacts.id)
      .limit(ID_PAGE);
    for (const row of rows) ids.push(row.id);
    if (rows.length < ID_PAGE) return ids;
    await yieldToLoop();
  }
}

const ID_PAGE = 2_000;

/**
 * Screens many contacts in the background, a batch at a time with a yield in between so requests
 * keep being served. One job runs at a time; its progress is readable while it runs.
 */
export class RescreenJob {
  state: TRescreenState = {
    isRunning: false,
    reason: null,
    total: 0,
    done: 0,
    changed: 0,
    failed: 0,
    started_at: null,
    finished_at: null,
  };
  /** The changed outcomes of the last run, in the order they were screened. */
  changes: TScreenBatchResult["changed"] = [];
  private queue: Promise<void> = Promise.resolve();
  private options: TScreenBatchOptions = {};
  private worker: TBatchScreener | undefined;

  constructor(
    private readonly deps: TScreeningDeps,
    private readonly logger: TLogger,
    /** Runs in each chunk's write transaction with the chunk's contact ids (e.g. clears a pending flag). */
    private readonly inTransaction?: TScreenBatchOptions["inTransaction"],
    /**
     * Starts a screening worker (or a pool of them, see ScreeningWorkerPool) for a run of
     * WORKER_MIN_CONTACTS or more, given the run's size (stopped when the run ends).
     */
    private readonly startWorker?: (contacts: number) => TBatchScreener | null,
    /** Contacts per write transaction when screening on a worker. */
    private readonly workerChunk = WORKER_CHUNK,
  ) {}

  /** Queues a run over these contacts; resolves when it has finished. */
  run(
    contactIds: number[],
    reason: string,
    onProgress?: (state: TRescreenState) => void,
    options: TRescreenOptions = {},
  ): Promise<TRescreenState> {
    const run = this.queue.then(async () => {
      const ids = options.pendingOnly ? await stillPending(this.deps.db, contactIds) : contactIds;
      this.options = {
        kind: "auto",
        changeReason: options.changeReason,
        inTransaction: this.inTransaction,
      };
      this.changes = [];
      this.worker = options.worker;
      return this.execute(ids, reason, onProgress);
    });
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Scores the chunk's new names in slices of at most SLICE_MS, then records the chunk. */
  private async screenInSlices(
    items: TScreenItem[],
    nameCache: Map<string, NameHit[]>,
    options: TScreenBatchOptions,
  ): Promise<TScreenBatchResult> {
    const { index, lists } = await this.deps.registry.get();
    if (lists.length) {
      const screenOptions = { threshold: this.deps.threshold, top: 5 };
      let sliceStart = performance.now();
      for (const { contact } of items) {
        scoreNameCached(nameCache, index, contact.company, screenOptions, NAME_CACHE_LIMIT);
        if (performance.now() - sliceStart > SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
      }
    }
    return screenContacts(this.deps, items, { ...options, nameCache });
  }

  /** The contacts of these ids with their owner's e-mail and their country, as screening wants them. */
  private async readItems(ids: number[]): Promise<TScreenItem[]> {
    // Only what a screening reads: the full rows of thousands of contacts cost more to read than to record.
    const rows = await this.deps.db
      .select({
        id: contacts.id,
        workspace_id: contacts.workspace_id,
        company: contacts.company,
        street: contacts.street,
        city: contacts.city,
        state_province: contacts.state_province,
        postal_code: contacts.postal_code,
        country_id: contacts.country_id,
        email: users.email,
        countryName: countries.name,
        countryCode: countries.code_iso_2,
      })
      .from(contacts)
      .leftJoin(users, eq(users.id, contacts.user_id))
      .leftJoin(countries, eq(countries.id, contacts.country_id))
      .where(inArray(contacts.id, ids));
    return rows.map(({ email, countryName, countryCode, ...contact }) => ({
      contact,
      // System screenings name the contact's owner, so the audit log says whose contact it was.
      actor: { workspaceId: contact.workspace_id, userId: null, userEmail: email ?? null },
      country:
        countryName !== null && countryCode !== null
          ? { name: countryName, code_iso_2: countryCode }
          : undefined,
    }));
  }

  /** Records one chunk's outcomes (a failure is counted and logged, the run goes on). */
  private async record(
    chunk: number[],
    screen: () => Promise<TScreenBatchResult>,
    onProgress?: (state: TRescreenState) => void,
  ) {
    try {
      const batch = await screen();
      this.state.changed += batch.changed.length;
      for (const change of batch.changed) this.changes.push(change);
    } catch (error) {
      this.state.failed += chunk.length;
      this.logger.error("screening contacts failed", {
        contacts: `${chunk[0]}…${chunk[chunk.length - 1]}`,
        error: String(error),
      });
    }
    this.state.done += chunk.length;
    onProgress?.(this.state);
    await Bun.sleep(0);
  }

  /** Screens on this thread's index, in slices that yield to the event loop. */
  private async executeHere(ids: number[], onProgress?: (state: TRescreenState) => void) {
    // One cache for the whole run: a name repeated across the contacts is scored once.
    const nameCache = new Map<string, NameHit[]>();
    const options = this.options;
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const items = await this.readItems(chunk);
      // Screening is CPU work: slices of it yield to the event loop so requests keep being served.
      await this.record(chunk, () => this.screenInSlices(items, nameCache, options), onProgress);
    }
  }

  /**
   * Screens on the worker: while it screens one chunk, this thread records the one before, so the
   * two cores work side by side; each chunk is still recorded in one transaction.
   */
  private async executeOnWorker(
    ids: number[],
    worker: TBatchScreener,
    lists: TListVersion[],
    onProgress?: (state: TRescreenState) => void,
  ) {
    const options = this.options;
    // For chunks the worker did not answer (it stopped, or refused them): screened here instead.
    const nameCache = new Map<string, NameHit[]>();
    type TInFlight = { chunk: number[]; items: TScreenItem[]; outcomes: Promise<TOutcome[]> };
    const recordChunk = (flight: TInFlight) =>
      this.record(
        flight.chunk,
        async () => {
          const outcomes = await flight.outcomes.catch(() => null);
          if (outcomes === null) return this.screenInSlices(flight.items, nameCache, options);
          return screenContacts(this.deps, flight.items, { ...options, screened: { outcomes, lists } });
        },
        onProgress,
      );
    let previous: TInFlight | null = null;
    for (let i = 0; i < ids.length; i += this.workerChunk) {
      const chunk = ids.slice(i, i + this.workerChunk);
      const items = await this.readItems(chunk);
      const queries = items.map(
        ({ contact, country }): TQuery => [
          contact.company,
          contactAddress(contact, country?.name),
          country?.code_iso_2,
        ],
      );
      const outcomes = worker.screen(queries);
      // Awaited when the chunk is recorded; until then a failure must not count as unhandled.
      outcomes.catch(() => {});
      if (previous) await recordChunk(previous);
      previous = { chunk, items, outcomes };
    }
    if (previous) await recordChunk(previous);
  }

  private async execute(ids: number[], reason: string, onProgress?: (state: TRescreenState) => void) {
    this.state = {
      isRunning: true,
      reason,
      total: ids.length,
      done: 0,
      changed: 0,
      failed: 0,
      started_at: new Date().toISOString(),
      finished_at: null,
    };
    const ownWorker =
      !this.worker && ids.length >= WORKER_MIN_CONTACTS
        ? (this.startWorker?.(ids.length) ?? undefined)
        : undefined;
    const worker = this.worker ?? ownWorker;
    try {
      const lists = worker ? await worker.ready.catch(() => null) : null;
      if (worker && lists) await this.executeOnWorker(ids, worker, lists, onProgress);
      else await this.executeHere(ids, onProgress);
    } finally {
      ownWorker?.stop();
    }
    this.state = { ...this.state, isRunning: false, finished_at: new Date().toISOString() };
    onProgress?.(this.state);
    this.logger.info("re-screening finished", {
      reason,
      total: this.state.total,
      changed: this.state.changed,
    });
    return this.state;
  }
}
