/**
 * Shipments: the zod contract and the totals arithmetic shared by server and client.
 *
 * Endpoints (all under /api/shipments, session required, scoped to the caller's workspace; another
 * workspace's shipment, line or document is a 404 exactly like a missing one):
 *
 * - GET  /?page&per_page&sort_<col>=asc|desc&filters[<col>]=… → TShipmentList. Rows are TShipmentRow
 *   (the shipment's own fields + embedded user/carrier/status/currency/parties + documents; no items
 *   or packages). Default sort updated_at desc. Templates (status 1) are left out unless
 *   `filters[status]=template`; `filters[status]` also takes a status id (2–6) or name ("in transit").
 *   Sortable/filterable columns: see SHIPMENT_LIST_COLUMNS. Date filters take a day or a range
 *   `2025-01-01..2025-03-31` (either end may be open).
 * - GET  /create → {item: TShipmentBlank, dictionaries, unit_values} — blank form values, writes nothing.
 *   `unit_values` maps each of the workspace's product ids to its unit value ("12.50"), so the form can
 *   show extended values live with computeShipmentTotals.
 * - POST / (no body) → 201 {id, item: TShipment, status:{error:false}}: a draft (status 2) with the
 *   caller as user (user_name/user_title from the profile).
 * - GET  /{id} → {item: TShipment, status:{error:false}}.
 * - GET  /{id}/edit → {item: TShipment, dictionaries, unit_values}.
 * - PUT  /{id} body ZShipmentInput → {item: TShipment, status:{error:false}}. Lines are replaced as sent
 *   (ids not received are removed; a line id that is not this shipment's is treated as a new line);
 *   leaving `items`/`packages` out keeps the stored lines (the list's status drop-down does that).
 *   Totals are computed by the server (client totals are ignored). `shipping_status_id` is stored as
 *   sent (left out: unchanged) — the server never turns a shipment back into a draft by itself.
 *   Stale `updated_at` → 409 {status:{error:true, errorMessage}, item: <current TShipment>}, nothing
 *   changed. Bad input → 422 {message, errors:{"items.2.quantity": [..]}, status:{error:true, errorMessage}}.
 *   Leaving draft (status 3–6) or asking for documents not generated yet → the required fields
 *   (requiredFieldErrors) are checked too, all at once.
 *   Paperwork hook: createApp({ shipments: { generateDocuments } }) → createShipmentRoutes — when set,
 *   it is called after the save with (c, shipment, types) for the `generate_documents` types that have no
 *   document yet; it stores the documents (document_type = the type) and the answer is the re-read
 *   shipment. Without a generator only the selection is stored. Send in generate_documents the types
 *   the user asked to generate (Generate Paperwork), not every ticked box on each autosave: asking for
 *   a type with no document checks the required fields.
 * - POST /{id}/template body {name} → 201 {id, item: TShipment (status 1), status:{error:false}}: a copy
 *   with parties, lines, details, freight and insurance; without ship_date, tracking numbers, documents.
 * - DELETE /{id}[?force=1] → {result:true, messages}. A shipment that left draft (status 3–6) and has
 *   generated paperwork → 422 {result:false, messages:[…15 CFR part 762…], metadata:{force_flag:true}};
 *   forcing deletes it and its files.
 * - DELETE /items/{shipmentId}/{itemId}, /packages/{shipmentId}/{packageId} → {item: TShipment, status}
 *   (totals recomputed; updated_at moves on, so take the returned item's updated_at for the next PUT).
 *   DELETE /documents/{shipmentId}/{documentId} → {item: TShipment, status}; the stored file goes too
 *   (updated_at is not touched: documents are not part of the PUT; the form drops the type from its
 *   selection itself). GET /documents/{documentId} downloads a document (its `url`).
 * - GET /{id}/signature → the signing user's signature image (what `user.signature_url` points at).
 * - POST /custom-docs/{shipmentId} multipart documents[] → {item: TShipment, documents, failed, status}:
 *   stored as documents of type "custom" with the catalogue's storage rules (size/type limits).
 * - GET /api/dictionary?dropdown_values[]=templates → [{id, label: name}] of the workspace's templates.
 *
 * Money is an exact decimal string with 2 places ("1234.50"), weights kg with up to 3 places stored
 * (2 accepted on input), dimensions inches with 2 places (docs/decisions/001). Dates YYYY-MM-DD.
 */
