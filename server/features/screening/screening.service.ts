import { and, desc, eq, getTableColumns, gt, inArray, notInArray, sql } from "drizzle-orm";
import { BULK_WRITE_CACHE_KIB, type TDb } from "../../../db/client";
import type { TContactScreening, TScreeningMatch } from "../../../db/contracts/screening";
import {
  contact_screening_results,
  contacts,
  countries,
  rpscreenings,
  screening_audit_log,
} from "../../../db/schema";
import { AppError, notFound } from "../../lib/errors";
import { timeSlicer, yieldToLoop } from "../../lib/event-loop";
import { checkRelease, releaseAskers } from "../members/release";
import { type NameHit, type ScreenResult, scoreNameCached, screen, screenWithHits } from "./engine";
import { listSetId, listsOfSet } from "./list-sets";
import type { ScreeningRegistry, TListVersion } from "./lists.service";
import { compactMatches, type TOutcome } from "./screening-worker";

export const NO_LISTS =
  "No restricted-party lists are loaded, so nothing can be screened. Load them with: tradewinds screening-lists import <file>";

export type TScreeningDeps = { db: TDb; registry: ScreeningRegistry; threshold: number };
export type TActor = { workspaceId: number; userId: number | null; userEmail: string | null };

type TContactRow = typeof contacts.$inferSelect;

const listsUsed = (lists: TListVersion[]) =>
  lists.map((l) => ({ source: l.source, version_date: l.version_date, checksum: l.checksum }));

/** The street-to-country address of a contact as one line. */
export function contactAddress(contact: TScreenedFields, countryName?: string): string {
  return [contact.street, contact.city, contact.state_province, contact.postal_code, countryName]
    .filter((part) => part?.trim())
    .join(", ");
}

async function countryOf(db: TDb, countryId: number | null) {
  if (!countryId) return undefined;
  const [row] = await db.select().from(countries).where(eq(countries.id, countryId)).limit(1);
  return row;
}

/** Screens one name (with address and country as supporting evidence) against every active list. */
export async function screenParty(
  deps: TScreeningDeps,
  query: { name: string; address?: string; country?: string },
) {
  const { index, lists } = await deps.registry.get();
  // Without a list nothing can pass: an empty index would clear every party.
  if (!lists.length) throw new AppError("CONFLICT", NO_LISTS);
  return { result: screen(index, query, { threshold: deps.threshold, top: 5 }), lists };
}

/**
 * The contact fields a screening reads: a change to one marks a screened contact pending (the
 * trigger of migration 0013 watches the same).
 */
export const SCREENED_FIELDS = [
  "company",
  "street",
  "city",
  "state_province",
  "postal_code",
  "country_id",
] as const;

/**
 * `contacts` still holds what was screened: each SCREENED_FIELDS column `is` the JSON row `j`'s value
 * from `at` on (in that order). An update that clears a pending mark checks it, so a change saved
 * meanwhile keeps the contact pending.
 */
export const stillScreenedAs = (at: number) =>
  sql.join(
    SCREENED_FIELDS.map(
      (f, i) => sql`${contacts}.${sql.identifier(f)} is j.value ->> ${sql.raw(String(at + i))}`,
    ),
    sql` and `,
  );

/** What a screening reads of a contact: its name and address, and what identifies it. */
export type TScreenedFields = Pick<
  TContactRow,
  "id" | "workspace_id" | "company" | "street" | "city" | "state_province" | "postal_code" | "country_id"
>;

/** A contact to screen, who it is screened for, and its country (looked up by the caller). */
export type TScreenItem = {
  contact: TScreenedFields;
  actor: TActor;
  country?: { name: string; code_iso_2: string };
};

/** Why a re-screen changed a contact's outcome, given the previous and the new matches. */
export type TChangeReason = (
  before: TScreeningMatch[],
  after: TScreeningMatch[],
  threshold: number,
) => string | null;

export type TScreenBatchOptions = {
  /** "auto": "rescreen" for a contact screened before, "screen" for one that never was. */
  kind?: "screen" | "rescreen" | "auto";
  /** Name hits shared across calls (a job over many contacts): the same name is scored once. */
  nameCache?: Map<string, NameHit[]>;
  /** Explains a changed outcome in the audit log and the screenings list (list re-imports). */
  changeReason?: TChangeReason;
  /** Runs inside each chunk's write transaction, e.g. to clear a "needs screening" flag. */
  inTransaction?: (tx: TDb, contactIds: number[]) => Promise<void>;
  /**
   * Each item's outcome, already screened (by the screening worker) against `lists`: this thread
   * then only records them and never touches its own index.
   */
  screened?: { outcomes: TOutcome[]; lists: TListVersion[] };
};

