import { Link } from "@tanstack/react-router";
import { EyeIcon, LockIcon } from "lucide-react";
import type { TContact } from "../../../db/contracts/contacts";
import { PARTY_ID_LABELS, PARTY_ID_TYPES } from "../../../db/contracts/party-ids";
import type { TContactScreeningState } from "../../../db/contracts/review-dates";
import { type TEntityScreen, withoutServerFields } from "../../components/kit/entity-config";
import { Badge } from "../../components/ui/badge";
import { labelOf } from "../../lib/dictionaries";
import { formatDate } from "../../lib/format";
import { ContactScreeningBadge, SCREENING_FILTER_OPTIONS } from "../screening/screening-badge";

/**
 * A flag in the list. Sensitive (handle with care: amber, eye) and Restricted (dealings limited:
 * violet, lock) look different from each other and from a failed screening (solid red), so the
 * three are never confused at a glance.
 */
const flagCell = (value: 0 | 1, kind: "sensitive" | "restricted") => {
  if (!value) return <span className="text-muted-foreground">No</span>;
  return kind === "sensitive" ? (
    <Badge variant="yellow">
      <EyeIcon aria-hidden /> Sensitive
    </Badge>
  ) : (
    <Badge className="border-violet-200 bg-violet-50 text-violet-800">
      <LockIcon aria-hidden /> Restricted
    </Badge>
  );
};

/** How the server stores "no note"; an empty note is sent as this (spec section 5). */
const NO_NOTE = "-";

/**
 * A contact as the spec says it is saved (section 5): created_at, updated_at and user_id removed,
 * flags as 1 or 0, empty sensitive and restricted notes as '-'.
 */
export function contactPayload(values: Record<string, unknown>): Record<string, unknown> {
  const payload = withoutServerFields(values, ["user_id"]);
  for (const flag of ["is_sensitive", "is_restricted"]) {
    payload[flag] = payload[flag] === true || payload[flag] === 1 || payload[flag] === "1" ? 1 : 0;
  }
  for (const note of ["sensitive_note", "restricted_note"]) {
    const text = typeof payload[note] === "string" ? (payload[note] as string).trim() : "";
    payload[note] = text === "" ? NO_NOTE : payload[note];
  }
  return payload;
}

/** Labelled party identifiers (EIN, EORI, VAT, China's USCI, other): printed as their label. */
const ID_TYPE_CHOICES = [
  { value: "", label: "Not stated" },
  ...PARTY_ID_TYPES.map((type) => ({
    value: type,
    label: type === "uscc" ? "USCI (China)" : type === "other" ? "Other" : PARTY_ID_LABELS[type],
  })),
];