import { z } from "zod";
import { decimalToScaled } from "./decimal";
import { ZExportControlLineFields, ZExportControlShipmentFields } from "./export-control";
import { decimal, NOT_ID, optionalId, optionalText, REQUIRED, requiredId } from "./fields";
import { ZAesCitation } from "./paperwork";

// Status and document types (without zod, for the list screens): ./shipment-status
export * from "./shipment-status";

import { GENERATED_DOCUMENT_TYPES, type TGeneratedDocumentType } from "./shipment-status";

export const RETENTION_MESSAGE =
  "This shipment has left draft and has generated export paperwork. Export records must normally be kept for five years (15 CFR part 762). Force delete only if you keep these records elsewhere.";
export const STALE_MESSAGE =
  "This shipment was changed elsewhere (another tab or a colleague) since you opened it. Reload to see the current version; your unsaved changes were not stored.";

// ---------------------------------------------------------------------------------------------
// Input (PUT body)

const WHOLE_QUANTITY = "Enter a whole number of at least 1.";

/** Reasons for export as commercial invoices state them (the 'other' case says so in the notes). */
export const REASONS_FOR_EXPORT = [
  "sale",
  "sample",
  "repair_and_return",
  "return",
  "gift",
  "temporary_export",
  "personal_effects",
  "other",
] as const;
export const REASON_FOR_EXPORT_LABELS: Record<(typeof REASONS_FOR_EXPORT)[number], string> = {
  sale: "Sale",
  sample: "Sample (no commercial value)",
  repair_and_return: "Repair and return",
  return: "Return of goods",
  gift: "Gift",
  temporary_export: "Temporary export",
  personal_effects: "Personal effects",
  other: "Other",
};
const MEASURE = "Enter a number of at least 0.01 with at most 2 decimals.";

/** A line quantity: a whole number ≥ 1 (JSON number or its text). */
const quantity = () =>
  z.preprocess(
    (v) => (typeof v === "string" && /^\s*\d{1,9}\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: (i) => (i.input === undefined || i.input === null ? REQUIRED : WHOLE_QUANTITY) })
      .int(WHOLE_QUANTITY)
      .min(1, WHOLE_QUANTITY)
      .max(1_000_000_000, "Must be at most 1,000,000,000."),
  );

const WEIGHT = "Enter a weight of at least 0.01 kg with at most 3 decimals.";

/** A dimension (inches): at least 0.01, at most 2 decimals, as an exact string. */
const measure = () =>
  z
    .union([z.string(), z.number()], { error: (i) => (i.input == null ? REQUIRED : MEASURE) })
    .transform((v) => (typeof v === "number" ? String(v) : v.trim().replace(/,/g, "")))
    .refine((v) => v !== "", REQUIRED)
    .refine((v) => /^\d{1,9}(\.\d{1,2})?$/.test(v) && decimalToScaled(v, 2) >= 1, MEASURE);

/**
 * A package weight (kg): at least 0.01, up to 3 decimals — the grams it is stored in, and what GET
 * answers ('12.500'), so a shipment read from the API can be written back unchanged.
 */
const weight = () =>
  z
    .union([z.string(), z.number()], { error: (i) => (i.input == null ? REQUIRED : WEIGHT) })
    .transform((v) => (typeof v === "number" ? String(v) : v.trim().replace(/,/g, "")))
    .refine((v) => v !== "", REQUIRED)
    .refine((v) => /^\d{1,9}(\.\d{1,3})?$/.test(v) && decimalToScaled(v, 3) >= 10, WEIGHT);

