// Builds the paperwork model of a shipment from the database, checks what each document needs
// (required fields, the screening gate, licence coverage), and generates, stores and audits the PDFs.
import { createHash } from "node:crypto";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { decimalToScaled, scaledToDecimal } from "../../../db/contracts/decimal";
import type { TShipmentExportControl } from "../../../db/contracts/export-control";
import {
  DESTINATION_CONTROL_STATEMENT,
  defaultProformaValidUntil,
  hasDestinationControlStatement,
  isControlledEccn,
  PAPERWORK_LABELS,
  type TAesAdvice,
  type TPaperSize,
  type TPaperworkType,
} from "../../../db/contracts/paperwork";
import { PARTY_ID_LABELS, type TPartyIdType } from "../../../db/contracts/party-ids";
import { REASON_FOR_EXPORT_LABELS } from "../../../db/contracts/shipments";
import {
  carriers,
  contact_screening_results,
  contacts,
  countries,
  currencies,
  documents,
  incoterms,
  modes_of_transport,
  packages,
  paperwork_audit_log,
  paperwork_sequences,
  payment_terms,
  products,
  shipment_items,
  shipment_packages,
  shipments,
  users,
  workspaces,
} from "../../../db/schema";
import { AppError, notFound } from "../../lib/errors";
import type { TLogger } from "../../lib/logger";
import { newStorageKey, type TStorage } from "../../lib/storage";
import {
  assertPaperworkAllowed,
  automaticLegend,
  shipmentExportControl,
} from "../export-control/export-control.service";
import { exporterProfileRow, type TExporterProfileRow } from "../exporter-profile/exporter-profile.service";
import type { TPaperParty, TPaperworkModel } from "./paperwork.render";
import { renderInPool } from "./render-pool";
import { findUnrenderable } from "./text-coverage";

export type TPaperworkDeps = { db: TDb; storage: TStorage; logger: TLogger };

type TContactRow = typeof contacts.$inferSelect;
type TShipmentRow = typeof shipments.$inferSelect;

export const PARTY_LABELS = {
  exporter_of_record_id: "Exporter of record",
  importer_of_record_id: "Importer of record",
  ultimate_consignee_id: "Ultimate consignee",
} as const;
type TPartyField = keyof typeof PARTY_LABELS;

/** One party's standing for the compliance gate. */
export type TPartyGate = {
  field: TPartyField;
  label: string;
  contact_id: number;
  company: string;
  /** passed / failed as the newest result says, or null when never screened. */
  status: "passed" | "failed" | null;
  cleared: boolean;
};

/** Which licence covers a line, or why none does. */
export type TLineLicence = {
  item_id: number;
  product_id: number;
  product_number: string;
  needs_license: boolean;
  license: { id: number; licence_name: string; reference_number_1: string; expiration_date: string } | null;
  /** What the invoice prints as the line's licence basis: the licence number, the exception symbol, NLR, or "". */
  basis: string;
  message: string;
};

/** What the form shows before Generate Paperwork: missing fields, the gate, licences, AES, DCS. */
export type TPaperworkReadiness = {
  missing: Record<string, string[]>;
  parties: TPartyGate[];
  blocked: boolean;
  licences: TLineLicence[];
  warnings: string[];
  aes: TAesAdvice;
  dcs_required: boolean;
  dcs_text: string;
  statement_has_dcs: boolean;
  proforma_valid_until: string | null;
  paper_size: TPaperSize;
};

const REQUIRED = "This field is required.";

type TLoaded = {
  shipment: TShipmentRow;
  parties: Partial<Record<TPartyField, TContactRow & { country_name: string }>>;
  items: {
    id: number;
    quantity: number;
    extended_value: string;
    unit_of_measure: string;
    /** The unit price of this sale: the line's own, else the catalogue price. */
    unit_price: string;
    product: typeof products.$inferSelect;
    origin: string;
  }[];
  packageLines: (typeof shipment_packages.$inferSelect & { package_name: string })[];
  notifyParty: (TContactRow & { country_name: string }) | null;
  /** The workspace's own legal entity: the exporter when the shipment names none. */
  profile: (TExporterProfileRow & { country_name: string }) | null;
  countryOf: Map<number, { name: string; code: string }>;
  paperSize: TPaperSize;
};

