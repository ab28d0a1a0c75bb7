import { and, asc, eq, inArray } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { isDecimal } from "../../../db/contracts/decimal";
import {
  computeShipmentTotals,
  duplicateLineErrors,
  GENERATED_DOCUMENT_TYPES,
  requiredFieldErrors,
  SHIPMENT_STATUS,
  STALE_MESSAGE,
  SUBMITTED_STATUSES,
  type TGeneratedDocumentType,
  type TShipment,
  type TShipmentValues,
  ZShipmentInput,
} from "../../../db/contracts/shipments";
import {
  carriers,
  contacts,
  countries,
  currencies,
  documents,
  incoterms,
  modes_of_transport,
  packages,
  payment_terms,
  products,
  shipment_items,
  shipment_packages,
  shipments,
  type TPackageContent,
} from "../../../db/schema";
import type { TAuth } from "../../lib/context";
import { assertFresh, nextUpdatedAt, StaleRecordError, staleConflict } from "../../lib/entity/concurrency";
import type { TDbOrTx, TEntityDefinition } from "../../lib/entity/entity";
import { getRecord, getRow, referenceErrors, saveFailed } from "../../lib/entity/entity.service";
import { deleteLine, replaceLines } from "../../lib/entity/lines";
import { notFound, type TFieldErrors } from "../../lib/errors";
import { oversizeArrayErrors } from "../../lib/input-bounds";
import { toFieldErrors } from "../../lib/validate";
import {
  auditOverrides,
  lineExportErrors,
  shipmentExportControl,
} from "../export-control/export-control.service";
import { exporterProfileRow } from "../exporter-profile/exporter-profile.service";
import { refreshLastShipmentDates } from "./last-shipment-date";
import { EXPORT_LINE_COLUMNS, shipmentsEntity } from "./shipments.entity";

type TShipmentRow = typeof shipments.$inferSelect;

const TOTAL_TOO_LARGE = "The invoice total is too large to store: check the quantities and unit values.";

/** Top-level ids a PUT may set, and where each must point. */
const REFERENCES: NonNullable<TEntityDefinition["references"]> = {
  exporter_of_record_id: {
    table: contacts,
    scope: "workspace",
    message: "Choose the exporter of record from your address book.",
  },
  importer_of_record_id: {
    table: contacts,
    scope: "workspace",
    message: "Choose the importer of record from your address book.",
  },
  ultimate_consignee_id: {
    table: contacts,
    scope: "workspace",
    message: "Choose the ultimate consignee from your address book.",
  },
  notify_party_id: {
    table: contacts,
    scope: "workspace",
    message: "Choose the notify party from your address book.",
  },
  incoterm_id: { table: incoterms, scope: "global", message: "Choose an Incoterm from the list." },
  carrier_id: { table: carriers, scope: "global", message: "Choose a carrier from the list." },
  payment_terms_id: { table: payment_terms, scope: "global", message: "Choose payment terms from the list." },
  currency_id: { table: currencies, scope: "global", message: "Choose a currency from the list." },
  mode_of_transport_id: {
    table: modes_of_transport,
    scope: "global",
    message: "Choose a mode of transport from the list.",
  },
};

export const PARTIES = ["exporter_of_record_id", "importer_of_record_id", "ultimate_consignee_id"] as const;
const partiesOf = (row: Pick<TShipmentRow, (typeof PARTIES)[number]>) => PARTIES.map((key) => row[key]);

/** The caller's shipment as the API shows it (embedded objects, lines, documents); 404 when not theirs. */
export async function getShipment(db: TDb, workspaceId: number, id: number): Promise<TShipment> {
  return (await getRecord(db, shipmentsEntity, workspaceId, id)) as unknown as TShipment;
}

/** The row of one of the caller's shipments, or the kit's 404 ('Shipment not found'). */
async function shipmentRow(db: TDbOrTx, workspaceId: number, id: number): Promise<TShipmentRow> {
  return (await getRow(db as TDb, shipmentsEntity, workspaceId, id)) as unknown as TShipmentRow;
}