/** A ship date as YYYY-MM-DD that exists; "" and null mean none (drafts may have no date). */
const optionalDate = () =>
  z
    .string({ error: "Enter a date as YYYY-MM-DD." })
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => {
      if (v === null) return true;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
    }, "Enter a date as YYYY-MM-DD.");

/** Units of measure a line's quantity may be counted in (the codes customs forms use). */
export const UNITS_OF_MEASURE = [
  "PCS",
  "SET",
  "PR",
  "DOZ",
  "GR",
  "KG",
  "G",
  "LB",
  "T",
  "M",
  "M2",
  "M3",
  "L",
  "CTN",
  "ROL",
] as const;
export type TUnitOfMeasure = (typeof UNITS_OF_MEASURE)[number];

/** What each unit of measure stands for, for the form's list. */
export const UNIT_OF_MEASURE_LABELS: Record<TUnitOfMeasure, string> = {
  PCS: "Pieces",
  SET: "Sets",
  PR: "Pairs",
  DOZ: "Dozens",
  GR: "Gross (144)",
  KG: "Kilograms",
  G: "Grams",
  LB: "Pounds",
  T: "Metric tons",
  M: "Metres",
  M2: "Square metres",
  M3: "Cubic metres",
  L: "Litres",
  CTN: "Cartons",
  ROL: "Rolls",
};

/** A line's own unit price: "" or null means the product's catalogue price. */
const optionalUnitPrice = () =>
  z.preprocess((v) => (v === "" || v === undefined ? null : v), decimal(2, { min: 0 }).nullable());

export const ZShipmentItemInput = z.object({
  id: optionalId().optional(),
  product_id: requiredId(),
  quantity: quantity(),
  /** Export control (schedule_b, license_exception, license_exception_note, license_id, override_justification, schedule_b_unit, schedule_b_quantity): left out, the stored value of the same line stays. */
  ...ZExportControlLineFields,
  unit_of_measure: z
    .preprocess(
      (v) =>
        v === null || v === undefined || v === ""
          ? "PCS"
          : typeof v === "string"
            ? v.trim().toUpperCase()
            : v,
      z.enum(UNITS_OF_MEASURE, { error: `Choose a unit of measure: ${UNITS_OF_MEASURE.join(", ")}.` }),
    )
    .default("PCS"),
  /** The actual unit price of this sale; left out, null or "": the catalogue price. */
  unit_price: optionalUnitPrice()
    .optional()
    .transform((v) => v ?? null),
  /** Where this line's goods originate; null: the product's country of origin. */
  origin_country_id: optionalId()
    .optional()
    .transform((v) => v ?? null),
});

export const ZShipmentPackageInput = z.object({
  id: optionalId().optional(),
  package_id: requiredId(),
  quantity: quantity(),
  net_weight: weight(),
  gross_weight: weight(),
  length: measure(),
  width: measure(),
  height: measure(),
  /**
   * What each package of the line holds: a product of the shipment's items and its pieces per package
   * (each product once). Left out, null or []: contents not assigned. The service checks the products
   * are the shipment's and that the packed pieces do not exceed the items' quantities.
   */
  contents: z
    .preprocess(
      (v) => (v === null || v === undefined ? [] : v),
      z
        .array(
          z.object({
            product_id: requiredId(),
            quantity: quantity(),
            /** Only this package of the line (1…its quantity); left out or null: every package. */
            package: z.preprocess(
              (v) => (v === null || v === "" ? undefined : v),
              z
                .number({ error: "Package must be a whole number from 1 to the line's quantity." })
                .int("Package must be a whole number from 1 to the line's quantity.")
                .min(1, "Package must be a whole number from 1 to the line's quantity.")
                .optional(),
            ),
          }),
          {
            error: "Must be a list of the products and pieces in each package.",
          },
        )
        .max(100, "At most 100 products per package line."),
    )
    .default([]),
});