async function loadShipment(db: TDb, workspaceId: number, shipmentId: number): Promise<TLoaded> {
  const [shipment] = await db
    .select()
    .from(shipments)
    .where(and(eq(shipments.id, shipmentId), eq(shipments.workspace_id, workspaceId)));
  if (!shipment) throw notFound("Shipment not found");
  const [workspace] = await db
    .select({ paper_size: workspaces.paper_size })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  const countryRows = await db.select().from(countries);
  const countryOf = new Map(countryRows.map((c) => [c.id, { name: c.name, code: c.code_iso_2 }]));
  const partyIds = (Object.keys(PARTY_LABELS) as TPartyField[])
    .map((field) => shipment[field])
    .filter((id): id is number => typeof id === "number");
  const partyRows = partyIds.length
    ? await db
        .select()
        .from(contacts)
        .where(and(eq(contacts.workspace_id, workspaceId), inArray(contacts.id, partyIds)))
    : [];
  const parties: TLoaded["parties"] = {};
  for (const field of Object.keys(PARTY_LABELS) as TPartyField[]) {
    const row = partyRows.find((r) => r.id === shipment[field]);
    if (row) parties[field] = { ...row, country_name: countryOf.get(row.country_id ?? 0)?.name ?? "" };
  }
  const [notify] = shipment.notify_party_id
    ? await db
        .select()
        .from(contacts)
        .where(and(eq(contacts.workspace_id, workspaceId), eq(contacts.id, shipment.notify_party_id)))
    : [];
  const profile = await exporterProfileRow(db, workspaceId);
  const itemRows = await db
    .select({ item: shipment_items, product: products })
    .from(shipment_items)
    .innerJoin(products, eq(products.id, shipment_items.product_id))
    .where(eq(shipment_items.shipment_id, shipment.id))
    .orderBy(asc(shipment_items.id));
  const packageRows = await db
    .select({ line: shipment_packages, name: packages.name })
    .from(shipment_packages)
    .innerJoin(packages, eq(packages.id, shipment_packages.package_id))
    .where(eq(shipment_packages.shipment_id, shipment.id))
    .orderBy(asc(shipment_packages.id));
  return {
    shipment,
    parties,
    items: itemRows.map(({ item, product }) => ({
      id: item.id,
      quantity: item.quantity,
      extended_value: item.extended_value,
      unit_of_measure: item.unit_of_measure,
      unit_price: item.unit_price ?? product.unit_value,
      product,
      // The line's own country of origin, else the product's.
      origin: countryOf.get(item.origin_country_id ?? product.country_of_origin_id ?? 0)?.name ?? "",
    })),
    packageLines: packageRows.map(({ line, name }) => ({ ...line, package_name: name })),
    notifyParty: notify
      ? { ...notify, country_name: countryOf.get(notify.country_id ?? 0)?.name ?? "" }
      : null,
    profile: profile?.company.trim()
      ? { ...profile, country_name: countryOf.get(profile.country_id ?? 0)?.name ?? "" }
      : null,
    countryOf,
    paperSize: workspace?.paper_size === "a4" ? "a4" : "letter",
  };
}