export type TScreenBatchResult = {
  results: TContactScreening[];
  /** Contacts whose outcome differs from their previous one, with the reason when one was asked for. */
  changed: { contact_id: number; name: string; previous: string; status: string; reason: string | null }[];
};

/** Longest stretch of screening work between two yields to the event loop. */
const SLICE_MS = 10;

type TScreened = {
  item: TScreenItem;
  address: string;
  query: { name: string; address: string; country: string | undefined };
  result: Pick<ScreenResult, "status" | "multiple" | "bestScore">;
  matches: TScreeningMatch[];
};

/** More names than this in a shared cache and it starts again (memory stays bounded on huge jobs). */
export const NAME_CACHE_LIMIT = 20_000;

// Chunk writes pass their rows as one JSON parameter each (see contact-import.ts): statements stay
// small whatever the chunk size, and a chunk is three statements, not three per contact.
const jsonRows = (rows: unknown[][]) => JSON.stringify(rows);
const cells = (n: number) => sql.raw(Array.from({ length: n }, (_, i) => `j.value ->> ${i}`).join(", "));

/**
 * Screens many contacts and records every outcome in ONE transaction: a contact screening result,
 * an audit log row and the contact's row in the screenings list for each (flagged when a re-screen
 * changed its outcome). The name half of the work is shared by contacts with the same name.
 */
export async function screenContacts(
  deps: TScreeningDeps,
  items: TScreenItem[],
  options: TScreenBatchOptions = {},
): Promise<TScreenBatchResult> {
  if (!items.length) return { results: [], changed: [] };
  const screened: TScreened[] = [];
  let lists: TListVersion[];
  if (options.screened) {
    lists = options.screened.lists;
    if (!lists.length) throw new AppError("CONFLICT", NO_LISTS);
    const { outcomes } = options.screened;
    items.forEach((item, i) => {
      const outcome = outcomes[i] as TOutcome;
      const address = contactAddress(item.contact, item.country?.name);
      const query = { name: item.contact.company, address, country: item.country?.code_iso_2 };
      screened.push({ item, address, query, result: outcome, matches: outcome.matches });
    });
  } else {
    const registered = await deps.registry.get();
    lists = registered.lists;
    // Without a list nothing can pass: an empty index would clear every party.
    if (!lists.length) throw new AppError("CONFLICT", NO_LISTS);
    const { index } = registered;
    const screenOptions = { threshold: deps.threshold, top: 5 };
    const cache = options.nameCache ?? new Map<string, NameHit[]>();
    // Yields between slices of the work and between the chunk's statements: a chunk of hundreds of
    // contacts, done in one go, held other requests for a fifth of a second on a busy machine.
    const slice = timeSlicer(SLICE_MS);
    for (const item of items) {
      await slice();
      const address = contactAddress(item.contact, item.country?.name);
      const query = { name: item.contact.company, address, country: item.country?.code_iso_2 };
      const hits = scoreNameCached(cache, index, query.name, screenOptions, NAME_CACHE_LIMIT);
      const result = screenWithHits(index, hits, query, screenOptions);
      screened.push({ item, address, query, result, matches: compactMatches(result) });
    }
  }
  return deps.db.transaction(async (tx) => {
    // The import's page cache (see contact-import.ts) for the chunks that follow it; the setting
    // belongs to the pooled connection, so it costs nothing when it is already set.
    if (items.length > 100) await tx.run(sql.raw(`PRAGMA cache_size = -${BULK_WRITE_CACHE_KIB}`));
    return recordScreened(tx as unknown as TDb, deps.threshold, screened, lists, options, false);
  });
}

/**
 * Records screened contacts in the caller's transaction: a result, an audit row and a screenings
 * list row each. `isNew`: contacts created in this same transaction with their outcome already set
 * and no pending mark (an import that screened its rows before writing them), so there is no
 * previous screening to read and no pending mark to clear.
 */