/**
 * The PUT body: the whole shipment. Drafts save whatever is filled (everything but updated_at and the
 * line rules is optional here); requiredFieldErrors adds the spec's required fields when a shipment
 * leaves draft or asks for paperwork. Unknown members (totals, embedded objects, created_at) are dropped.
 */
export const ZShipmentInput = z
  .object({
    /** The updated_at the edit was based on: a different stored one is a 409. */
    updated_at: z.string({ error: REQUIRED }).trim().min(1, REQUIRED),
    name: optionalText(255),
    exporter_of_record_id: optionalId(),
    importer_of_record_id: optionalId(),
    ultimate_consignee_id: optionalId(),
    /** Left out: the stored notify party stays. */
    notify_party_id: optionalId().optional(),
    freight: decimal(2, { min: 0 }),
    insurance: decimal(2, { min: 0 }),
    /** A discount off the invoice total; left out, the stored one stays. */
    discount: decimal(2, { min: 0 }).optional(),
    /** Other charges added to the invoice total, and what they are; left out, the stored ones stay. */
    other_charges: decimal(2, { min: 0 }).optional(),
    other_charges_label: optionalText(64).optional(),
    ship_date: optionalDate(),
    consignee_reference_number: optionalText(64),
    shipper_reference_number: optionalText(64),
    incoterm_id: optionalId(),
    carrier_id: optionalId(),
    bol_hawb_tracking: optionalText(64),
    payment_terms_id: optionalId(),
    currency_id: optionalId(),
    mode_of_transport_id: optionalId(),
    port_of_export: optionalText(128),
    port_of_import: optionalText(128),
    instructions_notes: optionalText(4000),
    user_name: optionalText(255),
    user_title: optionalText(255),
    /** Stored as sent; left out, the stored status stays. 1 only for templates. */
    shipping_status_id: z
      .preprocess(
        (v) => (typeof v === "string" && /^\d$/.test(v.trim()) ? Number(v) : v),
        z
          .number({ error: "Choose a status from the list." })
          .int(NOT_ID)
          .min(1, "Choose a status from the list.")
          .max(6, "Choose a status from the list."),
      )
      .optional(),
    tracking_number_1: optionalText(64),
    tracking_number_2: optionalText(64),
    preview_statement_text: optionalText(2000),
    /** Paperwork: the AES/EEI citation (ITN or NOEEI legend); left out, the stored one stays. */
    aes_citation: ZAesCitation.optional(),
    /** Proforma 'Valid until' (YYYY-MM-DD); null or "" means ship date + 30 days; left out, unchanged. */
    proforma_valid_until: optionalDate().optional(),
    /** Export control and EEI: usd_exchange_rate, usd_exchange_rate_date, EEI indicators; left out, unchanged. */
    ...ZExportControlShipmentFields,
    /** Invoice date (YYYY-MM-DD); null or "" means the day of generation; left out, unchanged. */
    invoice_date: optionalDate().optional(),
    reason_for_export: z
      .enum(["", ...REASONS_FOR_EXPORT], { error: `Choose from ${REASONS_FOR_EXPORT.join(", ")}.` })
      .optional(),
    incoterm_place: optionalText(128).optional(),
    marks_and_numbers: optionalText(1000).optional(),
    generate_documents: z
      .array(
        z.enum(GENERATED_DOCUMENT_TYPES, { error: `Choose from ${GENERATED_DOCUMENT_TYPES.join(", ")}.` }),
        {
          error: "Must be a list of document types.",
        },
      )
      .nullish()
      .transform((v) => [...new Set(v ?? [])]),
    /** Left out: the stored lines stay. Sent (even []): the lines become exactly these. */
    items: z.array(ZShipmentItemInput, { error: "Must be a list of items." }).max(500).optional(),
    packages: z.array(ZShipmentPackageInput, { error: "Must be a list of packages." }).max(100).optional(),
  })
  .superRefine((value, ctx) => {
    for (const [field, messages] of Object.entries(duplicateLineErrors(value))) {
      ctx.addIssue({
        code: "custom",
        path: field.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
        message: messages[0],
      });
    }
  });