async function partyGates(db: TDb, workspaceId: number, loaded: TLoaded): Promise<TPartyGate[]> {
  const gates: TPartyGate[] = [];
  for (const field of Object.keys(PARTY_LABELS) as TPartyField[]) {
    const party = loaded.parties[field];
    if (!party) continue;
    const [latest] = await db
      .select({ status: contact_screening_results.status })
      .from(contact_screening_results)
      .where(
        and(
          eq(contact_screening_results.workspace_id, workspaceId),
          eq(contact_screening_results.contact_id, party.id),
        ),
      )
      .orderBy(desc(contact_screening_results.id))
      .limit(1);
    const status = latest?.status === "passed" || latest?.status === "failed" ? latest.status : null;
    gates.push({
      field,
      label: PARTY_LABELS[field],
      contact_id: party.id,
      company: party.company,
      status,
      cleared: status === "passed",
    });
  }
  return gates;
}

/** Each line's licence standing, from the export-control determination (chart, licences, exceptions). */
function lineLicences(standing: TShipmentExportControl): TLineLicence[] {
  return standing.lines.map((line) => ({
    item_id: line.item_id,
    product_id: line.product_id,
    product_number: line.product_number,
    needs_license:
      line.determination.outcome === "license_required" || line.determination.outcome === "embargo",
    license:
      line.license?.covers === true
        ? {
            id: line.license.id,
            licence_name: line.license.name,
            reference_number_1: line.license.number,
            expiration_date: "",
          }
        : null,
    basis: line.basis.text,
    message: [
      line.determination.summary,
      line.basis.kind === "license"
        ? `Covered by licence ${line.basis.text}.`
        : line.basis.kind === "exception"
          ? `Shipped under licence exception ${line.basis.text}.`
          : line.basis.kind === "override"
            ? "Overridden with a written justification."
            : "",
      line.problem ? line.determination.next_step : "",
    ]
      .filter(Boolean)
      .join(" "),
  }));
}

/** The required fields of each document type, all missing ones at once (field → messages). */
function missingFields(loaded: TLoaded, types: TPaperworkType[]): Record<string, string[]> {
  const { shipment, parties, items } = loaded;
  const errors: Record<string, string[]> = {};
  const add = (field: string, message = REQUIRED) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  if (!shipment.name.trim()) add("name");
  if (!parties.exporter_of_record_id && !loaded.profile) {
    add("exporter_of_record_id", "Choose the exporter of record, or fill in the exporter profile.");
  }
  if (!parties.importer_of_record_id) add("importer_of_record_id");
  if (items.length === 0) add("items", "Add at least one item.");
  const invoices = types.some((t) => t === "commercial_invoice" || t === "proforma_invoice");
  if (invoices) {
    if (decimalToScaled(shipment.total_value, 2) <= 0) {
      add("total_value", "The total value must be more than 0: add items with a unit value.");
    }
    if (!shipment.currency_id) add("currency_id", "Choose a currency for the invoice.");
    if (!shipment.incoterm_id) add("incoterm_id", "Choose an Incoterm for the invoice.");
  }
  if (types.includes("packing_list") && loaded.packageLines.length === 0) {
    add("packages", "Add at least one package for the packing list.");
  }
  if (types.includes("proforma_invoice") && !shipment.ship_date && !shipment.proforma_valid_until) {
    add("proforma_valid_until", "Set a ship date or a 'valid until' date for the proforma invoice.");
  }
  return errors;
}

/** The lines' net weight and the packages' net weight should be the same goods weighed twice. */
function netWeightWarnings(loaded: TLoaded): string[] {
  if (loaded.items.length === 0 || loaded.packageLines.length === 0) return [];
  const lines = loaded.items.reduce(
    (g, i) => g + decimalToScaled(i.product.net_weight || "0", 3) * i.quantity,
    0,
  );
  const packed = loaded.packageLines.reduce(
    (g, p) => g + decimalToScaled(p.net_weight || "0", 3) * p.quantity,
    0,
  );
  if (lines === packed) return [];
  const kg = (grams: number) => `${scaledToDecimal(grams, 3)} kg`;
  return [
    `The items' net weight (${kg(lines)}) and the packages' net weight (${kg(packed)}) disagree: the documents print the packages' figure. Check the products' weights or the packing.`,
  ];
}