/** POST /shipments: an empty draft (status 2) signed by the caller. */
export async function createDraft(db: TDb, auth: TAuth): Promise<TShipment> {
  const [row] = await db
    .insert(shipments)
    .values({
      workspace_id: auth.workspaceId,
      user_id: auth.user.id,
      user_name: `${auth.user.name} ${auth.user.surname}`.trim(),
      user_title: auth.user.title,
      shipping_status_id: SHIPMENT_STATUS.DRAFT,
    })
    .returning({ id: shipments.id });
  return getShipment(db, auth.workspaceId, row.id);
}

/** The workspace's product ids with their unit values, for the form's live totals. */
export async function unitValues(db: TDb, workspaceId: number): Promise<Record<number, string>> {
  const rows = await db
    .select({ id: products.id, unit_value: products.unit_value })
    .from(products)
    .where(eq(products.workspace_id, workspaceId));
  return Object.fromEntries(rows.map((r) => [r.id, r.unit_value]));
}

/** GET /shipments/create: what a new shipment's form starts from; nothing is stored. */
export function blankShipment(auth: TAuth) {
  return {
    id: null,
    name: "",
    exporter_of_record_id: null,
    importer_of_record_id: null,
    ultimate_consignee_id: null,
    notify_party_id: null,
    freight: "0.00",
    insurance: "0.00",
    discount: "0.00",
    other_charges: "0.00",
    other_charges_label: "",
    total_value: "0.00",
    total_invoice_value: "0.00",
    ship_date: null,
    consignee_reference_number: "",
    shipper_reference_number: "",
    incoterm_id: null,
    carrier_id: null,
    bol_hawb_tracking: "",
    payment_terms_id: null,
    currency_id: null,
    mode_of_transport_id: null,
    port_of_export: "",
    port_of_import: "",
    instructions_notes: "",
    user_name: `${auth.user.name} ${auth.user.surname}`.trim(),
    user_title: auth.user.title,
    shipping_status_id: SHIPMENT_STATUS.DRAFT,
    tracking_number_1: "",
    tracking_number_2: "",
    total_pieces: 0,
    preview_statement_text: "",
    aes_citation: "",
    proforma_valid_until: null,
    invoice_date: null,
    reason_for_export: "",
    incoterm_place: "",
    marks_and_numbers: "",
    invoice_number: "",
    proforma_number: "",
    usd_exchange_rate: "",
    usd_exchange_rate_date: null,
    ultimate_consignee_type: "",
    related_party: "",
    routed_transaction: "",
    hazardous_materials: "",
    generate_documents: [],
    items: [],
    packages: [],
    documents: [],
  };
}

/**
 * Called after a save with the document types asked for that have no document yet: the paperwork
 * generator plugs in here. It runs after the shipment is committed: an error it throws is the PUT's answer (an
 * AppError keeps its status), and the saved shipment stays saved.
 */
export type TGenerateDocuments = (shipment: TShipment, types: TGeneratedDocumentType[]) => Promise<void>;

