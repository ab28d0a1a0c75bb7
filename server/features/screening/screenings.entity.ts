import { z } from "zod";
import { rpscreenings } from "../../../db/schema";
import type { TEntityDefinition, TRow } from "../../lib/entity/entity";

/** The screenings list (spec: rpscreening): read-only on the kit; screenings are written by the system. */
export const screeningsEntity: TEntityDefinition = {
  noun: "screening",
  table: rpscreenings,
  columns: {
    name: { column: rpscreenings.name, sortable: true, filter: "text", isNocase: true },
    updated_at: { column: rpscreenings.updated_at, sortable: true, filter: "date" },
    status: { column: rpscreenings.status, sortable: true, filter: "text" },
    is_changed: { column: rpscreenings.is_changed, filter: "boolean" },
  },
  defaultSort: { prop: "updated_at", direction: "desc" },
  input: z.never(),
  editDictionaries: [],
  toItem: (row: TRow) => ({
    id: row.id,
    name: row.name,
    data_screened: row.data_screened,
    results: row.results,
    status: row.status,
    is_changed: row.is_changed ? 1 : 0,
    contact_id: row.contact_id,
    updated_at: row.updated_at,
    created_at: row.created_at,
  }),
};