/**
 * Each product once and each package type once per shipment: `items.2.product_id` → message naming the
 * first line. Works on a raw body too, so a 422 for other line errors still lists duplicates.
 */
export function duplicateLineErrors(value: {
  items?: unknown;
  packages?: unknown;
}): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const check = (
    lines: unknown,
    list: "items" | "packages",
    key: "product_id" | "package_id",
    what: string,
  ) => {
    if (!Array.isArray(lines)) return;
    const seen = new Map<string, number>();
    lines.forEach((line, index) => {
      const id = line && typeof line === "object" ? (line as Record<string, unknown>)[key] : undefined;
      if (id === undefined || id === null || id === "") return;
      const first = seen.get(String(id).trim());
      if (first !== undefined) {
        errors[`${list}.${index}.${key}`] = [
          `This ${what} is already on line ${first + 1}; each ${what} can be used only once.`,
        ];
      } else seen.set(String(id).trim(), index);
    });
  };
  check(value.items, "items", "product_id", "product");
  check(value.packages, "packages", "package_id", "package type");
  return errors;
}

export type TShipmentInput = z.input<typeof ZShipmentInput>;
export type TShipmentValues = z.output<typeof ZShipmentInput>;
export type TShipmentItemInput = z.input<typeof ZShipmentItemInput>;
export type TShipmentPackageInput = z.input<typeof ZShipmentPackageInput>;

/** POST /{id}/template body. */
export const ZShipmentTemplateInput = z.object({
  name: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(255, "Please use at most 255 characters."),
});
export type TShipmentTemplateInput = z.input<typeof ZShipmentTemplateInput>;

export const TOTAL_VALUE_POSITIVE = "The total value must be more than 0: add items with a unit value.";
export const ITEMS_REQUIRED = "Add at least one item.";

/**
 * The spec's required fields, checked when a shipment leaves draft or asks for paperwork: name,
 * exporter, importer, at least one item and a positive total value. All missing ones at once.
 */
export function requiredFieldErrors(shipment: {
  name?: string | null;
  exporter_of_record_id?: number | null;
  importer_of_record_id?: number | null;
  item_count: number;
  total_value: string;
}): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!shipment.name?.trim()) errors.name = [REQUIRED];
  if (!shipment.exporter_of_record_id) errors.exporter_of_record_id = [REQUIRED];
  if (!shipment.importer_of_record_id) errors.importer_of_record_id = [REQUIRED];
  if (shipment.item_count < 1) errors.items = [ITEMS_REQUIRED];
  if (decimalToScaled(shipment.total_value, 2) <= 0) errors.total_value = [TOTAL_VALUE_POSITIVE];
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Totals: the one arithmetic both sides use (exact decimals, BigInt cents; never floats)

const toCents = (value: string | number | null | undefined): bigint => {
  if (value === null || value === undefined || value === "") return 0n;
  return BigInt(decimalToScaled(typeof value === "string" ? value.replace(/,/g, "") : value, 2));
};