/** Product ids → unit value for the ones of this workspace; package ids that exist. */
async function lineReferences(db: TDbOrTx, workspaceId: number, values: TShipmentValues) {
  // The packages' contents name products too: their numbers make the contents' messages readable.
  const productIds = [
    ...new Set([
      ...(values.items ?? []).map((line) => line.product_id),
      ...(values.packages ?? []).flatMap((line) => line.contents.map((c) => c.product_id)),
    ]),
  ];
  const packageIds = [...new Set((values.packages ?? []).map((line) => line.package_id))];
  const originIds = [
    ...new Set(
      (values.items ?? []).flatMap((line) => (line.origin_country_id ? [line.origin_country_id] : [])),
    ),
  ];
  const [productRows, packageRows, originRows] = await Promise.all([
    productIds.length
      ? db
          .select({ id: products.id, unit_value: products.unit_value, number: products.product_number })
          .from(products)
          .where(and(eq(products.workspace_id, workspaceId), inArray(products.id, productIds)))
      : [],
    packageIds.length
      ? db.select({ id: packages.id }).from(packages).where(inArray(packages.id, packageIds))
      : [],
    originIds.length
      ? db.select({ id: countries.id }).from(countries).where(inArray(countries.id, originIds))
      : [],
  ]);
  const countryExists = new Set(originRows.map((r) => r.id));
  const unitValue = new Map(productRows.map((r) => [r.id, r.unit_value]));
  const productNumber = new Map(productRows.map((r) => [r.id, r.number]));
  const packageExists = new Set(packageRows.map((r) => r.id));
  const errors: TFieldErrors = {};
  values.items?.forEach((line, index) => {
    if (!unitValue.has(line.product_id)) {
      errors[`items.${index}.product_id`] = [
        `Line ${index + 1}: choose a product from your catalogue (product ${line.product_id} does not exist).`,
      ];
    }
    if (line.origin_country_id && !countryExists.has(line.origin_country_id)) {
      errors[`items.${index}.origin_country_id`] = [
        `Line ${index + 1}: choose the country of origin from the list (country ${line.origin_country_id} does not exist).`,
      ];
    }
  });
  values.packages?.forEach((line, index) => {
    if (!packageExists.has(line.package_id)) {
      errors[`packages.${index}.package_id`] = [
        `Line ${index + 1}: choose a package type from the list (package ${line.package_id} does not exist).`,
      ];
    }
  });
  return { unitValue, productNumber, errors };
}

type TExportLine = { [K in keyof typeof EXPORT_LINE_COLUMNS]: (typeof shipment_items.$inferSelect)[K] };
const EXPORT_LINE_DEFAULTS: TExportLine = {
  schedule_b: "",
  license_exception: "",
  license_exception_note: "",
  license_id: null,
  override_justification: "",
  schedule_b_unit: "NO",
  schedule_b_quantity: "",
};

/**
 * The stored item lines with the price they are sold at: their own unit price, else their product's
 * current catalogue price (a PUT that leaves `items` out keeps them).
 */
async function storedItems(tx: TDbOrTx, shipmentId: number) {
  const rows = await tx
    .select({
      id: shipment_items.id,
      product_id: shipment_items.product_id,
      quantity: shipment_items.quantity,
      ...EXPORT_LINE_COLUMNS,
      unit_of_measure: shipment_items.unit_of_measure,
      unit_price: shipment_items.unit_price,
      origin_country_id: shipment_items.origin_country_id,
      catalogue: products.unit_value,
    })
    .from(shipment_items)
    .innerJoin(products, eq(products.id, shipment_items.product_id))
    .where(eq(shipment_items.shipment_id, shipmentId))
    .orderBy(asc(shipment_items.id));
  return rows.map(({ catalogue, ...r }) => ({ ...r, unit_value: r.unit_price ?? catalogue }));
}

/**
 * What the packages hold must come from the items: each product of a package's contents is a line of
 * the shipment, named once per package, and the pieces packed of it (per package × the line's
 * packages, over every package line) do not exceed the line's quantity. Contents are optional: a
 * product packed in fewer pieces than it ships, or not at all, is fine.
 */