function statementNeedsDcs(loaded: TLoaded): boolean {
  return loaded.items.some((i) => isControlledEccn(i.product.US_ECCN));
}

/** Everything the form shows before the user presses Generate Paperwork. */
export async function paperworkReadiness(
  db: TDb,
  workspaceId: number,
  shipmentId: number,
  types: TPaperworkType[] = ["commercial_invoice", "proforma_invoice", "packing_list"],
): Promise<TPaperworkReadiness> {
  const loaded = await loadShipment(db, workspaceId, shipmentId);
  const parties = await partyGates(db, workspaceId, loaded);
  const standing = await shipmentExportControl(db, workspaceId, shipmentId);
  const licences = lineLicences(standing);
  const { eei } = standing;
  return {
    missing: missingFields(loaded, types),
    parties,
    blocked: parties.some((p) => !p.cleared),
    licences,
    warnings: [...standing.refusals, ...netWeightWarnings(loaded)],
    aes: (eei.itn_required
      ? { kind: "itn_required", suggestion: null, message: `An ITN is required. ${eei.reasons.join(" ")}` }
      : {
          kind: "exempt",
          suggestion: eei.exemption,
          message: `No ITN is required: ${eei.exemption} applies (it is filled in when the paperwork is generated).`,
        }) as TAesAdvice,
    dcs_required: statementNeedsDcs(loaded),
    dcs_text: DESTINATION_CONTROL_STATEMENT,
    statement_has_dcs: hasDestinationControlStatement(loaded.shipment.preview_statement_text),
    proforma_valid_until:
      loaded.shipment.proforma_valid_until ?? defaultProformaValidUntil(loaded.shipment.ship_date),
    paper_size: loaded.paperSize,
  };
}

/**
 * The exporter profile as a party: the EIN and the EORI fill the two identifier places; the further
 * identifier takes the place of whichever of them is missing.
 */
function profileParty(profile: NonNullable<TLoaded["profile"]>): TPaperParty {
  const ids = [
    profile.ein ? { label: "EIN", value: profile.ein } : null,
    profile.eori ? { label: "EORI", value: profile.eori } : null,
    profile.other_id ? { label: idLabel(profile.other_id_type) || "ID", value: profile.other_id } : null,
  ].filter((id): id is { label: string; value: string } => id !== null);
  return {
    company: profile.company,
    street: profile.street,
    city: profile.city,
    state_province: profile.state_province,
    postal_code: profile.postal_code,
    country: profile.country_name,
    tax_id: ids[0]?.value ?? "",
    tax_id_label: ids[0]?.label ?? "",
    other_id: ids[1]?.value ?? "",
    other_id_label: ids[1]?.label ?? "",
    contact: profile.signatory_name,
    phone: profile.phone,
    email: profile.email,
  };
}

const idLabel = (type: string | undefined) =>
  type && type in PARTY_ID_LABELS ? PARTY_ID_LABELS[type as TPartyIdType] : "";

function toParty(row: (TContactRow & { country_name: string }) | undefined): TPaperParty {
  return {
    company: row?.company ?? "",
    street: row?.street ?? "",
    city: row?.city ?? "",
    state_province: row?.state_province ?? "",
    postal_code: row?.postal_code ?? "",
    country: row?.country_name ?? "",
    tax_id: row?.tax_id ?? "",
    tax_id_label: idLabel(row?.tax_id_type),
    other_id_label: idLabel(row?.other_id_type),
    other_id: row?.other_id ?? "",
    contact: row?.contact_1 ?? "",
    phone: row?.phone_1 ?? "",
    email: row?.email_1 ?? "",
  };
}

/**
 * The Incoterm's named place: the user's, else the port the term points at — E/F terms are named at
 * the place of shipment, C/D terms at the destination (Incoterms® 2020).
 */