async function recordScreened(
  tx: TDb,
  threshold: number,
  screened: TScreened[],
  lists: TListVersion[],
  options: TScreenBatchOptions,
  isNew: boolean,
): Promise<TScreenBatchResult> {
  const used = listsUsed(lists);
  const setId = await listSetId(tx, used);
  // Most contacts match nothing: their matches are "[]", serialised once per contact at most.
  const matchesJsonCache = new Map<TScreened, string>();
  const matchesJsonOf = (s: TScreened) => {
    if (!s.matches.length) return "[]";
    let json = matchesJsonCache.get(s);
    if (json === undefined) {
      json = JSON.stringify(s.matches);
      matchesJsonCache.set(s, json);
    }
    return json;
  };
  const ids = screened.map((s) => s.item.contact.id);
  const previousRows = isNew
    ? []
    : await tx.all<{ id: number; contact_id: number; status: string; results: string }>(
        sql`select id, contact_id, status, results from ${rpscreenings} where contact_id in (select value from json_each(${JSON.stringify(ids)}))`,
      );
  const previous = new Map(previousRows.map((r) => [r.contact_id, r]));
  const now = new Date().toISOString();
  const inserted = await tx.all<{ id: number; contact_id: number; created_at: string }>(
    sql`insert into ${contact_screening_results} (workspace_id, contact_id, status, multiple, name, address, best_score, matches, list_set_id, user_id) select ${cells(8)}, ${setId}, j.value ->> 8 from json_each(${jsonRows(
      screened.map((s) => [
        s.item.actor.workspaceId,
        s.item.contact.id,
        s.result.status,
        s.result.multiple ? 1 : 0,
        s.item.contact.company,
        s.address,
        s.result.bestScore,
        matchesJsonOf(s),
        s.item.actor.userId,
      ]),
    )}) as j order by j.key returning id, contact_id, created_at`,
  );
  await yieldToLoop();
  const resultByContact = new Map(inserted.map((row) => [row.contact_id, row]));
  const changed: TScreenBatchResult["changed"] = [];
  const audit: unknown[][] = [];
  const updates: unknown[][] = [];
  const creates: unknown[][] = [];
  for (const s of screened) {
    const contactId = s.item.contact.id;
    const matchesJson = matchesJsonOf(s);
    const queryJson = JSON.stringify(s.query);
    const before = previous.get(contactId);
    const kind = options.kind === "auto" || !options.kind ? (before ? "rescreen" : "screen") : options.kind;
    const hasChanged = kind === "rescreen" && before !== undefined && before.status !== s.result.status;
    let reason: string | null = null;
    if (hasChanged && before) {
      const beforeMatches = ((JSON.parse(before.results) as { matches?: TScreeningMatch[] }).matches ??
        []) as TScreeningMatch[];
      reason = options.changeReason?.(beforeMatches, s.matches, threshold) ?? null;
      changed.push({
        contact_id: contactId,
        name: s.item.contact.company,
        previous: before.status,
        status: s.result.status,
        reason,
      });
    }
    audit.push([
      s.item.actor.workspaceId,
      s.item.actor.userId,
      s.item.actor.userEmail,
      kind,
      contactId,
      queryJson,
      matchesJson,
      s.result.status,
      before?.status ?? null,
      reason,
    ]);
    // The same text JSON.stringify gives the object, with the matches serialised once per contact.
    const resultId = resultByContact.get(contactId)?.id;
    const resultsJson = `{"best_score":${JSON.stringify(s.result.bestScore)},"multiple":${s.result.multiple},"matches":${matchesJson}${resultId === undefined ? "" : `,"result_id":${resultId}`}${reason ? `,"change_reason":${JSON.stringify(reason)}` : ""}}`;
    const row = [s.item.contact.company, queryJson, resultsJson, s.result.status];
    if (before) updates.push([before.id, ...row, hasChanged ? 1 : 0]);
    else creates.push([s.item.actor.workspaceId, s.item.actor.userId, contactId, ...row]);
  }
  await yieldToLoop();
  await tx.run(
    sql`insert into ${screening_audit_log} (workspace_id, user_id, user_email, kind, contact_id, query, list_set_id, matches, outcome, previous_status, note) select ${cells(6)}, ${setId}, j.value ->> 6, j.value ->> 7, j.value ->> 8, j.value ->> 9 from json_each(${jsonRows(audit)}) as j order by j.key`,
  );
  await yieldToLoop();
  if (updates.length)
    await tx.run(
      sql`update ${rpscreenings} set (name, data_screened, results, status, is_changed, review_date, updated_at, list_set_id) = (j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5, null, ${now}, ${setId}) from json_each(${jsonRows(updates)}) as j where ${rpscreenings.id} = j.value ->> 0`,
    );
  if (creates.length)
    await tx.run(
      sql`insert into ${rpscreenings} (workspace_id, user_id, contact_id, name, data_screened, results, status, updated_at, list_set_id) select ${cells(7)}, ${now}, ${setId} from json_each(${jsonRows(creates)}) as j order by j.key`,
    );
  await yieldToLoop();
  // Clears each contact's 'needs screening' mark (so no contact is saved but silently unscreened), but only where what was screened is
  // still what the contact says: a change saved meanwhile keeps it pending for the next screening.
  if (!isNew)
    await tx.run(
      sql`update ${contacts} set screening_pending = 0 from json_each(${jsonRows(
        screened.map((s) => [s.item.contact.id, ...SCREENED_FIELDS.map((f) => s.item.contact[f])]),
      )}) as j where ${contacts.id} = j.value ->> 0 and ${stillScreenedAs(1)}`,
    );
  await options.inTransaction?.(tx, ids);
  return {
    results: screened.map((s): TContactScreening => {
      const row = resultByContact.get(s.item.contact.id);
      return {
        id: row?.id ?? 0,
        contact_id: s.item.contact.id,
        status: s.result.status,
        multiple: s.result.multiple,
        name: s.item.contact.company,
        address: s.address,
        best_score: s.result.bestScore,
        matches: s.matches,
        lists: used,
        override_of_id: null,
        note: null,
        review_date: null,
        user_id: s.item.actor.userId,
        created_at: row?.created_at ?? now,
      };
    }),
    changed,
  };
}