const centsToDecimal = (cents: bigint): string => {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(3, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
};

export type TTotalsInput = {
  items: { unit_value: string | number | null | undefined; quantity: number | string | null | undefined }[];
  packages: { quantity: number | string | null | undefined }[];
  freight?: string | number | null;
  insurance?: string | number | null;
  /** Added to the invoice total (packing, handling, …). */
  other_charges?: string | number | null;
  /** Taken off the invoice total. */
  discount?: string | number | null;
};

export type TTotals = {
  /** extended_value per item line, in the order given. */
  extended_values: string[];
  total_value: string;
  total_invoice_value: string;
  total_pieces: number;
};

const wholeOrZero = (value: number | string | null | undefined): bigint => {
  const text = String(value ?? "").trim();
  return /^\d{1,12}$/.test(text) ? BigInt(text) : 0n;
};

/**
 * extended_value = unit value × quantity; total_value = Σ extended values (2 decimals);
 * total_invoice_value = total_value + freight + insurance + other charges − discount (negative when the
 * discount is larger: the server refuses that); total_pieces = Σ package quantities.
 * A line still being typed (no unit value, bad quantity) counts as 0 instead of throwing.
 */
export function computeShipmentTotals(input: TTotalsInput): TTotals {
  let total = 0n;
  const extended_values = input.items.map((line) => {
    let cents = 0n;
    try {
      cents = toCents(line.unit_value) * wholeOrZero(line.quantity);
    } catch {
      cents = 0n;
    }
    total += cents;
    return centsToDecimal(cents);
  });
  const extra = (v: string | number | null | undefined) => {
    try {
      return toCents(v);
    } catch {
      return 0n;
    }
  };
  const pieces = input.packages.reduce((sum, line) => sum + wholeOrZero(line.quantity), 0n);
  return {
    extended_values,
    total_value: centsToDecimal(total),
    total_invoice_value: centsToDecimal(
      total +
        extra(input.freight) +
        extra(input.insurance) +
        extra(input.other_charges) -
        extra(input.discount),
    ),
    total_pieces: Number(pieces),
  };
}

// ---------------------------------------------------------------------------------------------
// Response shapes

export type TShipmentParty = { id: number; company: string; city: string; country: string | null };

export type TShipmentUser = {
  id: number;
  title: string;
  name: string;
  surname: string;
  email: string;
  /** URL of the profile's signature image, or null when none was uploaded. */
  signature_url: string | null;
};

export type TShipmentItem = {
  id: number;
  product_id: number;
  quantity: number;
  /** Money, computed by the server. */
  extended_value: string;
  /** The product's current unit value (the catalogue price), for the live totals. */
  unit_value: string;
  /** Export control: Schedule B (10 digits or ""), licence exception symbol and note, chosen licence, override. */
  schedule_b: string;
  license_exception: string;
  license_exception_note: string;
  license_id: number | null;
  override_justification: string;
  /** The Census unit of quantity for the EEI and the quantity in it ("": the piece count / not given). */
  schedule_b_unit: string;
  schedule_b_quantity: string;
  unit_of_measure: TUnitOfMeasure;
  /** This sale's unit price; null: the catalogue price (unit_value). */
  unit_price: string | null;
  /** This line's country of origin; null: the product's. */
  origin_country_id: number | null;
  product: {
    id: number;
    name: string;
    product_number: string;
    description: string;
    US_ECCN: string;
    HTS: string;
    country_of_origin_id: number | null;
    net_weight: string;
  };
};

export type TShipmentPackage = {
  id: number;
  package_id: number;
  /** The package type's name ("Box"). */
  package_name: string;
  quantity: number;
  /** kg, 3 decimals as stored ("1.500"). */
  net_weight: string;
  gross_weight: string;
  /** inches, 2 decimals. */
  length: string;
  width: string;
  height: string;
  /** What each package of this line holds (product and pieces per package; `package`: only that one); [] when not assigned. */
  contents: { product_id: number; quantity: number; package?: number }[];
};

export type TShipmentDocument = {
  id: number;
  document_type: TGeneratedDocumentType | "custom";
  path: string;
  original_name: string;
  extension: string;
  /** Download URL (GET, session cookie). */
  url: string;
  created_at: string;
};

/** The shipment's own columns as the API sends them. */
export type TShipmentFields = {
  id: number;
  name: string;
  exporter_of_record_id: number | null;
  importer_of_record_id: number | null;
  ultimate_consignee_id: number | null;
  notify_party_id: number | null;
  freight: string;
  insurance: string;
  discount: string;
  other_charges: string;
  other_charges_label: string;
  total_value: string;
  total_invoice_value: string;
  ship_date: string | null;
  consignee_reference_number: string;
  shipper_reference_number: string;
  incoterm_id: number | null;
  carrier_id: number | null;
  bol_hawb_tracking: string;
  payment_terms_id: number | null;
  currency_id: number | null;
  mode_of_transport_id: number | null;
  port_of_export: string;
  port_of_import: string;
  instructions_notes: string;
  user_name: string;
  user_title: string;
  user_id: number | null;
  shipping_status_id: number;
  tracking_number_1: string;
  tracking_number_2: string;
  total_pieces: number;
  preview_statement_text: string;
  /** Paperwork: the AES/EEI citation printed on the commercial invoice. */
  aes_citation: string;
  proforma_valid_until: string | null;
  invoice_date: string | null;
  reason_for_export: string;
  incoterm_place: string;
  marks_and_numbers: string;
  /** The invoice's series number when there is no shipper reference (set at first generation). */
  invoice_number: string;
  proforma_number: string;
  /** US dollars per one unit of the shipment's currency ("" when not set), and the day of that rate. */
  usd_exchange_rate: string;
  usd_exchange_rate_date: string | null;
  /** EEI: ultimate consignee type (D/G/R/O), related party, routed transaction, hazardous materials (Y/N). */
  ultimate_consignee_type: string;
  related_party: string;
  routed_transaction: string;
  hazardous_materials: string;
  generate_documents: TGeneratedDocumentType[];
  created_at: string;
  updated_at: string;
};

/** A list row: own fields, embedded objects and documents (no lines). */
export type TShipmentRow = TShipmentFields & {
  user: TShipmentUser | null;
  /** The member who saved the shipment last (user created it); null before a save by a member. */
  updated_by_user_id?: number | null;
  updated_by?: { id: number; name: string; surname: string; email: string } | null;
  carrier: { id: number; name: string } | null;
  status: { id: number; name: string; label: string; color: string };
  currency: { id: number; code: string; currency: string } | null;
  exporter_of_record: TShipmentParty | null;
  importer_of_record: TShipmentParty | null;
  ultimate_consignee: TShipmentParty | null;
  notify_party: TShipmentParty | null;
  documents: TShipmentDocument[];
};

/** GET /{id}, PUT, POST: the whole shipment. */
export type TShipment = TShipmentRow & { items: TShipmentItem[]; packages: TShipmentPackage[] };

export type TShipmentList = {
  data: TShipmentRow[];
  total: number;
  current_page: number;
  per_page: number;
  last_page: number;
};

/** GET /create: blank form values (nothing is stored). */
export type TShipmentBlank = Omit<TShipmentFields, "id" | "created_at" | "updated_at" | "user_id"> & {
  id: null;
  items: [];
  packages: [];
  documents: [];
};

/** List columns: every column of the spec's Shipments row plus the filters My Shipments offers. */
export const SHIPMENT_LIST_COLUMNS = {
  user_id: { sortable: true, filter: "number" },
  updated_by_user_id: { sortable: true, filter: "number" },
  name: { sortable: true, filter: "text" },
  shipper_reference_number: { sortable: true, filter: "text" },
  consignee_reference_number: { sortable: true, filter: "text" },
  ship_date: { sortable: true, filter: "date" },
  importer_of_record_id: { sortable: true, filter: "number" },
  exporter_of_record_id: { sortable: true, filter: "number" },
  carrier_id: { sortable: true, filter: "number" },
  tracking_number_1: { sortable: true, filter: "text" },
  tracking_number_2: { sortable: true, filter: "text" },
  status: { sortable: true, filter: "status" },
  instructions_notes: { filter: "text" },
  total_value: { sortable: true },
  updated_at: { sortable: true, filter: "date" },
} as const;
