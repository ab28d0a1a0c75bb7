import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { contacts, countries, users } from "../../../db/schema";
import { yieldToLoop } from "../../lib/limits";
import type { TLogger } from "../../lib/logger";
import { type NameHit, scoreName } from "./engine";
import {
  screenContacts,
  type TChangeReason,
  type TScreenBatchOptions,
  type TScreenBatchResult,
  type TScreenItem,
  type TScreeningDeps,
} from "./screening.service";

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

export type TRescreenOptions = {
  /** Explains each changed outcome (list re-imports: new entry, removed entry, changed alias). */
  changeReason?: TChangeReason;
};

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

  constructor(
    private readonly deps: TScreeningDeps,
    private readonly logger: TLogger,
    /** Runs in each chunk's write transaction with the chunk's contact ids (e.g. clears a pending flag). */
    private readonly inTransaction?: TScreenBatchOptions["inTransaction"],
  ) {}

  /** Queues a run over these contacts; resolves when it has finished. */
  run(
    contactIds: number[],
    reason: string,
    onProgress?: (state: TRescreenState) => void,
    options: TRescreenOptions = {},
  ): Promise<TRescreenState> {
    const run = this.queue.then(() => {
      this.options = {
        kind: "auto",
        changeReason: options.changeReason,
        inTransaction: this.inTransaction,
      };
      this.changes = [];
      return this.execute(contactIds, reason, onProgress);
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
        if (nameCache.has(contact.company)) continue;
        nameCache.set(contact.company, scoreName(index, contact.company, screenOptions));
        if (performance.now() - sliceStart > SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
      }
    }
    return screenContacts(this.deps, items, { ...options, nameCache });
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
    const { db } = this.deps;
    // One cache for the whole run: a name repeated across the contacts is scored once.
    const nameCache = new Map<string, NameHit[]>();
    const options = this.options;
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const rows = await db
        .select({ contact: contacts, email: users.email, country: countries })
        .from(contacts)
        .leftJoin(users, eq(users.id, contacts.user_id))
        .leftJoin(countries, eq(countries.id, contacts.country_id))
        .where(inArray(contacts.id, chunk));
      const items: TScreenItem[] = rows.map(({ contact, email, country }) => ({
        contact,
        // System screenings name the contact's owner, so the audit log says whose contact it was.
        actor: { workspaceId: contact.workspace_id, userId: null, userEmail: email ?? null },
        country: country ?? undefined,
      }));
      try {
        // Screening is CPU work: slices of it yield to the event loop so requests keep being served.
        const batch = await this.screenInSlices(items, nameCache, options);
        this.state.changed += batch.changed.length;
        for (const change of batch.changed) this.changes.push(change);
      } catch (error) {
        this.state.failed += items.length;
        this.logger.error("screening contacts failed", {
          contacts: `${chunk[0]}…${chunk[chunk.length - 1]}`,
          error: String(error),
        });
      }
      this.state.done += chunk.length;
      onProgress?.(this.state);
      await Bun.sleep(0);
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