function packageContentErrors(
  items: { product_id: number; quantity: number | string }[],
  packageLines: {
    quantity: number;
    contents: { product_id: number; quantity: number; package?: number }[];
  }[],
  productNumber: Map<number, string>,
): TFieldErrors {
  const errors: TFieldErrors = {};
  const name = (id: number) => productNumber.get(id) || `product ${id}`;
  const shipped = new Map(items.map((line) => [line.product_id, Number(line.quantity)]));
  const packed = new Map<number, { pieces: number; at: string }>();
  packageLines.forEach((line, i) => {
    // A product is named once for every package of the line, or once per numbered package — not both.
    const inEvery = new Set<number>();
    const inOne = new Set<number>();
    const inPackage = new Set<string>();
    line.contents.forEach((content, j) => {
      const at = `packages.${i}.contents.${j}.product_id`;
      if (content.package !== undefined && content.package > line.quantity) {
        errors[`packages.${i}.contents.${j}.package`] = [
          `Package line ${i + 1} has ${line.quantity} ${line.quantity === 1 ? "package" : "packages"}: there is no package ${content.package}.`,
        ];
        return;
      }
      if (!shipped.has(content.product_id)) {
        errors[at] = [
          `Package line ${i + 1}: ${name(content.product_id)} is not an item of this shipment. Pack only the shipment's items.`,
        ];
        return;
      }
      const key = `${content.product_id}:${content.package}`;
      const isTwice =
        content.package === undefined
          ? inEvery.has(content.product_id) || inOne.has(content.product_id)
          : inEvery.has(content.product_id) || inPackage.has(key);
      if (isTwice) {
        errors[at] = [
          `Package line ${i + 1}: name ${name(content.product_id)} once in a package's contents.`,
        ];
        return;
      }
      if (content.package === undefined) inEvery.add(content.product_id);
      else inOne.add(content.product_id);
      inPackage.add(key);
      const sofar = packed.get(content.product_id)?.pieces ?? 0;
      packed.set(content.product_id, {
        pieces: sofar + content.quantity * (content.package === undefined ? line.quantity : 1),
        at: `packages.${i}.contents.${j}.quantity`,
      });
    });
  });
  for (const [productId, { pieces, at }] of packed) {
    const quantity = shipped.get(productId) ?? 0;
    if (pieces > quantity) {
      errors[at] = [
        `The packages hold ${pieces} pieces of ${name(productId)}, but its item line ships ${quantity}. Lower the pieces per package or raise the item's quantity.`,
      ];
    }
  }
  return errors;
}

/**
 * A product no longer shipped is no longer packed: the stored package lines whose contents name
 * one, with those contents dropped (the lines that change, only).
 */
function letGoOfUnshipped<T extends { contents: TPackageContent[] }>(
  packageLines: T[],
  items: { product_id: number }[],
): T[] {
  const shipped = new Set(items.map((line) => line.product_id));
  return packageLines.flatMap((line) => {
    const kept = line.contents.filter((c) => shipped.has(c.product_id));
    return kept.length === line.contents.length ? [] : [{ ...line, contents: kept }];
  });
}

const DISCOUNT_TOO_LARGE =
  "The discount cannot be more than the goods' value plus freight, insurance and other charges.";

async function storedPackages(tx: TDbOrTx, shipmentId: number) {
  return tx
    .select()
    .from(shipment_packages)
    .where(eq(shipment_packages.shipment_id, shipmentId))
    .orderBy(asc(shipment_packages.id));
}

/** Generated document types that already have a document on the shipment. */
async function generatedTypes(tx: TDbOrTx, shipmentId: number): Promise<Set<string>> {
  const rows = await tx
    .select({ type: documents.document_type })
    .from(documents)
    .where(
      and(
        eq(documents.shipment_id, shipmentId),
        inArray(documents.document_type, [...GENERATED_DOCUMENT_TYPES]),
      ),
    );
  return new Set(rows.map((r) => r.type ?? ""));
}

/**
 * PUT /shipments/{id}: validates the whole shipment, then in one transaction checks it was not
 * changed since `updated_at` (409 with the current shipment otherwise), replaces the lines as sent,
 * stores the server-computed totals and refreshes the parties' last_shipment_date. Required fields
 * apply when the shipment is (or goes) past draft or asks for paperwork not generated yet.
 */
