import type { TShippingForm } from "../../../db/contracts/wikis";
import type { TEntityScreen } from "../../components/kit/entity-config";
import { formatDateTime } from "../../lib/format";

const TYPE_LABELS: Record<string, string> = {
  "certificate of origin": "Certificate Of Origin",
  certification: "Certification",
  other: "Other",
};

/** Shipping forms on the shared kit, with the spec's side menu of form types. */
export const shippingFormsScreen: TEntityScreen<TShippingForm> = {
  endpoint: "/shipping-documents",
  rowLabel: (row) => row.name,
  noun: "form",
  nounPlural: "forms",
  listTitle: "My Shipping Documents",
  createLabel: "Create a Form",
  createTitle: "Create a Form",
  editTitle: "Edit a Form",
  saveLabel: "Save Form",
  afterCreate: "edit",
  paths: {
    list: "/my-shipping-documents",
    create: "/my-shipping-documents/create-a-form",
    edit: (id) => `/my-shipping-documents/edit-a-form/${id}`,
    print: (id) => `/my-shipping-documents/print/${id}`,
  },
  dictionaries: [],
  documents: { endpoint: "/shipping-documents/documents", chooseOnCreate: true, label: "Form files" },
  columns: [
    { key: "name", header: "Form name", sortable: true, filter: "text", className: "font-medium" },
    {
      key: "document_type",
      header: "Type",
      cell: (row) => TYPE_LABELS[row.document_type] ?? row.document_type,
    },
    {
      key: "created_at",
      header: "Date created",
      sortable: true,
      cell: (row) => formatDateTime(row.created_at),
    },
  ],
  fields: [
    {
      name: "document_type",
      label: "Form type",
      kind: "menu",
      span: 2,
      // The commercial invoice is generated from a shipment, so that entry leads there.
      links: [{ to: "/shipments/create-shipment", label: "Commercial Invoice" }],
      choices: Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label })),
    },
    { name: "name", label: "Form name", kind: "text", isRequired: true, span: 2 },
    { name: "description", label: "Description", kind: "textarea", span: 2 },
  ],
  loadSchema: () => import("../../../db/contracts/wikis").then((contract) => contract.ZShippingFormInput),
  blank: () => ({ name: "", description: "", document_type: "other" }),
  toForm: (f) => ({ name: f.name, description: f.description, document_type: f.document_type }),
};
