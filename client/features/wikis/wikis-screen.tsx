import type { TWiki } from "../../../db/contracts/wikis";
import type { TEntityScreen } from "../../components/kit/entity-config";

/** The wiki of uploaded files on the shared kit. */
export const wikisScreen: TEntityScreen<TWiki> = {
  endpoint: "/wikis",
  rowLabel: (row) => row.name,
  noun: "wiki file",
  nounPlural: "wiki files",
  listTitle: "My Wiki",
  createLabel: "Upload File(s)",
  createTitle: "Upload Wiki File",
  editTitle: "Edit Wiki File",
  saveLabel: "Save Wiki File(s)",
  afterCreate: "edit",
  paths: {
    list: "/my-wiki",
    create: "/my-wiki/create-wiki",
    edit: (id) => `/my-wiki/edit-wiki/${id}`,
    print: (id) => `/my-wiki/print/${id}`,
  },
  dictionaries: [],
  documents: { endpoint: "/wikis/documents", chooseOnCreate: true, label: "Files" },
  columns: [
    { key: "name", header: "Name", sortable: true, filter: "text", className: "font-medium" },
    {
      key: "description",
      header: "Description",
      sortable: true,
      filter: "text",
      className: "max-w-md truncate",
    },
  ],
  fields: [
    { name: "name", label: "Name", kind: "text", isRequired: true, span: 2 },
    { name: "description", label: "Description", kind: "textarea", isRequired: true, span: 2 },
  ],
  loadSchema: () => import("../../../db/contracts/wikis").then((contract) => contract.ZWikiInput),
  blank: () => ({ name: "", description: "" }),
  toForm: (w) => ({ name: w.name, description: w.description }),
};