export async function updateShipment(
  db: TDb,
  workspaceId: number,
  id: number,
  body: unknown,
  generateDocuments?: TGenerateDocuments,
  actor: { userId: number; email: string } | null = null,
): Promise<TShipment> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw saveFailed({ _: ["The request body must be a JSON object."] });
  }
  // Oversize lists are refused before their elements are validated (or compared for duplicates).
  const oversize = oversizeArrayErrors(ZShipmentInput, body);
  if (oversize) {
    await shipmentRow(db, workspaceId, id);
    throw saveFailed(oversize);
  }
  const parsed = ZShipmentInput.safeParse(body);
  if (!parsed.success) {
    // A missing or foreign shipment is a 404 whatever the body says.
    await shipmentRow(db, workspaceId, id);
    throw saveFailed({ ...duplicateLineErrors(body), ...toFieldErrors(parsed.error) });
  }
  const values = parsed.data;
  const [stored, lines] = await Promise.all([
    shipmentRow(db, workspaceId, id),
    lineReferences(db, workspaceId, values),
  ]);
  // Only ids that differ from the stored ones are looked up: an autosave rarely changes a party or
  // the carrier, and the stored ones were checked when they were saved. (A write in between moves
  // updated_at, so the transaction below answers 409 before anything unchecked could be stored.)
  const changed = Object.fromEntries(
    Object.keys(REFERENCES)
      .filter((key) => values[key as keyof TShipmentValues] !== stored[key as keyof TShipmentRow])
      .map((key) => [key, REFERENCES[key]]),
  );
  const refErrors = await referenceErrors(db, changed, workspaceId, values);
  const exportErrors = await lineExportErrors(db, workspaceId, values.items ?? []);
  const errors = { ...refErrors, ...lines.errors, ...exportErrors };
  if (Object.keys(errors).length) throw saveFailed(errors);
  // What an override overrides: the standing before this save (read only when an override is sent).
  const overrideSent = (values.items ?? []).some((line) => line.override_justification !== undefined);
  const standingBefore = overrideSent
    ? await shipmentExportControl(db, workspaceId, id).catch(() => null)
    : null;

  let requested: TGeneratedDocumentType[] = [];
  try {
    await db.transaction(async (tx) => {
      const row = await shipmentRow(tx, workspaceId, id);
      assertFresh(row, values.updated_at);
      const stored = await storedItems(tx, id);
      const storedById = new Map(stored.map((line) => [line.id, line]));
      const items = values.items
        ? values.items.map((line) => {
            const kept =
              (line.id !== undefined && line.id !== null && storedById.get(line.id)) || EXPORT_LINE_DEFAULTS;
            const exportFields = Object.fromEntries(
              (Object.keys(EXPORT_LINE_DEFAULTS) as (keyof TExportLine)[]).map((key) => [
                key,
                line[key] === undefined ? kept[key] : line[key],
              ]),
            ) as TExportLine;
            return {
              ...line,
              ...exportFields,
              unit_value: line.unit_price ?? lines.unitValue.get(line.product_id) ?? "0",
            };
          })
        : stored;
      const storedPackageLines = values.packages ? [] : await storedPackages(tx, id);
      // Items sent without packages: the stored contents let go of a product no longer shipped (as
      // deleting its line does), and still may not pack more pieces than the items now ship.
      const prunedPackages = values.items ? letGoOfUnshipped(storedPackageLines, items) : [];
      const pruned = new Map(prunedPackages.map((line) => [line.id, line]));
      const packageLines = values.packages ?? storedPackageLines.map((line) => pruned.get(line.id) ?? line);
      if (values.packages || values.items) {
        const contentErrors = packageContentErrors(items, packageLines, lines.productNumber);
        if (Object.keys(contentErrors).length) throw saveFailed(contentErrors);
      }
      const discount = values.discount ?? row.discount;
      const otherCharges = values.other_charges ?? row.other_charges;
      const totals = computeShipmentTotals({
        items,
        packages: packageLines,
        freight: values.freight,
        insurance: values.insurance,
        other_charges: otherCharges,
        discount,
      });
      if (totals.total_invoice_value.startsWith("-")) throw saveFailed({ discount: [DISCOUNT_TOO_LARGE] });
      if (!isDecimal(totals.total_invoice_value, 2)) {
        throw saveFailed({ total_value: [TOTAL_TOO_LARGE] });
      }
      const status = values.shipping_status_id ?? row.shipping_status_id;
      const existing = values.generate_documents.length ? await generatedTypes(tx, id) : new Set<string>();
      requested = values.generate_documents.filter((type) => !existing.has(type));
      if (SUBMITTED_STATUSES.includes(status) || requested.length) {
        const missing = requiredFieldErrors({
          ...values,
          item_count: items.length,
          total_value: totals.total_value,
        });
        // The workspace's exporter profile stands in for an exporter of record not chosen.
        if (missing.exporter_of_record_id && (await exporterProfileRow(tx, workspaceId))?.company.trim()) {
          delete missing.exporter_of_record_id;
        }
        if (Object.keys(missing).length) throw saveFailed(missing);
      }
      await replaceLines(
        tx,
        shipment_items,
        shipment_items.shipment_id,
        id,
        items.map((line, index) => ({
          id: line.id ?? null,
          product_id: line.product_id,
          quantity: Number(line.quantity),
          extended_value: totals.extended_values[index],
          schedule_b: line.schedule_b,
          license_exception: line.license_exception,
          license_exception_note: line.license_exception_note,
          license_id: line.license_id,
          override_justification: line.override_justification,
          schedule_b_unit: line.schedule_b_unit,
          schedule_b_quantity: line.schedule_b_quantity,
          unit_of_measure: line.unit_of_measure,
          unit_price: line.unit_price,
          origin_country_id: line.origin_country_id,
        })),
      );
      if (values.items) {
        const after = await tx
          .select({
            id: shipment_items.id,
            product_id: shipment_items.product_id,
            override_justification: shipment_items.override_justification,
          })
          .from(shipment_items)
          .where(eq(shipment_items.shipment_id, id));
        await auditOverrides(tx as unknown as TDb, {
          workspaceId,
          shipmentId: id,
          actor,
          before: new Map(stored.map((line) => [line.id, line.override_justification])),
          after,
          ec: standingBefore,
        });
      }
      if (values.packages) {
        await replaceLines(
          tx,
          shipment_packages,
          shipment_packages.shipment_id,
          id,
          values.packages.map((line) => ({ ...line, id: line.id ?? null })),
        );
      }
      for (const line of prunedPackages) {
        await tx
          .update(shipment_packages)
          .set({ contents: line.contents })
          .where(eq(shipment_packages.id, line.id));
      }
      const { updated_at: _sent, items: _items, packages: _packages, ...fields } = values;
      // A US dollar shipment's rate to the dollar is 1, whatever was typed.
      const currencyId = values.currency_id ?? row.currency_id;
      if (currencyId) {
        const [currency] = await tx
          .select({ code: currencies.code })
          .from(currencies)
          .where(eq(currencies.id, currencyId));
        if (currency?.code === "USD") fields.usd_exchange_rate = "1";
      }
      await tx
        .update(shipments)
        .set({
          ...fields,
          shipping_status_id: status,
          total_value: totals.total_value,
          total_invoice_value: totals.total_invoice_value,
          total_pieces: totals.total_pieces,
          updated_at: nextUpdatedAt(row.updated_at),
          ...(actor ? { updated_by_user_id: actor.userId } : {}),
        })
        .where(and(eq(shipments.id, id), eq(shipments.workspace_id, workspaceId)));
      const isDateRelevant =
        row.ship_date !== values.ship_date ||
        row.shipping_status_id !== status ||
        PARTIES.some((key) => row[key] !== values[key]);
      if (isDateRelevant) {
        await refreshLastShipmentDates(tx, workspaceId, [...partiesOf(row), ...partiesOf(values)]);
      }
    });
  } catch (error) {
    if (error instanceof StaleRecordError) {
      throw staleConflict(STALE_MESSAGE, await getShipment(db, workspaceId, id));
    }
    throw error;
  }
  const saved = await getShipment(db, workspaceId, id);
  if (!requested.length || !generateDocuments) return saved;
  await generateDocuments(saved, requested);
  return getShipment(db, workspaceId, id);
}