/** A contact created by an import, with its outcome already screened by the worker. */
export type TScreenedNew = { item: TScreenItem; outcome: TOutcome };

/**
 * Records the outcomes of contacts created in this same transaction (`tx`), which were inserted
 * with their outcome and no pending mark: a result, an audit row and a screenings list row each,
 * exactly as screenContacts records a first screening, without reading anything back.
 */
export function recordNewScreenings(
  tx: TDb,
  threshold: number,
  rows: TScreenedNew[],
  lists: TListVersion[],
): Promise<TScreenBatchResult> {
  if (!rows.length) return Promise.resolve({ results: [], changed: [] });
  if (!lists.length) throw new AppError("CONFLICT", NO_LISTS);
  const screened: TScreened[] = rows.map(({ item, outcome }) => {
    const address = contactAddress(item.contact, item.country?.name);
    const query = { name: item.contact.company, address, country: item.country?.code_iso_2 };
    return { item, address, query, result: outcome, matches: outcome.matches };
  });
  return recordScreened(tx, threshold, screened, lists, { kind: "screen" }, true);
}

/**
 * Screens a contact and records the outcome: a new contact screening result, an audit log entry,
 * and the contact's row in the screenings list (flagged when a re-screen changed its outcome).
 */
export async function screenContact(
  deps: TScreeningDeps,
  actor: TActor,
  contact: TContactRow,
  kind: "screen" | "rescreen" = "screen",
): Promise<TContactScreening> {
  const country = await countryOf(deps.db, contact.country_id);
  const { results } = await screenContacts(deps, [{ contact, actor, country }], { kind });
  return results[0] as TContactScreening;
}

/** A contact screening result with the lists it was screened against. */
type TResultRow = typeof contact_screening_results.$inferSelect & { lists: unknown[] };

/** Selects results with their lists (see listsOfSet). */
const resultColumns = () => ({
  ...getTableColumns(contact_screening_results),
  lists: listsOfSet(contact_screening_results.list_set_id),
});

export function toScreening(row: TResultRow): TContactScreening {
  return {
    id: row.id,
    contact_id: row.contact_id,
    status: row.status as "passed" | "failed",
    multiple: row.multiple,
    name: row.name,
    address: row.address,
    best_score: row.best_score,
    matches: row.matches as TScreeningMatch[],
    lists: row.lists as TContactScreening["lists"],
    override_of_id: row.override_of_id,
    note: row.note,
    review_date: row.review_date,
    user_id: row.user_id,
    created_at: row.created_at,
  };
}

/** A contact of the workspace, or 404. */
export async function contactOf(db: TDb, workspaceId: number, contactId: number): Promise<TContactRow> {
  const [contact] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.workspace_id, workspaceId)))
    .limit(1);
  if (!contact) throw notFound("This contact does not exist or is not yours");
  return contact;
}

/** The contact's current outcome: its newest result (an override is newer than what it overrides). */
export async function latestScreening(db: TDb, workspaceId: number, contactId: number) {
  const [row] = await db
    .select(resultColumns())
    .from(contact_screening_results)
    .where(
      and(
        eq(contact_screening_results.workspace_id, workspaceId),
        eq(contact_screening_results.contact_id, contactId),
      ),
    )
    .orderBy(desc(contact_screening_results.id))
    .limit(1);
  return row ? toScreening(row) : null;
}

/**
 * Records a person's decision on a result as a NEW result that points at it (never an edit), with
 * who, when and why in the audit log.
 */