function incotermPlace(code: string, shipment: TShipmentRow): string {
  if (shipment.incoterm_place.trim()) return shipment.incoterm_place.trim();
  if (/^(EXW|FCA|FAS|FOB)$/.test(code)) return shipment.port_of_export;
  return shipment.port_of_import;
}

const today = () => new Date().toISOString().slice(0, 10);

/** Next number of a workspace's series for this year (INV-2026-0042 / PF-2026-0007). */
async function nextNumber(db: TDb, workspaceId: number, series: "invoice" | "proforma"): Promise<string> {
  const year = new Date().getUTCFullYear();
  const [row] = await db
    .insert(paperwork_sequences)
    .values({ workspace_id: workspaceId, series, year, last_number: 1 })
    .onConflictDoUpdate({
      target: [paperwork_sequences.workspace_id, paperwork_sequences.series, paperwork_sequences.year],
      set: { last_number: sql`${paperwork_sequences.last_number} + 1` },
    })
    .returning();
  return `${series === "invoice" ? "INV" : "PF"}-${year}-${String(row.last_number).padStart(4, "0")}`;
}

/** Builds the model every document of the shipment is drawn from. */
async function buildModel(
  deps: TPaperworkDeps,
  workspaceId: number,
  loaded: TLoaded,
  licences: TLineLicence[],
): Promise<Omit<TPaperworkModel, "number">> {
  const { db } = deps;
  const s = loaded.shipment;
  const [carrierRows, incotermRows, currencyRows, termRows, modeRows] = await Promise.all([
    db.select().from(carriers),
    db.select().from(incoterms),
    db.select().from(currencies),
    db.select().from(payment_terms),
    db.select().from(modes_of_transport),
  ]);
  const carrier = carrierRows.find((r) => r.id === s.carrier_id);
  const incoterm = incotermRows.find((r) => r.id === s.incoterm_id);
  const currency = currencyRows.find((r) => r.id === s.currency_id);
  const terms = termRows.find((r) => r.id === s.payment_terms_id);
  const mode = modeRows.find((r) => r.id === s.mode_of_transport_id);
  let signature: Uint8Array | null = null;
  if (s.user_id) {
    const [user] = await db
      .select({ key: users.signature_key })
      .from(users)
      .where(and(eq(users.id, s.user_id), eq(users.workspace_id, workspaceId)));
    const blob = user?.key ? await deps.storage.get(user.key) : null;
    if (blob) signature = new Uint8Array(await blob.arrayBuffer());
  }
  const exporterParty = loaded.parties.exporter_of_record_id;
  // The workspace's own logo heads its own documents: only when the profile is the exporter.
  const logoBlob =
    !exporterParty && loaded.profile?.logo_key ? await deps.storage.get(loaded.profile.logo_key) : null;
  const logo = logoBlob ? new Uint8Array(await logoBlob.arrayBuffer()) : null;
  const consignee = loaded.parties.ultimate_consignee_id;
  const importer = loaded.parties.importer_of_record_id;
  const sameAsImporter = !consignee || consignee.id === importer?.id;
  const destination = (consignee ?? importer)?.country_name ?? "";
  const pieces = loaded.packageLines.reduce((n, p) => n + p.quantity, 0);
  const reference = s.shipper_reference_number || s.invoice_number;
  const reason = s.reason_for_export as keyof typeof REASON_FOR_EXPORT_LABELS;
  return {
    date: s.invoice_date ?? today(),
    page_size: loaded.paperSize,
    exporter: exporterParty
      ? toParty(exporterParty)
      : loaded.profile
        ? profileParty(loaded.profile)
        : toParty(undefined),
    letterhead: exporterParty ? "" : (loaded.profile?.letterhead ?? ""),
    logo: exporterParty ? null : logo,
    importer: toParty(importer),
    consignee: sameAsImporter ? null : toParty(consignee),
    notify_party: loaded.notifyParty ? toParty(loaded.notifyParty) : null,
    ship_date: s.ship_date ?? "",
    carrier: carrier?.name ?? "",
    mode_of_transport: mode?.name ?? "",
    bol_hawb_tracking: s.bol_hawb_tracking,
    tracking_numbers: [s.tracking_number_1, s.tracking_number_2],
    port_of_export: s.port_of_export,
    port_of_import: s.port_of_import,
    country_of_export: (exporterParty ?? loaded.profile)?.country_name ?? "",
    country_of_destination: destination,
    reason_for_export: REASON_FOR_EXPORT_LABELS[reason] ?? "",
    incoterm: incoterm?.code ?? "",
    incoterm_place: incoterm ? incotermPlace(incoterm.code, s) : "",
    currency: currency?.code ?? "",
    payment_terms: terms?.name ?? "",
    consignee_reference: s.consignee_reference_number,
    shipper_reference: s.shipper_reference_number,
    lines: loaded.items.map((item) => ({
      product_number: item.product.product_number,
      name: item.product.name,
      description: item.product.description,
      hts: item.product.HTS,
      eccn: item.product.US_ECCN,
      origin: item.origin,
      quantity: item.quantity,
      unit_of_measure: item.unit_of_measure,
      unit_value: item.unit_price,
      extended_value: item.extended_value,
      unit_net_weight: item.product.net_weight,
      license_number: licences.find((l) => l.item_id === item.id)?.license?.reference_number_1 ?? null,
      license_basis: licences.find((l) => l.item_id === item.id)?.basis ?? "",
    })),
    packages: loaded.packageLines.map((p) => ({
      type: p.package_name,
      quantity: p.quantity,
      net_weight: p.net_weight,
      gross_weight: p.gross_weight,
      length: p.length,
      width: p.width,
      height: p.height,
    })),
    freight: s.freight,
    insurance: s.insurance,
    other_charges: s.other_charges,
    other_charges_label: s.other_charges_label,
    discount: s.discount,
    statement: s.preview_statement_text,
    aes_citation: s.aes_citation,
    valid_until: s.proforma_valid_until ?? defaultProformaValidUntil(s.ship_date),
    marks:
      s.marks_and_numbers.trim() ||
      [
        (consignee ?? importer)?.company ?? "",
        destination ? destination.toUpperCase() : "",
        reference,
        pieces > 0 ? `PACKAGES 1-${pieces}` : "",
      ]
        .filter(Boolean)
        .join(" / "),
    // The shipment's signatory, else the profile's default one.
    signature: s.user_name.trim()
      ? { image: signature, name: s.user_name, title: s.user_title }
      : {
          image: signature,
          name: loaded.profile?.signatory_name ?? "",
          title: loaded.profile?.signatory_title ?? "",
        },
  };
}

