import { useRouteContext, useRouter } from "@tanstack/react-router";
import { FileTextIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import type { TDictionary } from "../../../db/contracts/dictionary";
import {
  DOCUMENT_TYPE_LABELS,
  SHIPMENT_STATUS,
  SHIPMENT_STATUSES,
  shipmentStatusOf,
} from "../../../db/contracts/shipment-status";
import type { TShipmentParty, TShipmentRow } from "../../../db/contracts/shipments";
import { DateTime } from "../../components/app/date-time";
import type { TEntityScreen, TFieldConfig } from "../../components/kit/entity-config";
import { StatusBadge } from "../../components/ui/badge";
import { NativeSelect, NativeSelectOption } from "../../components/ui/native-select";
import { ApiError } from "../../lib/api";
import { labelOf } from "../../lib/dictionaries";
import { formatDate } from "../../lib/format";

/** "ACME GmbH, Hamburg" — how a party shows in the list and on the print page. */
export function partyText(party: TShipmentParty | null | undefined): string {
  if (!party) return "";
  return [party.company, party.city, party.country].filter(Boolean).join(", ");
}

/** A party in a list cell: the company, with city and country underneath. */
function PartyCell({ party }: { party: TShipmentParty | null }) {
  if (!party) return <span className="text-muted-foreground">—</span>;
  const place = [party.city, party.country].filter(Boolean).join(", ");
  return (
    <div className="whitespace-normal">
      <div>{party.company}</div>
      {place && <div className="text-xs text-muted-foreground">{place}</div>}
    </div>
  );
}

/**
 * A status as the spec shows it: upper case in its colour; a shipment without a status shows DRAFT.
 * The title (tooltip) is the dictionary's own spelling ('Draft').
 */
export function ShipmentStatus({ statusId }: { statusId: number | null | undefined }) {
  const status = shipmentStatusOf(statusId);
  const title = status.name.replace(/\b\w/g, (c) => c.toUpperCase());
  return (
    <StatusBadge status={status.name} title={title}>
      {status.label}
    </StatusBadge>
  );
}

/** The statuses a shipment can be given from the list (templates are made with Save As Template). */
const PICKABLE_STATUSES = SHIPMENT_STATUSES.filter((s) => s.id !== SHIPMENT_STATUS.TEMPLATE);

const statusTone: Record<string, string> = {
  draft: "border-yellow-300 bg-yellow-50 text-yellow-900",
  "in transit": "border-blue-300 bg-blue-50 text-blue-900",
  customs: "border-orange-300 bg-orange-50 text-orange-900",
  delayed: "border-red-300 bg-red-50 text-red-900",
  delivered: "border-green-300 bg-green-50 text-green-900",
  template: "border-gray-300 bg-gray-100 text-gray-800",
};

/**
 * The list's status drop-down (spec section 4): any status can be picked; picking saves the shipment
 * with the new shipping_status_id (ship_date as YYYY-MM-DD, lines left as stored) and reloads the
 * list. A 422 (required fields missing when leaving draft) is a toast with the server's message.
 */
export function StatusSelect({ row }: { row: TShipmentRow }) {
  const { api } = useRouteContext({ from: "__root__" });
  const router = useRouter();
  const [isBusy, setIsBusy] = useState(false);
  const status = shipmentStatusOf(row.shipping_status_id);
  if (row.shipping_status_id === SHIPMENT_STATUS.TEMPLATE) return <ShipmentStatus statusId={1} />;
  const change = async (next: number) => {
    setIsBusy(true);
    try {
      await api.send("PUT", `/shipments/${row.id}`, shipmentStatusPayload(row, next));
      toast.success("Save successful", { description: `Status set to ${shipmentStatusOf(next).label}` });
    } catch (error) {
      const body = error instanceof ApiError ? (error.body as { status?: { errorMessage?: string } }) : null;
      const fields =
        error instanceof ApiError && error.errors ? Object.values(error.errors).flat().join(" ") : "";
      toast.error(body?.status?.errorMessage || (error as Error).message || "Save failed", {
        description: fields || undefined,
      });
    } finally {
      setIsBusy(false);
      await router.invalidate();
    }
  };
  return (
    <NativeSelect
      size="sm"
      aria-label={`Status of shipment ${row.id}`}
      disabled={isBusy}
      value={String(status.id)}
      // Wide enough for the longest status ('IN TRANSIT') beside the arrow: never clipped.
      className={`min-w-36 font-semibold whitespace-nowrap uppercase ${statusTone[status.name] ?? ""}`}
      title={status.name.replace(/\b\w/g, (c) => c.toUpperCase())}
      onChange={(e) => void change(Number(e.target.value))}
    >
      {PICKABLE_STATUSES.map((s) => (
        <NativeSelectOption key={s.id} value={String(s.id)}>
          {s.label}
        </NativeSelectOption>
      ))}
    </NativeSelect>
  );
}

/**
 * The PUT a status change sends: the whole shipment's own fields with the new status and the date as
 * YYYY-MM-DD. Lines are left out, so the server keeps them as stored.
 */
export function shipmentStatusPayload(row: TShipmentRow, statusId: number): Record<string, unknown> {
  return {
    updated_at: row.updated_at,
    name: row.name,
    exporter_of_record_id: row.exporter_of_record_id,
    importer_of_record_id: row.importer_of_record_id,
    ultimate_consignee_id: row.ultimate_consignee_id,
    freight: row.freight,
    insurance: row.insurance,
    ship_date: row.ship_date ? row.ship_date.slice(0, 10) : null,
    consignee_reference_number: row.consignee_reference_number,
    shipper_reference_number: row.shipper_reference_number,
    incoterm_id: row.incoterm_id,
    carrier_id: row.carrier_id,
    bol_hawb_tracking: row.bol_hawb_tracking,
    payment_terms_id: row.payment_terms_id,
    currency_id: row.currency_id,
    mode_of_transport_id: row.mode_of_transport_id,
    port_of_export: row.port_of_export,
    port_of_import: row.port_of_import,
    instructions_notes: row.instructions_notes,
    user_name: row.user_name,
    user_title: row.user_title,
    shipping_status_id: statusId,
    tracking_number_1: row.tracking_number_1,
    tracking_number_2: row.tracking_number_2,
    preview_statement_text: row.preview_statement_text,
    generate_documents: row.generate_documents,
  };
}

const money = (name: string, label: string, step: number): TFieldConfig => ({
  name,
  label,
  kind: "money",
  min: 0,
  step,
});

/** Step 4, 'How do you want to ship this?': the shipment's details. */
export const DETAIL_FIELDS: TFieldConfig[] = [
  { name: "ship_date", label: "Ship date", kind: "date" },
  { name: "shipper_reference_number", label: "Shipper reference number", kind: "text" },
  { name: "consignee_reference_number", label: "Consignee reference number", kind: "text" },
  { name: "incoterm_id", label: "Incoterm", kind: "select", dictionary: "incoterms" },
  { name: "carrier_id", label: "Carrier", kind: "select", dictionary: "carriers" },
  { name: "bol_hawb_tracking", label: "BOL / HAWB / tracking", kind: "text" },
  { name: "payment_terms_id", label: "Payment terms", kind: "select", dictionary: "payment_terms" },
  { name: "currency_id", label: "Currency", kind: "select", dictionary: "currencies" },
  {
    name: "mode_of_transport_id",
    label: "Mode of transport",
    kind: "select",
    dictionary: "mode_of_transports",
  },
  { name: "port_of_export", label: "Port of export", kind: "text" },
  { name: "port_of_import", label: "Port of import", kind: "text" },
  { name: "tracking_number_1", label: "Tracking number 1", kind: "text" },
  { name: "tracking_number_2", label: "Tracking number 2", kind: "text" },
  { name: "instructions_notes", label: "Instructions / notes", kind: "textarea", span: 2 },
];

/** Freight steps by 0.1, insurance by 1 (spec section 5). */
export const MONEY_FIELDS: TFieldConfig[] = [
  money("freight", "Freight", 0.1),
  money("insurance", "Insurance", 1),
  money("other_charges", "Other charges", 0.01),
  { name: "other_charges_label", label: "Other charges are for (e.g. packing, handling)", kind: "text" },
  money("discount", "Discount", 0.01),
];

const partyField = (name: string, label: string, embedded: keyof TShipmentRow): TFieldConfig => ({
  name,
  label,
  kind: "text",
  format: (_value, item) => partyText(item[embedded] as TShipmentParty | null),
});

/** Every field of a shipment for the print page, in the form's order. */
export const PRINT_FIELDS: TFieldConfig[] = [
  { name: "name", label: "Shipment name", kind: "text" },
  {
    name: "shipping_status_id",
    label: "Status",
    kind: "text",
    format: (value) => shipmentStatusOf(value as number).label,
  },
  partyField("exporter_of_record_id", "Exporter of record", "exporter_of_record"),
  partyField("importer_of_record_id", "Importer of record", "importer_of_record"),
  partyField("ultimate_consignee_id", "Ultimate consignee", "ultimate_consignee"),
  { ...DETAIL_FIELDS[0], format: (value) => formatDate(value as string | null) },
  ...DETAIL_FIELDS.slice(1),
  ...MONEY_FIELDS,
  { name: "total_value", label: "Total value", kind: "money" },
  { name: "total_invoice_value", label: "Total invoice value", kind: "money" },
  { name: "total_pieces", label: "Total pieces", kind: "number" },
  { name: "user_name", label: "Authorized signature: name", kind: "text" },
  { name: "user_title", label: "Authorized signature: title", kind: "text" },
  {
    name: "generate_documents",
    label: "Paperwork",
    kind: "text",
    format: (value) =>
      ((value as string[] | null) ?? []).map((t) => DOCUMENT_TYPE_LABELS[t as "custom"] ?? t).join(", "),
  },
];

/** My Shipments on the shared table kit, and the print page's rows. */
/** The workspace's members as a filter's choices (who created, who saved last). */
const memberOptions = (d: TDictionary) =>
  (d.users ?? []).map((u) => ({ value: String(u.id), label: u.label }));

export const shipmentsScreen: TEntityScreen<TShipmentRow> = {
  endpoint: "/shipments",
  noun: "shipment",
  nounPlural: "shipments",
  listTitle: "My Shipments",
  createLabel: "Create Int’l Shipment",
  createTitle: "Create International Shipment",
  editTitle: "Edit Shipment",
  saveLabel: "Save As Template",
  afterCreate: "edit",
  paths: {
    list: "/shipments",
    create: "/shipments/create-shipment",
    edit: (id) => `/shipments/edit-shipment/${id}`,
    print: (id) => `/shipments/print/${id}`,
  },
  dictionaries: [
    "users",
    "carriers",
    "contacts",
    "incoterms",
    "payment_terms",
    "currencies",
    "mode_of_transports",
  ],
  // The spec's columns; the status drop-down comes right after the ship date, so the list's one
  // control stays on screen on a laptop without scrolling the table sideways. Reference, date,
  // status and the importer (counterpart and destination) identify and decide: they always show
  // and make the phone's card; the others give way as the table narrows.
  columns: [
    {
      key: "user_id",
      header: "User",
      // Mostly the same person: it gives way first.
      priority: 5,
      sortable: true,
      filter: "choice",
      filterOptions: memberOptions,
      cell: (row, d) => {
        const creator = row.user
          ? `${row.user.name} ${row.user.surname}`.trim()
          : labelOf(d.users, row.user_id) || "—";
        // Who created it, and who saved it last when that is someone else.
        const editor = row.updated_by ? `${row.updated_by.name} ${row.updated_by.surname}`.trim() : "";
        return editor && row.updated_by?.id !== row.user_id ? `${creator} (edited by ${editor})` : creator;
      },
    },
    {
      key: "updated_by_user_id",
      header: "Last edited by",
      // Filters by who saved the shipment last; like User, it gives way first.
      priority: 5,
      sortable: true,
      filter: "choice",
      filterOptions: memberOptions,
      cell: (row, d) =>
        row.updated_by
          ? `${row.updated_by.name} ${row.updated_by.surname}`.trim()
          : labelOf(d.users, row.updated_by_user_id ?? null) || "—",
    },
    {
      key: "shipper_reference_number",
      header: "Shipper ref.",
      priority: 1,
      card: "title",
      sortable: true,
      filter: "text",
      className: "min-w-36 whitespace-normal",
      cell: (row) => (
        <div className="space-y-0.5">
          <div className="font-medium">{row.shipper_reference_number || "—"}</div>
          {row.name && <div className="text-xs text-muted-foreground">{row.name}</div>}
          <div className="text-xs text-muted-foreground">
            Last Updated <DateTime value={row.updated_at} />
          </div>
        </div>
      ),
    },
    {
      key: "ship_date",
      header: "Ship date",
      priority: 1,
      card: "detail",
      sortable: true,
      filter: "date",
      className: "whitespace-nowrap",
      cell: (row) => formatDate(row.ship_date) || "—",
    },
    {
      key: "status",
      header: "Status",
      priority: 1,
      card: "status",
      sortable: true,
      filter: "choice",
      filterOptions: () => PICKABLE_STATUSES.map((s) => ({ value: s.name, label: s.label })),
      cell: (row) => <StatusSelect row={row} />,
    },
    {
      key: "importer_of_record_id",
      header: "To (importer)",
      priority: 1,
      card: "detail",
      sortable: true,
      filter: "choice",
      filterOptions: (d) => (d.contacts ?? []).map((c) => ({ value: String(c.id), label: c.label })),
      className: "min-w-36",
      cell: (row) => <PartyCell party={row.importer_of_record} />,
    },
    {
      key: "exporter_of_record_id",
      header: "From (exporter)",
      priority: 3,
      sortable: true,
      filter: "choice",
      filterOptions: (d) => (d.contacts ?? []).map((c) => ({ value: String(c.id), label: c.label })),
      className: "min-w-36",
      cell: (row) => <PartyCell party={row.exporter_of_record} />,
    },
    {
      key: "carrier_id",
      header: "Carrier",
      priority: 3,
      sortable: true,
      filter: "choice",
      filterOptions: (d) => (d.carriers ?? []).map((c) => ({ value: String(c.id), label: c.label })),
      cell: (row, d) => row.carrier?.name ?? (labelOf(d.carriers, row.carrier_id) || "—"),
    },
    {
      key: "tracking_number_1",
      header: "Tracking 1",
      priority: 4,
      sortable: true,
      filter: "text",
      className: "max-w-36 whitespace-normal break-all",
    },
    {
      key: "tracking_number_2",
      header: "Tracking 2",
      priority: 5,
      sortable: true,
      filter: "text",
      className: "max-w-36 whitespace-normal break-all",
    },
    {
      key: "instructions_notes",
      header: "Notes",
      priority: 5,
      sortable: true,
      filter: "text",
      className: "max-w-40 truncate",
    },
    {
      key: "documents",
      header: "Shipping docs",
      priority: 4,
      cell: (row) =>
        row.documents.length === 0 ? (
          <span className="text-muted-foreground">—</span>
        ) : (
          <ul className="space-y-0.5">
            {row.documents.map((doc) => (
              <li key={doc.id}>
                <a
                  href={doc.url}
                  download={doc.original_name}
                  className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline"
                >
                  <FileTextIcon className="size-3.5" aria-hidden />
                  {DOCUMENT_TYPE_LABELS[doc.document_type] ?? doc.original_name}
                </a>
              </li>
            ))}
          </ul>
        ),
    },
  ],
  fields: PRINT_FIELDS,
  loadSchema: () => import("../../../db/contracts/shipments").then((contract) => contract.ZShipmentInput),
  blank: () => ({}),
  toForm: (s) => ({ ...s }),
};