export async function overrideScreening(
  deps: TScreeningDeps,
  actor: TActor,
  resultId: number,
  status: "passed" | "failed",
  note: string,
  reviewDate?: string,
): Promise<TContactScreening> {
  const [previous] = await deps.db
    .select(resultColumns())
    .from(contact_screening_results)
    .where(
      and(
        eq(contact_screening_results.id, resultId),
        eq(contact_screening_results.workspace_id, actor.workspaceId),
      ),
    )
    .limit(1);
  if (!previous) throw notFound("This screening result does not exist or is not yours");
  // Who asked (the members whose work the hit holds); with two-person release they cannot clear it.
  const askers =
    status === "passed"
      ? await checkRelease(deps.db, actor.workspaceId, actor.userId, previous.contact_id)
      : await releaseAskers(deps.db, actor.workspaceId, previous.contact_id);
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contact_screening_results)
      .values({
        workspace_id: actor.workspaceId,
        contact_id: previous.contact_id,
        status,
        multiple: previous.multiple,
        name: previous.name,
        address: previous.address,
        best_score: previous.best_score,
        matches: previous.matches,
        list_set_id: previous.list_set_id,
        override_of_id: previous.id,
        note,
        review_date: status === "passed" ? (reviewDate ?? null) : null,
        user_id: actor.userId,
      })
      .returning();
    await tx.insert(screening_audit_log).values({
      workspace_id: actor.workspaceId,
      user_id: actor.userId,
      user_email: actor.userEmail,
      kind: "override",
      contact_id: previous.contact_id,
      query: {
        result_id: previous.id,
        name: previous.name,
        ...(reviewDate && status === "passed" ? { review_date: reviewDate } : {}),
        asked_by: askers,
      },
      list_set_id: previous.list_set_id,
      matches: previous.matches as unknown[],
      outcome: status,
      previous_status: previous.status,
      note,
    });
    await tx
      .update(rpscreenings)
      .set({
        status,
        is_changed: false,
        review_date: status === "passed" ? (reviewDate ?? null) : null,
        updated_at: new Date().toISOString(),
      })
      .where(
        and(
          eq(rpscreenings.workspace_id, actor.workspaceId),
          eq(rpscreenings.contact_id, previous.contact_id),
        ),
      );
    return toScreening({ ...row, lists: previous.lists });
  });
}

/** Contacts of a workspace (or of all workspaces) that have no screening yet, by id. */
export async function unscreenedContactIds(db: TDb, workspaceId?: number): Promise<number[]> {
  const screened = db.select({ id: contact_screening_results.contact_id }).from(contact_screening_results);
  const rows = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      and(
        workspaceId ? eq(contacts.workspace_id, workspaceId) : undefined,
        notInArray(contacts.id, screened),
      ),
    );
  return rows.map((r) => r.id);
}

/** Ids read per query when listing many contacts (see pendingContactIds). */
const ID_PAGE = 2_000;

/** Contacts (of one workspace or all) whose screening is pending: never screened, changed, or failed. */
export async function pendingContactIds(db: TDb, workspaceId?: number): Promise<number[]> {
  // Read a page at a time with a yield in between: libSQL reads synchronously, and all 100,000 ids
  // of a big import in one query held every other request for most of a second.
  const ids: number[] = [];
  for (;;) {
    const rows = await db
      .select({ id: contacts.id })
      .from(contacts)
      .where(
        and(
          eq(contacts.screening_pending, true),
          workspaceId ? eq(contacts.workspace_id, workspaceId) : undefined,
          ids.length ? gt(contacts.id, ids[ids.length - 1] as number) : undefined,
        ),
      )
      .orderBy(contacts.id)
      .limit(ID_PAGE);
    for (const row of rows) ids.push(row.id);
    if (rows.length < ID_PAGE) return ids;
    await yieldToLoop();
  }
}

/** Of these contacts, the ones whose screening is pending (for showing them as such). */
export async function pendingAmong(db: TDb, contactIds: number[]): Promise<Set<number>> {
  if (!contactIds.length) return new Set();
  const rows = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(inArray(contacts.id, contactIds), eq(contacts.screening_pending, true)));
  return new Set(rows.map((r) => r.id));
}

/**
 * Whether a contact is cleared for paperwork: screened for its current name and address, and the
 * current outcome (an override included) is 'passed'. Pending or never screened is NOT cleared.
 */
export async function isContactCleared(db: TDb, workspaceId: number, contactId: number): Promise<boolean> {
  const [contact] = await db
    .select({ pending: contacts.screening_pending })
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.workspace_id, workspaceId)))
    .limit(1);
  if (!contact || contact.pending) return false;
  return (await latestScreening(db, workspaceId, contactId))?.status === "passed";
}
