// What each document needs before it can be generated: required fields, the screening gate, each
// line's licence standing, weight warnings, AES and the destination control statement.
import { and, desc, eq } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { decimalToScaled, scaledToDecimal } from "../../../db/contracts/decimal";
import type { TShipmentExportControl } from "../../../db/contracts/export-control";
import {
  DESTINATION_CONTROL_STATEMENT,
  defaultProformaValidUntil,
  hasDestinationControlStatement,
  isControlledEccn,
  type TAesAdvice,
  type TPaperSize,
  type TPaperworkType,
} from "../../../db/contracts/paperwork";
import { contact_screening_results } from "../../../db/schema";
import { shipmentExportControl } from "../export-control/export-control.service";
import { loadShipment, PARTY_LABELS, type TLoaded, type TPartyField } from "./paperwork.load";

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

export async function partyGates(db: TDb, workspaceId: number, loaded: TLoaded): Promise<TPartyGate[]> {
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
export function lineLicences(standing: TShipmentExportControl): TLineLicence[] {
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
export function missingFields(loaded: TLoaded, types: TPaperworkType[]): Record<string, string[]> {
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
