// Shipment statuses and document types, without zod: the shipments list shows them, and list
// screens do not load zod (re-exported by ./shipments).

// ---------------------------------------------------------------------------------------------
// Status

export const SHIPMENT_STATUS = {
  TEMPLATE: 1,
  DRAFT: 2,
  IN_TRANSIT: 3,
  CUSTOMS: 4,
  DELAYED: 5,
  DELIVERED: 6,
} as const;

export type TShipmentStatusId = (typeof SHIPMENT_STATUS)[keyof typeof SHIPMENT_STATUS];

/** The seeded shipping_statuses dictionary with the spec's colours; labels are shown upper case. */
export const SHIPMENT_STATUSES = [
  { id: 1, name: "template", label: "TEMPLATE", color: "gray" },
  { id: 2, name: "draft", label: "DRAFT", color: "yellow" },
  { id: 3, name: "in transit", label: "IN TRANSIT", color: "blue" },
  { id: 4, name: "customs", label: "CUSTOMS", color: "orange" },
  { id: 5, name: "delayed", label: "DELAYED", color: "red" },
  { id: 6, name: "delivered", label: "DELIVERED", color: "green" },
] as const;

/** Statuses a shipment has once it left draft: leaving draft checks the required fields. */
export const SUBMITTED_STATUSES: readonly number[] = [3, 4, 5, 6];

/** The status as shown: a missing or unknown status shows DRAFT (spec section 4). */
export function shipmentStatusOf(id: number | null | undefined) {
  return SHIPMENT_STATUSES.find((s) => s.id === id) ?? SHIPMENT_STATUSES[1];
}

// ---------------------------------------------------------------------------------------------
// Documents

export const GENERATED_DOCUMENT_TYPES = [
  "commercial_invoice",
  "proforma_invoice",
  "packing_list",
  "certificate_of_origin",
] as const;
export type TGeneratedDocumentType = (typeof GENERATED_DOCUMENT_TYPES)[number];
export const CUSTOM_DOCUMENT_TYPE = "custom";
export const DOCUMENT_TYPE_LABELS: Record<TGeneratedDocumentType | "custom", string> = {
  commercial_invoice: "Commercial Invoice",
  proforma_invoice: "Proforma Invoice",
  packing_list: "Packing List",
  certificate_of_origin: "Certificate of Origin",
  custom: "Custom",
};
