import type { TLicenseUsage } from "../../../db/contracts/export-control";
import type { TLicense } from "../../../db/contracts/licenses";
import type { TEntityScreen } from "../../components/kit/entity-config";
import { Truncated } from "../../components/kit/truncated";
import { Badge } from "../../components/ui/badge";
import { labelOf } from "../../lib/dictionaries";
import { formatDate } from "../../lib/format";

/** Licences expiring within this many days are flagged in the list. */
export const EXPIRY_WARNING_DAYS = 30;

/** "expired", "soon" (within 30 days) or null, from a YYYY-MM-DD expiry and today's date. */
export function expiryState(
  expiration: string,
  today = new Date().toISOString().slice(0, 10),
): "expired" | "soon" | null {
  if (expiration < today) return "expired";
  const soon = new Date(Date.parse(`${today}T00:00:00Z`) + EXPIRY_WARNING_DAYS * 86_400_000)
    .toISOString()
    .slice(0, 10);
  return expiration <= soon ? "soon" : null;
}

/** Export licences on the shared kit. */
export const licensesScreen: TEntityScreen<TLicense> = {
  endpoint: "/licenses",
  rowLabel: (row) => row.licence_name,
  noun: "licence",
  nounPlural: "licences",
  listTitle: "Licenses",
  createLabel: "Create new License",
  createTitle: "Add License",
  editTitle: "Edit License",
  saveLabel: "Save License",
  afterCreate: "edit",
  paths: {
    list: "/licenses",
    create: "/licenses/create-license",
    edit: (id) => `/licenses/edit-license/${id}`,
    print: (id) => `/licenses/print/${id}`,
  },
  dictionaries: ["countries", "contacts", "products"],
  documents: { endpoint: "/licenses/documents" },
  columns: [
    {
      key: "licence_name",
      header: "Name",
      priority: 1,
      card: "title",
      sortable: true,
      filter: "text",
      className: "font-medium",
    },
    {
      key: "valid_date",
      header: "Valid date",
      sortable: true,
      isLowPriority: true,
      cell: (row) => formatDate(row.valid_date),
    },
    {
      key: "expiration_date",
      header: "Expiry date",
      priority: 1,
      card: "detail",
      sortable: true,
      cell: (row) => {
        const state = expiryState(row.expiration_date);
        return (
          <span className="flex items-center gap-2" data-expiry={state ?? "ok"}>
            {formatDate(row.expiration_date)}
            {state === "expired" && <Badge variant="destructive">Expired</Badge>}
            {state === "soon" && <Badge variant="orange">Expires soon</Badge>}
          </span>
        );
      },
    },
    { key: "status", header: "Status", sortable: true, filter: "text", priority: 1, card: "status" },
    { key: "reference_number_1", header: "Reference 1", sortable: true, filter: "text", isLowPriority: true },
    { key: "reference_number_2", header: "Reference 2", sortable: true, filter: "text", isLowPriority: true },
    {
      key: "country_id",
      header: "Country",
      priority: 4,
      sortable: true,
      cell: (row, d) => labelOf(d.countries, row.country_id),
    },
    {
      key: "contact_id",
      header: "Licensed entity",
      cell: (row, d) => <Truncated text={labelOf(d.contacts, row.contact_id)} />,
    },
    {
      key: "product_id",
      header: "Product",
      priority: 4,
      cell: (row, d) => <Truncated text={labelOf(d.products, row.product_id)} />,
    },
    {
      key: "usage",
      header: "Used / remaining",
      priority: 3,
      cell: (row) => <LicenceUsageCell usage={(row as TLicense & { usage?: TLicenseUsage }).usage} />,
    },
  ],
  fields: [
    { name: "licence_name", label: "Name", kind: "text", isRequired: true, span: 2 },
    { name: "valid_date", label: "Valid date", kind: "date", isRequired: true },
    { name: "expiration_date", label: "Expiry date", kind: "date", isRequired: true },
    { name: "reference_number_1", label: "Reference number 1", kind: "text", isRequired: true },
    { name: "reference_number_2", label: "Reference number 2", kind: "text", isRequired: true },
    { name: "status", label: "Status", kind: "text", isRequired: true },
    { name: "country_id", label: "Country", kind: "select", dictionary: "countries", isRequired: true },
    {
      name: "contact_id",
      label: "Licensed or restricted entity",
      kind: "select",
      dictionary: "contacts",
      isRequired: true,
    },
    { name: "contact_note", label: "Entity note", kind: "textarea" },
    { name: "product_id", label: "Product", kind: "select", dictionary: "products" },
    { name: "product_note", label: "Product note", kind: "textarea" },
    {
      name: "eccn",
      label: "ECCN covered",
      kind: "text",
      hint: "Covers lines of this ECCN when no product is chosen, e.g. 3A001 or 3A001.b.2",
    },
    {
      name: "authorized_value",
      label: "Authorised value (USD)",
      kind: "text",
      hint: "Empty: no value limit",
    },
    {
      name: "authorized_quantity",
      label: "Authorised quantity (units)",
      kind: "text",
      hint: "Empty: no quantity limit",
    },
  ],
  loadSchema: () => import("../../../db/contracts/licenses").then((contract) => contract.ZLicenseInput),
  blank: (defaults) => ({
    licence_name: "",
    valid_date: defaults.valid_date ?? "",
    expiration_date: defaults.expiration_date ?? "",
    reference_number_1: "",
    reference_number_2: "",
    status: defaults.status ?? "pending",
    country_id: defaults.country_id ?? "",
    contact_id: defaults.contact_id ?? "",
    contact_note: "",
    product_id: "",
    product_note: "",
    eccn: "",
    authorized_value: "",
    authorized_quantity: "",
  }),
  toForm: (l) => ({
    licence_name: l.licence_name,
    valid_date: l.valid_date,
    expiration_date: l.expiration_date,
    reference_number_1: l.reference_number_1,
    reference_number_2: l.reference_number_2,
    status: l.status,
    country_id: l.country_id,
    contact_id: l.contact_id ?? "",
    contact_note: l.contact_note,
    product_id: l.product_id ?? "",
    product_note: l.product_note,
    eccn: l.eccn ?? "",
    authorized_value: l.authorized_value ?? "",
    authorized_quantity: l.authorized_quantity ?? "",
  }),
};

/** What shipments have drawn on a licence: used and remaining value/quantity, the 90 % warning, the shipments. */
function LicenceUsageCell({ usage }: { usage: TLicenseUsage | undefined }) {
  if (!usage) return <span className="text-muted-foreground">—</span>;
  const parts = [
    usage.authorized_value !== null
      ? `$${usage.used_value} used, $${usage.remaining_value} left`
      : `$${usage.used_value} used`,
    usage.authorized_quantity !== null
      ? `${usage.used_quantity} of ${usage.authorized_quantity} units`
      : usage.used_quantity
        ? `${usage.used_quantity} units`
        : "",
  ].filter(Boolean);
  const shipments = usage.shipments
    .map((s) => `${s.name || `#${s.shipment_id}`} ($${s.value_usd})`)
    .join(", ");
  return (
    <span className="flex flex-col gap-0.5" data-testid="licence-usage">
      <span>{parts.join(" · ")}</span>
      {usage.warning && (
        <Badge variant={usage.percent_used !== null && usage.percent_used >= 100 ? "destructive" : "orange"}>
          {usage.warning}
        </Badge>
      )}
      {shipments && <span className="text-xs text-muted-foreground">Drawn by: {shipments}</span>}
    </span>
  );
}
