import { ZWikiInput } from "../../../db/contracts/wikis";
import { wikis } from "../../../db/schema";
import type { TEntityDefinition } from "../../lib/entity/entity";
import { documentsDecorator, storageKeysOf } from "../documents/documents.service";

/** The wiki of uploaded files on the shared kit. */
export const wikisEntity: TEntityDefinition = {
  noun: "wiki file",
  table: wikis,
  columns: {
    name: { column: wikis.name, sortable: true, filter: "text", isNocase: true },
    description: { column: wikis.description, sortable: true, filter: "text", isNocase: true },
    updated_at: { column: wikis.updated_at, sortable: true, filter: "date" },
  },
  defaultSort: { prop: "name", direction: "asc" },
  input: ZWikiInput,
  editDictionaries: [],
  decorate: documentsDecorator("wiki_id"),
  storageKeys: (db, id) => storageKeysOf(db, "wiki_id", id),
};