/** The address book on the shared kit: columns, fields and screen texts from the spec. */
export const contactsScreen: TEntityScreen<TContact & { screening_status?: TContactScreeningState }> = {
  endpoint: "/contacts",
  rowLabel: (row) => row.company,
  noun: "contact",
  nounPlural: "contacts",
  listTitle: "My Address Book",
  createLabel: "Create New Contact",
  createTitle: "Create Contact",
  editTitle: "Edit Contact",
  saveLabel: "Save Contact",
  afterCreate: "list",
  // The record comes back before its screening is stored: ask for the screening itself then.
  savedNotice: async (item, api) => {
    const status =
      item.screening_status === "pending"
        ? (await api.get<{ item: { status: string } }>(`/screenings/trade?itemId=${item.id}`)).item.status
        : item.screening_status;
    return status === "failed"
      ? {
          title: "Saved, but it failed restricted-party screening",
          description: `${item.company} matches a list entry. Do not trade with it until someone has reviewed it.`,
          linkLabel: "See why",
          to: `/contacts/edit-contact/${item.id}`,
        }
      : null;
  },
  paths: {
    list: "/contacts",
    create: "/contacts/create-contact",
    edit: (id) => `/contacts/edit-contact/${id}`,
    print: (id) => `/contacts/print/${id}`,
  },
  dictionaries: ["partner_types", "countries"],
  columns: [
    {
      key: "company",
      header: "Company",
      priority: 1,
      card: "title",
      sortable: true,
      filter: "text",
      className: "font-medium",
    },
    {
      key: "partner_type_id",
      header: "Partner type",
      sortable: true,
      cell: (row, d) => labelOf(d.partner_types, row.partner_type_id),
    },
    {
      key: "last_shipment_date",
      header: "Last shipment",
      sortable: true,
      cell: (row) => formatDate(row.last_shipment_date) || "—",
    },
    {
      key: "is_sensitive",
      header: "Sensitive",
      sortable: true,
      filter: "boolean",
      cell: (row) => flagCell(row.is_sensitive, "sensitive"),
    },
    {
      key: "is_restricted",
      header: "Restricted",
      sortable: true,
      filter: "boolean",
      cell: (row) => flagCell(row.is_restricted, "restricted"),
    },
    {
      key: "screening",
      header: "Screening",
      // A phone's card shows it: the address book never hides a failed screening.
      priority: 1,
      card: "status",
      filter: "choice",
      filterOptions: () => SCREENING_FILTER_OPTIONS,
      // A failed badge opens the contact, whose screening card says what matched and why.
      cell: (row) =>
        row.screening_status === "failed" ? (
          <Link
            to="/contacts/edit-contact/$itemId"
            params={{ itemId: String(row.id) }}
            aria-label={`Failed: why ${row.company} failed screening`}
            className="rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <ContactScreeningBadge state={row.screening_status} />
          </Link>
        ) : (
          <ContactScreeningBadge state={row.screening_status} />
        ),
    },
  ],
  fields: [
    {
      name: "company",
      label: "Company",
      kind: "text",
      isRequired: true,
      span: 2,
      autoComplete: "organization",
    },
    {
      name: "partner_type_id",
      label: "Partner type",
      kind: "select",
      dictionary: "partner_types",
      isRequired: true,
    },
    { name: "tax_id", label: "Tax ID", kind: "text", isRequired: true },
    { name: "tax_id_type", label: "Number type (EIN, EORI, VAT…)", kind: "select", choices: ID_TYPE_CHOICES },
    { name: "other_id", label: "Other number", kind: "text" },
    { name: "other_id_type", label: "Other number type", kind: "select", choices: ID_TYPE_CHOICES },
    { name: "street", label: "Street", kind: "text", span: 2, autoComplete: "street-address" },
    { name: "city", label: "City", kind: "text" },
    { name: "state_province", label: "State / Province", kind: "text" },
    { name: "postal_code", label: "Postal code", kind: "text", autoComplete: "postal-code" },
    { name: "country_id", label: "Country", kind: "select", dictionary: "countries" },
    { name: "contact_1", label: "Contact 1", kind: "text", isRequired: true },
    { name: "phone_1", label: "Phone 1", kind: "tel", isRequired: true },
    { name: "email_1", label: "E-mail 1", kind: "email", isRequired: true, span: 2 },
    { name: "contact_2", label: "Contact 2", kind: "text" },
    { name: "phone_2", label: "Phone 2", kind: "tel" },
    { name: "email_2", label: "E-mail 2", kind: "email", span: 2 },
    { name: "is_sensitive", label: "Sensitive", kind: "checkbox", span: 2 },
    {
      name: "sensitive_note",
      label: "Sensitive note",
      kind: "textarea",
      requiredWhen: "is_sensitive",
      span: 2,
    },
    { name: "is_restricted", label: "Restricted", kind: "checkbox", span: 2 },
    {
      name: "restricted_note",
      label: "Restricted note",
      kind: "textarea",
      requiredWhen: "is_restricted",
      span: 2,
    },
  ],
  loadSchema: () => import("../../../db/contracts/contacts").then((contract) => contract.ZContactInput),
  toPayload: contactPayload,
  blank: () => ({
    company: "",
    partner_type_id: "",
    tax_id: "",
    tax_id_type: "",
    other_id_type: "",
    other_id: "",
    street: "",
    city: "",
    state_province: "",
    postal_code: "",
    country_id: "",
    contact_1: "",
    phone_1: "",
    email_1: "",
    contact_2: "",
    phone_2: "",
    email_2: "",
    is_sensitive: false,
    sensitive_note: "",
    is_restricted: false,
    restricted_note: "",
  }),
  toForm: (c) => ({
    company: c.company,
    partner_type_id: c.partner_type_id,
    tax_id: c.tax_id,
    tax_id_type: c.tax_id_type ?? "",
    other_id_type: c.other_id_type ?? "",
    other_id: c.other_id ?? "",
    street: c.street,
    city: c.city,
    state_province: c.state_province,
    postal_code: c.postal_code,
    country_id: c.country_id ?? "",
    contact_1: c.contact_1,
    phone_1: c.phone_1,
    email_1: c.email_1,
    contact_2: c.contact_2,
    phone_2: c.phone_2,
    email_2: c.email_2,
    is_sensitive: c.is_sensitive === 1,
    // '-' is how the server stores "no note"; the form shows it empty.
    sensitive_note: c.sensitive_note === "-" ? "" : c.sensitive_note,
    is_restricted: c.is_restricted === 1,
    restricted_note: c.restricted_note === "-" ? "" : c.restricted_note,
  }),
};
