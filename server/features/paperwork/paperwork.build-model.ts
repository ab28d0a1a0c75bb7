// Builds the paperwork model every document of a shipment is drawn from.
import { and, eq } from "drizzle-orm";
import { defaultProformaValidUntil } from "../../../db/contracts/paperwork";
import { PARTY_ID_LABELS, type TPartyIdType } from "../../../db/contracts/party-ids";
import { REASON_FOR_EXPORT_LABELS } from "../../../db/contracts/shipments";
import {
  carriers,
  currencies,
  incoterms,
  modes_of_transport,
  payment_terms,
  users,
} from "../../../db/schema";
import type { TContactRow, TLoaded, TPaperworkDeps, TShipmentRow } from "./paperwork.load";
import type { TPaperParty, TPaperworkModel } from "./paperwork.model";
import type { TLineLicence } from "./paperwork.readiness";

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

/** Builds the model every document of the shipment is drawn from. */
export async function buildModel(
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
      // Contents name the shipment's items; one no longer shipped is left out.
      contents: p.contents.flatMap((c) => {
        const item = loaded.items.find((i) => i.product.id === c.product_id);
        return item
          ? [
              {
                product_number: item.product.product_number,
                description: item.product.name || item.product.description,
                quantity: c.quantity,
                unit_of_measure: item.unit_of_measure,
                ...(c.package ? { package: c.package } : {}),
              },
            ]
          : [];
      }),
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
