import { and, count, eq, or, type SQL, sql } from "drizzle-orm";
import { ZContactInput } from "../../../db/contracts/contacts";
import {
  CONTACT_SCREENING_STATES,
  contactScreeningState,
  type TContactScreeningState,
  todayUtc,
} from "../../../db/contracts/screening";
import { contacts, countries, licenses, partner_types, shipments } from "../../../db/schema";
import { defaultToItem, type TDbOrTx, type TEntityDefinition, type TRow } from "../../lib/entity/entity";
import { AppError } from "../../lib/errors";

const usesContact = (id: number) =>
  or(
    eq(shipments.exporter_of_record_id, id),
    eq(shipments.importer_of_record_id, id),
    eq(shipments.ultimate_consignee_id, id),
  );

const TODAY = sql`strftime('%Y-%m-%d', 'now')`;

/**
 * filters[screening]=failed|review_due|pending|passed: the same states the list shows
 * (contactScreeningState), from the contact's own columns (the newest result's status and review
 * date, copied by trigger). A changed or never-screened contact is pending, never passed.
 */
export function screeningCondition(value: string): SQL {
  const state = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_") as TContactScreeningState;
  if (!CONTACT_SCREENING_STATES.includes(state)) {
    const message = `must be one of: ${CONTACT_SCREENING_STATES.join(", ")}`;
    throw new AppError("VALIDATION", `filters[screening]: ${message}`, {
      errors: { "filters[screening]": [message] },
    });
  }
  const screened = sql`${contacts.screening_pending} = 0`;
  const outcome = contacts.screening_outcome;
  const review = contacts.screening_review_date;
  switch (state) {
    case "pending":
      return sql`(${contacts.screening_pending} = 1 or ${outcome} is null)`;
    case "failed":
      return sql`(${outcome} = 'failed' and ${screened})`;
    case "review_due":
      return sql`(${outcome} = 'passed' and ${screened} and ${review} <= ${TODAY})`;
    case "passed":
      return sql`(${outcome} = 'passed' and ${screened} and (${review} is null or ${review} > ${TODAY}))`;
  }
}

/** The address book on the shared kit: columns, contract, references and what a forced delete does. */
export const contactsEntity: TEntityDefinition = {
  noun: "contact",
  table: contacts,
  columns: {
    company: { column: contacts.company, sortable: true, filter: "text", isNocase: true },
    partner_type_id: {
      column: contacts.partner_type_id,
      sortable: true,
      filter: "number",
      sortByLabel: { table: partner_types, label: partner_types.partner_type, isNocase: true },
    },
    last_shipment_date: { column: contacts.last_shipment_date, sortable: true, filter: "date" },
    is_sensitive: { column: contacts.is_sensitive, sortable: true, filter: "boolean" },
    is_restricted: { column: contacts.is_restricted, sortable: true, filter: "boolean" },
    tax_id: { column: contacts.tax_id, filter: "text" },
    country_id: { column: contacts.country_id, filter: "number" },
    updated_at: { column: contacts.updated_at, sortable: true, filter: "date" },
    // Custom: the state comes from the pending mark and the newest result; 'review due' reads the clock.
    screening: {
      column: contacts.screening_pending,
      filter: "custom",
      where: screeningCondition,
      isTimeDependent: true,
    },
  },
  defaultSort: { prop: "company", direction: "asc" },
  // db/migrations/0009_contacts_trigram_search.sql
  search: { table: "contacts_fts", columns: ["company", "tax_id"] },
  input: ZContactInput,
  references: {
    partner_type_id: {
      table: partner_types,
      scope: "global-or-workspace",
      message: "Choose a partner type from the list.",
    },
    country_id: { table: countries, scope: "global", message: "Choose a country from the list." },
  },
  editDictionaries: ["partner_types", "countries"],
  onCreate: (auth) => ({ user_id: auth.user.id }),
  onSave: (auth) => ({ updated_by_user_id: auth.user.id }),
  /** The API shape, plus screening_status: the state the address book shows (no extra query). */
  toItem: (row: TRow) => {
    const item = defaultToItem(row);
    const reviewDate = (row.screening_review_date as string) ?? null;
    item.screening_status = contactScreeningState(
      Boolean(row.screening_pending),
      row.screening_outcome ? { status: String(row.screening_outcome), review_date: reviewDate } : null,
      // Today matters only for a review date; most contacts have none (no clock read per row).
      reviewDate ? todayUtc() : "",
    );
    return item;
  },
  async dependants(db: TDbOrTx, workspaceId: number, id: number) {
    const [[licenceCount], [shipmentCount]] = await Promise.all([
      db
        .select({ n: count() })
        .from(licenses)
        .where(and(eq(licenses.workspace_id, workspaceId), eq(licenses.contact_id, id))),
      db
        .select({ n: count() })
        .from(shipments)
        .where(and(eq(shipments.workspace_id, workspaceId), usesContact(id))),
    ]);
    const reasons: string[] = [];
    if (licenceCount.n)
      reasons.push(
        licenceCount.n === 1
          ? "1 licence names this contact."
          : `${licenceCount.n} licences name this contact.`,
      );
    if (shipmentCount.n)
      reasons.push(
        shipmentCount.n === 1
          ? "1 shipment uses this contact."
          : `${shipmentCount.n} shipments use this contact.`,
      );
    return reasons;
  },
  /** Force detaches: licences and shipments keep working with the party left empty. */
  async forceDelete(tx: TDbOrTx, workspaceId: number, id: number) {
    await tx
      .update(licenses)
      .set({ contact_id: null })
      .where(and(eq(licenses.workspace_id, workspaceId), eq(licenses.contact_id, id)));
    for (const column of [
      "exporter_of_record_id",
      "importer_of_record_id",
      "ultimate_consignee_id",
    ] as const) {
      await tx
        .update(shipments)
        .set({ [column]: null })
        .where(and(eq(shipments.workspace_id, workspaceId), eq(shipments[column], id)));
    }
  },
};
