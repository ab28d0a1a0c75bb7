import { type TShipment, UNIT_OF_MEASURE_LABELS, UNITS_OF_MEASURE } from "../../../db/contracts/shipments";

// The shipment form's values: what a stored shipment (or template) looks like in the form, and what
// counts as a change for autosave.

export type TItemLine = {
  product_id: number | "";
  quantity: string;
  unit_of_measure: string;
  /** This sale's unit price; "" is the catalogue price. */
  unit_price: string;
  /** "" is the product's country of origin. */
  origin_country_id: number | "";
};

export const UOM_OPTIONS = UNITS_OF_MEASURE.map((code) => ({
  id: code,
  label: `${code} — ${UNIT_OF_MEASURE_LABELS[code]}`,
}));
export type TPackageLine = {
  package_id: number | "";
  quantity: string;
  net_weight: string;
  gross_weight: string;
  length: string;
  width: string;
  height: string;
  /** Pieces of each product in each package of this line, keyed "p" + product id; "" or absent: none. */
  contents: Record<string, string>;
  /** Contents the API gave single packages of the line (`package` k): kept as they are by the form. */
  single_contents?: { product_id: number; quantity: number; package: number }[];
};

/** The contents key of a product ("p12"): a plain number key would read as an array index. */
export const contentKey = (productId: number) => `p${productId}`;

/** The products the item lines ship (lines with a product chosen), in line order. */
export const shippedProducts = (items: TItemLine[]): number[] =>
  items.flatMap((i) => (i.product_id === "" ? [] : [i.product_id]));

/** The form's contents of every package as the API takes them: the products given pieces ≥ 1. */
export function contentsOf(
  contents: Record<string, string>,
  productIds: number[],
): { product_id: number; quantity: string }[] {
  return productIds.flatMap((id) => {
    const pieces = (contents[contentKey(id)] ?? "").trim();
    return pieces === "" || pieces === "0" ? [] : [{ product_id: id, quantity: pieces }];
  });
}

/** A package line's whole contents for the API: every package's, then single packages' still shipped. */
export function lineContentsOf(line: TPackageLine, productIds: number[]) {
  return [
    ...contentsOf(line.contents ?? {}, productIds),
    ...(line.single_contents ?? []).filter((c) => productIds.includes(c.product_id)),
  ];
}

export type TPartyKey =
  | "exporter_of_record_id"
  | "importer_of_record_id"
  | "ultimate_consignee_id"
  | "notify_party_id";
export const PARTIES: { key: TPartyKey; embedded: keyof TShipment; label: string }[] = [
  { key: "exporter_of_record_id", embedded: "exporter_of_record", label: "Exporter of record" },
  { key: "importer_of_record_id", embedded: "importer_of_record", label: "Importer of record" },
  { key: "ultimate_consignee_id", embedded: "ultimate_consignee", label: "Ultimate consignee" },
  // Printed on the documents for the carrier (often the customs broker); not part of the screening gate.
  { key: "notify_party_id", embedded: "notify_party", label: "Notify party" },
];

export const TEXT_KEYS = [
  "name",
  "ship_date",
  "consignee_reference_number",
  "shipper_reference_number",
  "bol_hawb_tracking",
  "port_of_export",
  "port_of_import",
  "instructions_notes",
  "user_name",
  "user_title",
  "tracking_number_1",
  "tracking_number_2",
  "freight",
  "insurance",
  "discount",
  "other_charges",
  "other_charges_label",
  // Paperwork (the AES citation): saved with the form like every other field.
  "aes_citation",
  "proforma_valid_until",
  "preview_statement_text",
  "invoice_date",
  "reason_for_export",
  "incoterm_place",
  "marks_and_numbers",
] as const;
export const ID_KEYS = [
  "exporter_of_record_id",
  "importer_of_record_id",
  "ultimate_consignee_id",
  "notify_party_id",
  "incoterm_id",
  "carrier_id",
  "payment_terms_id",
  "currency_id",
  "mode_of_transport_id",
] as const;

export type TValues = Record<(typeof TEXT_KEYS)[number], string> &
  Record<(typeof ID_KEYS)[number], number | ""> & { items: TItemLine[]; packages: TPackageLine[] };

/** A stored measure ("1.500" kg) as the input shows it ("1.5"). */
const plain = (value: string) => (value.includes(".") ? value.replace(/0+$/, "").replace(/\.$/, "") : value);

/** The form values of a stored shipment (or template). */
export function toValues(source: TShipment): TValues {
  const record = source as unknown as Record<string, unknown>;
  const values = {} as Record<string, unknown>;
  for (const key of TEXT_KEYS)
    values[key] = record[key] === null || record[key] === undefined ? "" : String(record[key]);
  for (const key of ID_KEYS) values[key] = (record[key] as number | null) ?? "";
  values.ship_date = (values.ship_date as string).slice(0, 10);
  values.items = (source.items as TShipment["items"]).map((i) => ({
    product_id: i.product_id,
    quantity: String(i.quantity),
    unit_of_measure: i.unit_of_measure ?? "PCS",
    unit_price: i.unit_price ?? "",
    origin_country_id: i.origin_country_id ?? "",
  }));
  values.packages = (source.packages as TShipment["packages"]).map((p) => ({
    package_id: p.package_id,
    quantity: String(p.quantity),
    net_weight: plain(p.net_weight),
    gross_weight: plain(p.gross_weight),
    length: plain(p.length),
    width: plain(p.width),
    height: plain(p.height),
    contents: Object.fromEntries(
      (p.contents ?? [])
        .filter((c) => c.package === undefined)
        .map((c) => [contentKey(c.product_id), String(c.quantity)]),
    ),
    single_contents: (p.contents ?? []).flatMap((c) =>
      c.package === undefined ? [] : [{ product_id: c.product_id, quantity: c.quantity, package: c.package }],
    ),
  }));
  return values as TValues;
}

const isComplete = (values: TValues) =>
  values.items.every((i) => i.product_id !== "") && values.packages.every((p) => p.package_id !== "");

/**
 * What counts as a change for autosave: every value, except that the lines are left as they were
 * while a line still lacks its product or package (spec section 4).
 */
export function changeKey(values: TValues, lastLines: { current: string }): string {
  const { items, packages, ...rest } = values;
  if (isComplete(values)) lastLines.current = JSON.stringify({ items, packages });
  return JSON.stringify(rest) + lastLines.current;
}
