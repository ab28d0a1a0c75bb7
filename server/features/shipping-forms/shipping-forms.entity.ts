import { ZShippingFormInput } from "../../../db/contracts/wikis";
import { msdocuments } from "../../../db/schema";
import type { TEntityDefinition } from "../../lib/entity/entity";
import { documentsDecorator, storageKeysOf } from "../documents/documents.service";

/** Shipping forms ("msdocuments") on the shared kit. */
export const shippingFormsEntity: TEntityDefinition = {
  noun: "form",
  table: msdocuments,
  columns: {
    name: { column: msdocuments.name, sortable: true, filter: "text", isNocase: true },
    created_at: { column: msdocuments.created_at, sortable: true, filter: "date" },
    document_type: { column: msdocuments.document_type, sortable: true, filter: "text" },
  },
  defaultSort: { prop: "created_at", direction: "desc" },
  input: ZShippingFormInput,
  editDictionaries: [],
  decorate: documentsDecorator("msdocument_id"),
  storageKeys: (db, id) => storageKeysOf(db, "msdocument_id", id),
};