const FILE_BASES: Record<TPaperworkType, string> = {
  commercial_invoice: "commercial-invoice",
  proforma_invoice: "proforma-invoice",
  packing_list: "packing-list",
  certificate_of_origin: "certificate-of-origin",
};

/** A file name part without anything a file system or header would choke on. */
function fileSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "document";
}

export type TGenerated = {
  documents: {
    id: number;
    document_type: TPaperworkType;
    original_name: string;
    sha256: string;
    size: number;
    /** The shipment's earlier documents of this type that this one replaced. */
    replaced_document_ids?: number[];
  }[];
  warnings: string[];
};

/**
 * Generates each requested type from the shipment's current data: 422 listing every missing field
 * (nothing generated), 409 naming each party not cleared by screening (nothing generated); licence
 * gaps are warnings, recorded in the audit log with the hashes of the files.
 */
export async function generatePaperwork(
  deps: TPaperworkDeps,
  input: {
    workspaceId: number;
    userId: number;
    userEmail: string;
    shipmentId: number;
    types: TPaperworkType[];
  },
): Promise<TGenerated> {
  const types = [...new Set(input.types)];
  if (types.length === 0) return { documents: [], warnings: [] };
  const { db } = deps;
  const loaded = await loadShipment(db, input.workspaceId, input.shipmentId);
  const missing = missingFields(loaded, types);
  if (Object.keys(missing).length > 0) {
    const names = Object.keys(missing).join(", ");
    throw new AppError("VALIDATION", `Fill in what the documents need before generating them: ${names}.`, {
      errors: missing,
      body: { status: { error: true, errorMessage: `Missing for the paperwork: ${names}.` } },
    });
  }
  const gates = await partyGates(db, input.workspaceId, loaded);
  const uncleared = gates.filter((g) => !g.cleared);
  if (uncleared.length > 0) {
    const names = uncleared
      .map((g) => `${g.label} ${g.company} (${g.status === "failed" ? "failed screening" : "not screened"})`)
      .join("; ");
    const message = `Paperwork cannot be generated until every party is cleared on the screening screen: ${names}.`;
    throw new AppError("CONFLICT", message, {
      body: {
        status: { error: true, errorMessage: message },
        parties: uncleared.map(({ field, label, contact_id, company, status }) => ({
          field,
          label,
          contact_id,
          company,
          status,
        })),
      },
    });
  }
  // Export control: a line that needs a licence and has none, an embargoed destination, or EEI not
  // settled refuses the paperwork (422, nothing generated); an applicable NOEEI legend is filled in.
  const standing = await shipmentExportControl(db, input.workspaceId, loaded.shipment.id);
  assertPaperworkAllowed(standing);
  // The legend is printed from memory and stored with the documents, in the same transaction.
  const legend = automaticLegend(standing, loaded.shipment.aes_citation);
  if (legend) loaded.shipment.aes_citation = legend;
  const licences = lineLicences(standing);
  const warnings = standing.lines.flatMap((l) => l.warnings.map((w) => `${l.product_number}: ${w}`));

  // Numbers: the shipper reference is the invoice number; without one the shipment gets the next
  // number of the workspace's series once, and keeps it for every regeneration.
  const s = loaded.shipment;
  if (!s.shipper_reference_number && !s.invoice_number) {
    s.invoice_number = await nextNumber(db, input.workspaceId, "invoice");
    await db.update(shipments).set({ invoice_number: s.invoice_number }).where(eq(shipments.id, s.id));
  }
  if (types.includes("proforma_invoice") && !s.proforma_number) {
    s.proforma_number = await nextNumber(db, input.workspaceId, "proforma");
    await db.update(shipments).set({ proforma_number: s.proforma_number }).where(eq(shipments.id, s.id));
  }
  const invoiceNumber = s.shipper_reference_number || s.invoice_number;
  const base = await buildModel(deps, input.workspaceId, loaded, licences);
  const unrenderable = await findUnrenderable({ ...base, number: invoiceNumber });
  if (unrenderable) {
    const { field, label, char, codepoint } = unrenderable;
    const message = `${label} holds the character "${char}" (${codepoint}), which no font of the paperwork can print. Replace it and generate again.`;
    throw new AppError("VALIDATION", message, {
      errors: { [field]: [message] },
      body: { status: { error: true, errorMessage: message } },
    });
  }

  // Render everything first, store afterwards: a failure while drawing leaves nothing behind.
  const rendered: { type: TPaperworkType; bytes: Uint8Array; name: string }[] = [];
  for (const type of types) {
    const number = type === "proforma_invoice" ? s.proforma_number : invoiceNumber;
    const bytes = await renderInPool(type, { ...base, number });
    rendered.push({ type, bytes, name: `${FILE_BASES[type]}-${fileSafe(number)}.pdf` });
  }
  const storedKeys: string[] = [];
  try {
    const out: TGenerated["documents"] = [];
    for (const doc of rendered) {
      const key = newStorageKey("documents");
      await deps.storage.put(key, doc.bytes);
      storedKeys.push(key);
      out.push({
        id: 0,
        document_type: doc.type,
        original_name: doc.name,
        sha256: createHash("sha256").update(doc.bytes).digest("hex"),
        size: doc.bytes.length,
      });
    }
    const replacedKeys: string[] = [];
    await db.transaction(async (tx) => {
      // Regenerating replaces the shipment's previous document of each type (the audit log keeps
      // the earlier generation's entry and hash) instead of piling up copies.
      const previous = await tx
        .select({ id: documents.id, type: documents.document_type, key: documents.storage_key })
        .from(documents)
        .where(
          and(
            eq(documents.workspace_id, input.workspaceId),
            eq(documents.shipment_id, s.id),
            inArray(documents.document_type, types),
          ),
        );
      if (previous.length) {
        await tx.delete(documents).where(
          inArray(
            documents.id,
            previous.map((p) => p.id),
          ),
        );
        for (const p of previous) if (p.key) replacedKeys.push(p.key);
      }
      for (const doc of out) {
        const ids = previous.filter((p) => p.type === doc.document_type).map((p) => p.id);
        if (ids.length) doc.replaced_document_ids = ids;
      }
      for (const [i, doc] of out.entries()) {
        const [row] = await tx
          .insert(documents)
          .values({
            workspace_id: input.workspaceId,
            shipment_id: s.id,
            document_type: doc.document_type,
            original_name: doc.original_name,
            extension: "pdf",
            content_type: "application/pdf",
            size: doc.size,
            storage_key: storedKeys[i],
          })
          .returning({ id: documents.id });
        doc.id = row.id;
      }
      if (legend) await tx.update(shipments).set({ aes_citation: legend }).where(eq(shipments.id, s.id));
      await tx.insert(paperwork_audit_log).values({
        workspace_id: input.workspaceId,
        shipment_id: s.id,
        user_id: input.userId,
        user_email: input.userEmail,
        documents: out.map((d) => ({
          document_type: d.document_type,
          document_id: d.id,
          original_name: d.original_name,
          sha256: d.sha256,
          size: d.size,
          ...(d.replaced_document_ids ? { replaced_document_ids: d.replaced_document_ids } : {}),
        })),
        warnings,
      });
    });
    // The replaced files go once no row points at them any more.
    for (const key of replacedKeys) await deps.storage.delete(key).catch(() => {});
    deps.logger.info("paperwork generated", {
      shipment: s.id,
      types: types.map((t) => PAPERWORK_LABELS[t]).join(", "),
      warnings: warnings.length,
    });
    return { documents: out, warnings };
  } catch (error) {
    // No row points at these files: take them back so nothing half-written stays.
    for (const key of storedKeys) await deps.storage.delete(key).catch(() => {});
    throw error;
  }
}

/** The workspace's paper size setting. */
export async function paperSizeOf(db: TDb, workspaceId: number): Promise<TPaperSize> {
  const [row] = await db
    .select({ paper_size: workspaces.paper_size })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row?.paper_size === "a4" ? "a4" : "letter";
}

/** Changes the workspace's paper size. */
export async function setPaperSize(db: TDb, workspaceId: number, size: TPaperSize): Promise<TPaperSize> {
  await db.update(workspaces).set({ paper_size: size }).where(eq(workspaces.id, workspaceId));
  return size;
}

/** The audit trail of a shipment's generations, newest first. */
export async function paperworkAudit(db: TDb, workspaceId: number, shipmentId: number) {
  // Another workspace's (or a missing) shipment is a 404, not an empty log.
  const [owned] = await db
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(eq(shipments.workspace_id, workspaceId), eq(shipments.id, shipmentId)));
  if (!owned) throw notFound("Shipment not found");
  return db
    .select()
    .from(paperwork_audit_log)
    .where(
      and(eq(paperwork_audit_log.workspace_id, workspaceId), eq(paperwork_audit_log.shipment_id, shipmentId)),
    )
    .orderBy(desc(paperwork_audit_log.id));
}
