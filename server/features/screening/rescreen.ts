import { and, eq, inArray, sql } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { contacts, users } from "../../../db/schema";
import { timeSlicer } from "../../lib/limits";
import type { TLogger } from "../../lib/logger";
import { screenContact, type TScreeningDeps } from "./screening.service";

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

const BATCH = 100;

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
  return (await db.select({ id: contacts.id }).from(contacts)).map((r) => r.id);
}

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
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: TScreeningDeps,
    private readonly logger: TLogger,
  ) {}

  /** Queues a run over these contacts; resolves when it has finished. */
  run(
    contactIds: number[],
    reason: string,
    onProgress?: (state: TRescreenState) => void,
  ): Promise<TRescreenState> {
    const run = this.queue.then(() => this.execute(contactIds, reason, onProgress));
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
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
    // Screening one contact takes a few milliseconds; yielding every ~15 ms keeps requests moving.
    const slice = timeSlicer();
    for (let i = 0; i < ids.length; i += BATCH) {
      const rows = await db
        .select({ contact: contacts, email: users.email })
        .from(contacts)
        .leftJoin(users, eq(users.id, contacts.user_id))
        .where(inArray(contacts.id, ids.slice(i, i + BATCH)));
      for (const { contact, email } of rows) {
        try {
          const before = await this.deps.db.query.rpscreenings.findFirst({
            where: (r, { eq: equals }) => equals(r.contact_id, contact.id),
          });
          const result = await screenContact(
            this.deps,
            { workspaceId: contact.workspace_id, userId: null, userEmail: email ?? null },
            contact,
            before ? "rescreen" : "screen",
          );
          if (before && before.status !== result.status) this.state.changed += 1;
        } catch (error) {
          this.state.failed += 1;
          this.logger.error("screening a contact failed", { contact: contact.id, error: String(error) });
        }
        this.state.done += 1;
        await slice();
      }
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