/**
 * POST /shipments/{id}/template: a copy saved as a template (status 1) with parties, lines, details,
 * freight and insurance, but without ship date, tracking numbers and documents.
 */
export async function saveAsTemplate(db: TDb, auth: TAuth, id: number, name: string): Promise<TShipment> {
  const templateId = await db.transaction(async (tx) => {
    const source = await shipmentRow(tx, auth.workspaceId, id);
    const {
      id: _id,
      created_at: _created,
      updated_at: _updated,
      ship_date: _shipDate,
      tracking_number_1: _t1,
      tracking_number_2: _t2,
      bol_hawb_tracking: _bol,
      generate_documents: _docs,
      // Paperwork identifies one shipment: a template carries no filing citation or document numbers.
      aes_citation: _aes,
      proforma_valid_until: _validUntil,
      invoice_date: _invoiceDate,
      invoice_number: _invoiceNumber,
      proforma_number: _proformaNumber,
      ...copied
    } = source;
    const [row] = await tx
      .insert(shipments)
      .values({ ...copied, name, shipping_status_id: SHIPMENT_STATUS.TEMPLATE, generate_documents: [] })
      .returning({ id: shipments.id });
    const [items, packageLines] = await Promise.all([
      tx
        .select()
        .from(shipment_items)
        .where(eq(shipment_items.shipment_id, id))
        .orderBy(asc(shipment_items.id)),
      storedPackages(tx, id),
    ]);
    if (items.length) {
      // A template does not ship: it neither draws on a licence nor carries a person's override.
      await tx.insert(shipment_items).values(
        items.map(({ id: _, license_id: _licence, override_justification: _why, ...line }) => ({
          ...line,
          shipment_id: row.id,
        })),
      );
    }
    if (packageLines.length) {
      await tx
        .insert(shipment_packages)
        .values(packageLines.map(({ id: _, ...line }) => ({ ...line, shipment_id: row.id })));
    }
    return row.id;
  });
  return getShipment(db, auth.workspaceId, templateId);
}

