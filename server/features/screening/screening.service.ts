import { and, desc, eq, inArray, isNull, notInArray } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import type { TContactScreening, TScreeningMatch } from "../../../db/contracts/screening";
import {
  contact_screening_results,
  contacts,
  countries,
  rpscreenings,
  screening_audit_log,
} from "../../../db/schema";
import { AppError, notFound } from "../../lib/errors";

import { type ScreenResult, screen } from "./engine";
import type { ScreeningRegistry, TListVersion } from "./lists.service";

export const NO_LISTS =
  "No restricted-party lists are loaded, so nothing can be screened. Load them with: tradewinds screening-lists import <file>";

export type TScreeningDeps = { db: TDb; registry: ScreeningRegistry; threshold: number };
export type TActor = { workspaceId: number; userId: number | null; userEmail: string | null };

type TContactRow = typeof contacts.$inferSelect;

const compactMatches = (result: ScreenResult): TScreeningMatch[] =>
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

const listsUsed = (lists: TListVersion[]) =>
  lists.map((l) => ({ source: l.source, version_date: l.version_date, checksum: l.checksum }));

/** The street-to-country address of a contact as one line. */
export function contactAddress(contact: TContactRow, countryName?: string): string {
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
  const address = contactAddress(contact, country?.name);
  const query = { name: contact.company, address, country: country?.code_iso_2 };
  const { result, lists } = await screenParty(deps, query);
  const matches = compactMatches(result);
  const used = listsUsed(lists);
  return deps.db.transaction(async (tx) => {
    const [previous] = await tx
      .select({ status: rpscreenings.status, id: rpscreenings.id })
      .from(rpscreenings)
      .where(and(eq(rpscreenings.workspace_id, actor.workspaceId), eq(rpscreenings.contact_id, contact.id)))
      .limit(1);
    const [row] = await tx
      .insert(contact_screening_results)
      .values({
        workspace_id: actor.workspaceId,
        contact_id: contact.id,
        status: result.status,
        multiple: result.multiple,
        name: contact.company,
        address,
        best_score: result.bestScore,
        matches,
        lists: used,
        user_id: actor.userId,
      })
      .returning();
    await tx.insert(screening_audit_log).values({
      workspace_id: actor.workspaceId,
      user_id: actor.userId,
      user_email: actor.userEmail,
      kind,
      contact_id: contact.id,
      query,
      lists: used,
      matches,
      outcome: result.status,
      previous_status: previous?.status ?? null,
    });
    const listRow = {
      name: contact.company,
      data_screened: query,
      results: {
        best_score: result.bestScore,
        multiple: result.multiple,
        matches,
        lists: used,
        result_id: row.id,
      },
      status: result.status,
      updated_at: new Date().toISOString(),
    };
    // Clears the contact's 'needs screening' mark, but only if what was screened is still what the
    // contact says: a change saved meanwhile keeps it pending for the next screening.
    await tx
      .update(contacts)
      .set({ screening_pending: false })
      .where(
        and(
          eq(contacts.id, contact.id),
          eq(contacts.company, contact.company),
          eq(contacts.street, contact.street),
          eq(contacts.city, contact.city),
          eq(contacts.state_province, contact.state_province),
          eq(contacts.postal_code, contact.postal_code),
          contact.country_id === null
            ? isNull(contacts.country_id)
            : eq(contacts.country_id, contact.country_id),
        ),
      );
    if (previous) {
      await tx
        .update(rpscreenings)
        .set({ ...listRow, is_changed: kind === "rescreen" && previous.status !== result.status })
        .where(eq(rpscreenings.id, previous.id));
    } else {
      await tx.insert(rpscreenings).values({
        ...listRow,
        workspace_id: actor.workspaceId,
        user_id: actor.userId,
        contact_id: contact.id,
      });
    }
    return toScreening(row);
  });
}

export function toScreening(row: typeof contact_screening_results.$inferSelect): TContactScreening {
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
    .select()
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
): Promise<TContactScreening> {
  const [previous] = await deps.db
    .select()
    .from(contact_screening_results)
    .where(
      and(
        eq(contact_screening_results.id, resultId),
        eq(contact_screening_results.workspace_id, actor.workspaceId),
      ),
    )
    .limit(1);
  if (!previous) throw notFound("This screening result does not exist or is not yours");
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
        lists: previous.lists,
        override_of_id: previous.id,
        note,
        user_id: actor.userId,
      })
      .returning();
    await tx.insert(screening_audit_log).values({
      workspace_id: actor.workspaceId,
      user_id: actor.userId,
      user_email: actor.userEmail,
      kind: "override",
      contact_id: previous.contact_id,
      query: { result_id: previous.id, name: previous.name },
      lists: previous.lists as unknown[],
      matches: previous.matches as unknown[],
      outcome: status,
      previous_status: previous.status,
      note,
    });
    await tx
      .update(rpscreenings)
      .set({ status, is_changed: false, updated_at: new Date().toISOString() })
      .where(
        and(
          eq(rpscreenings.workspace_id, actor.workspaceId),
          eq(rpscreenings.contact_id, previous.contact_id),
        ),
      );
    return toScreening(row);
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

/** Contacts (of one workspace or all) whose screening is pending: never screened, changed, or failed. */
export async function pendingContactIds(db: TDb, workspaceId?: number): Promise<number[]> {
  const rows = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      and(
        eq(contacts.screening_pending, true),
        workspaceId ? eq(contacts.workspace_id, workspaceId) : undefined,
      ),
    )
    .orderBy(contacts.id);
  return rows.map((r) => r.id);
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
