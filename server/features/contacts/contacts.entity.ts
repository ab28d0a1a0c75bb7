import { and, count, eq, or } from "drizzle-orm";
import { ZContactInput } from "../../../db/contracts/contacts";
import { contacts, countries, licenses, partner_types, shipments } from "../../../db/schema";
import type { TDbOrTx, TEntityDefinition } from "../../lib/entity/entity";

const usesContact = (id: number) =>
  or(
    eq(shipments.exporter_of_record_id, id),
    eq(shipments.importer_of_record_id, id),
    eq(shipments.ultimate_consignee_id, id),
  );

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
      reasons.push(`${licenceCount.n} licence${licenceCount.n === 1 ? "" : "s"} name this contact.`);
    if (shipmentCount.n)
      reasons.push(`${shipmentCount.n} shipment${shipmentCount.n === 1 ? "" : "s"} use this contact.`);
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