/**
 * DELETE /shipments/items|packages/{shipmentId}/{lineId}: removes one line of the caller's shipment
 * and stores the recomputed totals; 404 when the shipment or the line is not theirs.
 */
export async function removeLine(
  db: TDb,
  workspaceId: number,
  shipmentId: number,
  kind: "items" | "packages",
  lineId: number,
): Promise<TShipment> {
  await db.transaction(async (tx) => {
    const row = await shipmentRow(tx, workspaceId, shipmentId);
    const table = kind === "items" ? shipment_items : shipment_packages;
    const parent = kind === "items" ? shipment_items.shipment_id : shipment_packages.shipment_id;
    if (!(await deleteLine(tx, table, parent, shipmentId, lineId))) {
      throw notFound(kind === "items" ? "This item line does not exist" : "This package line does not exist");
    }
    const [items, packageLines] = await Promise.all([
      storedItems(tx, shipmentId),
      storedPackages(tx, shipmentId),
    ]);
    const totals = computeShipmentTotals({
      items,
      packages: packageLines,
      freight: row.freight,
      insurance: row.insurance,
      other_charges: row.other_charges,
      discount: row.discount,
    });
    if (totals.total_invoice_value.startsWith("-")) throw saveFailed({ discount: [DISCOUNT_TOO_LARGE] });
    for (const line of letGoOfUnshipped(packageLines, items)) {
      await tx
        .update(shipment_packages)
        .set({ contents: line.contents })
        .where(eq(shipment_packages.id, line.id));
    }
    for (const [index, line] of items.entries()) {
      await tx
        .update(shipment_items)
        .set({ extended_value: totals.extended_values[index] })
        .where(eq(shipment_items.id, line.id));
    }
    await tx
      .update(shipments)
      .set({
        total_value: totals.total_value,
        total_invoice_value: totals.total_invoice_value,
        total_pieces: totals.total_pieces,
        updated_at: nextUpdatedAt(row.updated_at),
      })
      .where(eq(shipments.id, shipmentId));
  });
  return getShipment(db, workspaceId, shipmentId);
}
