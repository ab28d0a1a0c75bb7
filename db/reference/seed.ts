import { sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { TDb } from "../client";
import {
  carriers,
  countries,
  currencies,
  incoterms,
  modes_of_transport,
  packages,
  partner_types,
  payment_terms,
  shipping_statuses,
} from "../schema";
import carrierRows from "./carriers.json";
import countryRows from "./countries.json";
import currencyRows from "./currencies.json";
import incotermRows from "./incoterms.json";
import modeRows from "./modes_of_transport.json";
import packageRows from "./packages.json";
import partnerTypeRows from "./partner_types.json";
import paymentTermRows from "./payment_terms.json";
import statusRows from "./shipping_statuses.json";

type TRow = Record<string, unknown> & { id: number };

/**
 * Upserts the reference data by id, so running it at every start is harmless and a corrected
 * data file corrects the database. Ids are stable: other tables point at them.
 */
export async function seedReferenceData(db: TDb): Promise<void> {
  await db.transaction(async (tx) => {
    const upsert = async (table: SQLiteTable, rows: TRow[]) => {
      for (let i = 0; i < rows.length; i += 200) {
        const chunk = rows.slice(i, i + 200);
        const columns = Object.keys(chunk[0]).filter((k) => k !== "id");
        await tx
          .insert(table)
          .values(chunk)
          .onConflictDoUpdate({
            target: sql.raw("id") as never,
            set: Object.fromEntries(columns.map((c) => [c, sql.raw(`excluded.${c}`)])),
          });
      }
    };
    await upsert(countries, countryRows);
    await upsert(
      currencies,
      currencyRows.map((row, index) => ({ ...row, sort_order: index + 1 })),
    );
    await upsert(
      carriers,
      carrierRows.map(({ scac_or_code, ...row }) => ({ ...row, code: scac_or_code })),
    );
    await upsert(incoterms, incotermRows);
    await upsert(payment_terms, paymentTermRows);
    await upsert(modes_of_transport, modeRows);
    await upsert(packages, packageRows);
    await upsert(shipping_statuses, statusRows);
    await upsert(partner_types, partnerTypeRows);
  });
}
