import { and, asc, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { TDb } from "../../../db/client";
import type { TDictionary, TDictionaryName, TDictionaryOption } from "../../../db/contracts/dictionary";
import {
  carriers,
  contacts,
  countries,
  currencies,
  incoterms,
  licenses,
  modes_of_transport,
  packages,
  partner_types,
  payment_terms,
  products,
  shipments,
  shipping_statuses,
  users,
} from "../../../db/schema";

type TSource = {
  table: SQLiteTable;
  label: SQLiteColumn | SQL;
  order: SQLiteColumn;
  /** Rows of one workspace only; null means the dictionary is global reference data. */
  workspace?: SQLiteColumn;
  where?: (workspaceId: number) => SQL | undefined;
};

const SOURCES: Record<TDictionaryName, TSource> = {
  countries: { table: countries, label: countries.name, order: countries.name },
  currencies: { table: currencies, label: currencies.currency, order: currencies.sort_order },
  carriers: { table: carriers, label: carriers.name, order: carriers.id },
  incoterms: { table: incoterms, label: incoterms.name, order: incoterms.id },
  payment_terms: { table: payment_terms, label: payment_terms.name, order: payment_terms.id },
  mode_of_transports: {
    table: modes_of_transport,
    label: modes_of_transport.name,
    order: modes_of_transport.id,
  },
  packages: { table: packages, label: packages.name, order: packages.id },
  shipping_statuses: {
    table: shipping_statuses,
    label: shipping_statuses.label,
    order: shipping_statuses.id,
  },
  partner_types: {
    table: partner_types,
    label: partner_types.partner_type,
    order: partner_types.id,
    where: (ws) => or(isNull(partner_types.workspace_id), eq(partner_types.workspace_id, ws)),
  },
  contacts: {
    table: contacts,
    label: contacts.company,
    order: contacts.company,
    workspace: contacts.workspace_id,
  },
  products: { table: products, label: products.name, order: products.name, workspace: products.workspace_id },
  licenses: {
    table: licenses,
    label: licenses.licence_name,
    order: licenses.licence_name,
    workspace: licenses.workspace_id,
  },
  users: {
    table: users,
    label: sql<string>`${users.name} || ' ' || ${users.surname}`,
    order: users.surname,
    workspace: users.workspace_id,
  },
  templates: {
    table: shipments,
    label: shipments.name,
    order: shipments.name,
    workspace: shipments.workspace_id,
    where: () => eq(shipments.shipping_status_id, 1),
  },
};

/**
 * Loads the named dictionaries as `{id, label}` lists. Workspace-backed ones (contacts, products, …)
 * list only the caller's workspace rows, and are empty without a workspace; partner types are the
 * seeded ones plus the workspace's own.
 */
export async function loadDictionaries(
  db: TDb,
  names: readonly TDictionaryName[],
  workspaceId: number | null,
): Promise<TDictionary> {
  const entries = await Promise.all(
    names.map(async (name): Promise<[TDictionaryName, TDictionaryOption[]]> => {
      const source = SOURCES[name];
      if ((source.workspace || source.where) && workspaceId === null) {
        return [name, name === "partner_types" ? await loadGlobalPartnerTypes(db) : []];
      }
      const id = (source.table as unknown as { id: SQLiteColumn }).id;
      const conditions = [
        source.workspace && workspaceId !== null ? eq(source.workspace, workspaceId) : undefined,
        workspaceId !== null ? source.where?.(workspaceId) : undefined,
      ].filter(Boolean) as SQL[];
      const rows = await db
        .select({ id, label: source.label })
        .from(source.table)
        .where(conditions.length ? and(...conditions) : undefined)
        .orderBy(asc(source.order), asc(id));
      return [name, rows as TDictionaryOption[]];
    }),
  );
  return Object.fromEntries(entries);
}

async function loadGlobalPartnerTypes(db: TDb): Promise<TDictionaryOption[]> {
  return db
    .select({ id: partner_types.id, label: partner_types.partner_type })
    .from(partner_types)
    .where(isNull(partner_types.workspace_id))
    .orderBy(asc(partner_types.id));
}
