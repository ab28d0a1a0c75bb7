// A shipment's export-control standing: each line's determination against the EAR tables, the
// licence, exception or override that covers it, the licences' balances, and whether EEI must be
// filed (15 CFR part 30). Paperwork asks it before generating anything.
import { and, asc, eq, inArray, ne, type SQL } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { decimalToScaled, scaledToDecimal } from "../../../db/contracts/decimal";
import {
  itnProblem,
  LICENSE_EXCEPTIONS,
  MIN_JUSTIFICATION,
  type TEeiVerdict,
  type TLicenseUsage,
  type TLineExportControl,
  type TShipmentExportControl,
  todayIso,
} from "../../../db/contracts/export-control";
import { parseRoles } from "../../../db/contracts/members";
import { NOEEI_LEGENDS } from "../../../db/contracts/paperwork";
import { rateToScaled, toUsdCents } from "../../../db/contracts/usd-rate";
import {
  contacts,
  countries,
  currencies,
  export_control_audit,
  licenses,
  products,
  shipment_items,
  shipments,
  users,
} from "../../../db/schema";
import { AppError, notFound } from "../../lib/errors";
import { holdsRight, roleRefused } from "../members/roles";
import { determineLine, splitEccn } from "./determine";
import { earTablesFor } from "./ear-tables";

const TEMPLATE_STATUS = 1;

/** The $2,500 per Schedule B number of 15 CFR 30.2(a)(1)(iv)(A) and 30.37(a), in cents. */
export const EEI_LIMIT_CENTS = 250_000n;
export const LEGEND_CANADA = "NOEEI § 30.36";
export const LEGEND_LOW_VALUE = "NOEEI § 30.37(a)";

// A licence in one of these states does not authorise an export.
const NOT_AUTHORISING =
  /^(pending|denied|rejected|revoked|suspended|expired|returned|withdrawn|cancell?ed)\b/i;

export { rateToScaled, toUsdCents };

const centsOf = (decimal: string) => BigInt(decimalToScaled(decimal || "0", 2));
const usd = (cents: bigint) => scaledToDecimal(Number(cents), 2);
const digitsOf = (code: string) => code.replace(/\D/g, "").slice(0, 10);

type TLicenceRow = typeof licenses.$inferSelect;

/** The workspace's shipment lines (templates aside) that ship under the licences `which` names, in shipment order. */
function licensedLines(db: TDb, workspaceId: number, which: SQL, also?: SQL) {
  return db
    .select({
      license_id: shipment_items.license_id,
      shipment_id: shipments.id,
      name: shipments.name,
      ship_date: shipments.ship_date,
      extended_value: shipment_items.extended_value,
      quantity: shipment_items.quantity,
      currency: currencies.code,
      rate: shipments.usd_exchange_rate,
    })
    .from(shipment_items)
    .innerJoin(shipments, eq(shipments.id, shipment_items.shipment_id))
    .leftJoin(currencies, eq(currencies.id, shipments.currency_id))
    .where(
      and(
        eq(shipments.workspace_id, workspaceId),
        ne(shipments.shipping_status_id, TEMPLATE_STATUS),
        which,
        also,
      ),
    )
    .orderBy(asc(shipments.id));
}

/** What the licences of the workspace have been drawn down by, outside the given shipment. */
async function drawnDown(db: TDb, workspaceId: number, licenceIds: number[], exceptShipment: number | null) {
  const used = new Map<number, { value: bigint; unknownValue: boolean; quantity: number }>();
  if (!licenceIds.length) return used;
  const rows = await licensedLines(
    db,
    workspaceId,
    inArray(shipment_items.license_id, licenceIds),
    exceptShipment === null ? undefined : ne(shipments.id, exceptShipment),
  );
  for (const r of rows) {
    const entry = used.get(r.license_id ?? 0) ?? { value: 0n, unknownValue: false, quantity: 0 };
    const value = toUsdCents(centsOf(r.extended_value), r.currency ?? null, r.rate);
    if (value === null) entry.unknownValue = true;
    else entry.value += value;
    entry.quantity += r.quantity;
    used.set(r.license_id ?? 0, entry);
  }
  return used;
}

/** Does the licence name this line's product or ECCN, its destination, and the day? (not the balance) */
function licenceProblem(
  licence: TLicenceRow,
  line: { product_id: number; eccn: string },
  destinationCountryId: number | null,
  day: string,
): string | null {
  if (NOT_AUTHORISING.test(licence.status.trim())) return `its status is '${licence.status}'`;
  const eccn = line.eccn.trim().toUpperCase();
  const licEccn = licence.eccn.trim().toUpperCase();
  const productOk =
    licence.product_id !== null
      ? licence.product_id === line.product_id
      : licEccn !== "" && (eccn === licEccn || eccn.startsWith(`${licEccn}.`));
  if (!productOk) return "it names another product or ECCN";
  if (destinationCountryId === null || licence.country_id !== destinationCountryId) {
    return "it is for another destination country";
  }
  if (day < licence.valid_date) return `it is valid only from ${licence.valid_date}`;
  if (day > licence.expiration_date) return `it expired on ${licence.expiration_date}`;
  return null;
}

type TContext = Awaited<ReturnType<typeof loadContext>>;

async function loadContext(db: TDb, workspaceId: number, shipmentId: number) {
  const [shipment] = await db
    .select()
    .from(shipments)
    .where(and(eq(shipments.id, shipmentId), eq(shipments.workspace_id, workspaceId)));
  if (!shipment) throw notFound("Shipment not found");
  const partyId = shipment.ultimate_consignee_id ?? shipment.importer_of_record_id;
  const [party] = partyId
    ? await db
        .select({ country_id: contacts.country_id, iso2: countries.code_iso_2, name: countries.name })
        .from(contacts)
        .leftJoin(countries, eq(countries.id, contacts.country_id))
        .where(and(eq(contacts.id, partyId), eq(contacts.workspace_id, workspaceId)))
    : [];
  const [currency] = shipment.currency_id
    ? await db
        .select({ code: currencies.code })
        .from(currencies)
        .where(eq(currencies.id, shipment.currency_id))
    : [];
  const lines = await db
    .select({ item: shipment_items, product: products })
    .from(shipment_items)
    .innerJoin(products, eq(products.id, shipment_items.product_id))
    .where(eq(shipment_items.shipment_id, shipment.id))
    .orderBy(asc(shipment_items.id));
  const licenceRows = await db.select().from(licenses).where(eq(licenses.workspace_id, workspaceId));
  return {
    shipment,
    destination:
      party?.country_id && party.iso2
        ? { countryId: party.country_id, iso2: party.iso2, name: party.name ?? party.iso2 }
        : null,
    currency: currency?.code ?? null,
    lines,
    licences: licenceRows,
  };
}

/** The export-control standing of one of the caller's shipments (404 when not theirs). */
export async function shipmentExportControl(
  db: TDb,
  workspaceId: number,
  shipmentId: number,
): Promise<TShipmentExportControl> {
  const ctx = await loadContext(db, workspaceId, shipmentId);
  return evaluate(db, workspaceId, ctx);
}

async function evaluate(db: TDb, workspaceId: number, ctx: TContext): Promise<TShipmentExportControl> {
  const tables = await earTablesFor(db, workspaceId);
  const { shipment, destination, currency } = ctx;
  const day = shipment.ship_date ?? todayIso();
  const used = await drawnDown(
    db,
    workspaceId,
    ctx.licences.map((l) => l.id),
    shipment.shipping_status_id === TEMPLATE_STATUS ? null : shipment.id,
  );
  // This shipment's own lines draw on their licence in line order.
  const running = new Map<number, { value: bigint; quantity: number }>();
  const rateMissing =
    currency !== null && currency !== "USD" && rateToScaled(shipment.usd_exchange_rate) === null;

  // LVS is judged on the net value of all the shipment's lines of one ECCN entry (§ 740.3(a)); every
  // line goes to the shipment's one destination. Null: a line's value cannot be converted to USD.
  const lineUsdCents = (item: (typeof ctx.lines)[number]["item"]) =>
    toUsdCents(centsOf(item.extended_value), currency, shipment.usd_exchange_rate);
  const entryOf = (eccn: string) => splitEccn(eccn)?.entry ?? null;
  const byEntry = new Map<string, bigint | null>();
  for (const { item, product } of ctx.lines) {
    const entry = entryOf(product.US_ECCN);
    if (!entry) continue;
    const sum = byEntry.has(entry) ? (byEntry.get(entry) ?? null) : 0n;
    const value = lineUsdCents(item);
    byEntry.set(entry, sum === null || value === null ? null : sum + value);
  }

  const lines: TLineExportControl[] = ctx.lines.map(({ item, product }) => {
    const valueUsd = lineUsdCents(item);
    const entry = entryOf(product.US_ECCN);
    const determination = determineLine(tables, {
      eccn: product.US_ECCN,
      destinationIso2: destination?.iso2 ?? null,
      lineValueUsdCents: valueUsd,
      shipmentEccnValueUsdCents: entry ? (byEntry.get(entry) ?? null) : valueUsd,
    });
    const warnings: string[] = [...determination.review];
    if (product.has_license && determination.outcome === "nlr") {
      warnings.push(
        "The product is flagged 'requires a licence' in the catalogue, but the chart says NLR: check the flag.",
      );
    }
    const lineRef = { product_id: product.id, eccn: product.US_ECCN };
    const balance = (l: TLicenceRow, addValue: bigint | null, addQty: number) => {
      const prior = used.get(l.id) ?? { value: 0n, unknownValue: false, quantity: 0 };
      const mine = running.get(l.id) ?? { value: 0n, quantity: 0 };
      const value = prior.value + mine.value + (addValue ?? 0n);
      const quantity = prior.quantity + mine.quantity + addQty;
      const limitValue = l.authorized_value ? centsOf(l.authorized_value) : null;
      let problem: string | null = null;
      if (limitValue !== null && addValue === null)
        problem = "the line's value in US dollars is not known (set the exchange rate)";
      else if (limitValue !== null && value > limitValue) {
        problem = `it would be exhausted: ${usd(value)} of ${usd(limitValue)} USD authorised`;
      } else if (l.authorized_quantity !== null && quantity > l.authorized_quantity) {
        problem = `it would be exhausted: ${quantity} of ${l.authorized_quantity} units authorised`;
      }
      const share =
        limitValue !== null && limitValue > 0n
          ? Number((value * 1000n) / limitValue) / 10
          : l.authorized_quantity
            ? (quantity * 100) / l.authorized_quantity
            : null;
      return { problem, value, quantity, limitValue, share };
    };
    const candidates = ctx.licences
      .filter((l) => licenceProblem(l, lineRef, destination?.countryId ?? null, day) === null)
      .filter((l) => balance(l, valueUsd, item.quantity).problem === null)
      .map((l) => {
        const b = balance(l, 0n, 0);
        return {
          id: l.id,
          number: l.reference_number_1,
          name: l.licence_name,
          remaining: b.limitValue !== null ? usd(b.limitValue - b.value) : null,
        };
      });
    let license: TLineExportControl["license"] = null;
    if (item.license_id !== null) {
      const l = ctx.licences.find((x) => x.id === item.license_id);
      if (l) {
        const problem =
          licenceProblem(l, lineRef, destination?.countryId ?? null, day) ??
          balance(l, valueUsd, item.quantity).problem;
        const b = balance(l, valueUsd, item.quantity);
        const mine = running.get(l.id) ?? { value: 0n, quantity: 0 };
        running.set(l.id, { value: mine.value + (valueUsd ?? 0n), quantity: mine.quantity + item.quantity });
        license = {
          id: l.id,
          number: l.reference_number_1,
          name: l.licence_name,
          covers: problem === null,
          problem,
        };
        if (problem) warnings.push(`Licence ${l.reference_number_1} does not cover this line: ${problem}.`);
        else if (b.share !== null && b.share >= 90) {
          warnings.push(`Licence ${l.reference_number_1} is ${b.share}% used.`);
        }
      }
    }
    const exception = item.license_exception;
    const offered = determination.exceptions_offered.map((o) => o.symbol as string);
    const exceptionOk =
      exception !== "" &&
      (offered.includes(exception) ||
        (!["LVS", "GBS"].includes(exception) && item.license_exception_note.trim().length > 0));
    if (exception && !exceptionOk) {
      warnings.push(
        ["LVS", "GBS"].includes(exception)
          ? `Licence exception ${exception} is not available for this line (${exception === "LVS" ? "value over the LVS limit, or the destination is not in Country Group B" : "the ECCN does not allow GBS, or the destination is not in Country Group B"}).`
          : `Licence exception ${exception} needs a note saying why it applies.`,
      );
    }
    const overridden = item.override_justification.trim().length >= MIN_JUSTIFICATION;
    const where = destination?.name ?? "an unknown destination";
    let problem: string | null = null;
    let basis: TLineExportControl["basis"] = { kind: "none", text: "" };
    if (license?.covers) basis = { kind: "license", text: license.number };
    else if (exceptionOk) basis = { kind: "exception", text: exception };
    else if (determination.outcome === "nlr") basis = { kind: "nlr", text: "NLR" };
    else if (overridden && determination.outcome !== "embargo") basis = { kind: "override", text: "NLR" };
    if (determination.outcome === "embargo") {
      problem = `${determination.summary} (line ${product.product_number}, ECCN ${determination.eccn || "none"}, to ${where})`;
    } else if (determination.outcome === "license_required" && basis.kind === "none") {
      problem = `Line ${product.product_number}, ECCN ${determination.eccn}, to ${where}: ${determination.reasons.join(", ")} — licence required and no licence, licence exception or justified override covers it.`;
    }
    return {
      item_id: item.id,
      product_id: product.id,
      product_number: product.product_number,
      determination,
      is_cleared: problem === null && basis.kind !== "none",
      basis,
      license,
      license_candidates: candidates,
      problem,
      warnings,
      stored: {
        schedule_b: item.schedule_b,
        license_exception: item.license_exception,
        license_exception_note: item.license_exception_note,
        override_justification: item.override_justification,
        schedule_b_unit: item.schedule_b_unit,
        schedule_b_quantity: item.schedule_b_quantity,
      },
    };
  });

  const eei = eeiVerdict(ctx, lines, rateMissing, tables.groups.get(destination?.iso2 ?? "")?.groups);
  const refusals = [...lines.map((l) => l.problem).filter((p): p is string => p !== null)];
  if (eei.problem) refusals.push(eei.problem);
  return {
    edition: { id: tables.editionId, edition_date: tables.editionDate, is_shipped: tables.isShipped },
    destination: destination ? { iso2: destination.iso2, name: destination.name } : null,
    lines,
    eei,
    refusals,
  };
}

/**
 * Whether EEI must be filed (an ITN printed), implemented from 15 CFR part 30 as we know its text
 * (not fetched live; see docs/decisions on export control):
 * - § 30.2(a)(1)(iv)(A): the value of the commodities under one Schedule B number is over $2,500;
 * - § 30.2(a)(1)(iv)(B) and EAR § 758.1(b): an item requires a BIS licence, whatever the value;
 * - EAR § 758.1(b): every export to Country Group E:1 or E:2, whatever the value;
 * - § 30.36: none of that is needed to Canada unless a licence is required → 'NOEEI § 30.36';
 * - § 30.37(a): each Schedule B number at most $2,500 and nothing else requires EEI → 'NOEEI § 30.37(a)'.
 */
function eeiVerdict(
  ctx: TContext,
  lines: TLineExportControl[],
  rateMissing: boolean,
  groups: Set<string> | undefined,
): TEeiVerdict {
  const { shipment, currency } = ctx;
  const reasons: string[] = [];
  const notes: string[] = [];
  const byCode = new Map<string, bigint | null>();
  for (const { item, product } of ctx.lines) {
    const code = item.schedule_b || digitsOf(product.HTS) || "(no Schedule B)";
    const value = toUsdCents(centsOf(item.extended_value), currency, shipment.usd_exchange_rate);
    const prior = byCode.get(code);
    byCode.set(code, value === null || prior === null ? null : (prior ?? 0n) + value);
  }
  const by_schedule_b = [...byCode.entries()].map(([code, cents]) => ({
    schedule_b: code,
    value_usd: cents === null ? "" : usd(cents),
    over_limit: cents !== null && cents > EEI_LIMIT_CENTS,
  }));
  const over = by_schedule_b.filter((b) => b.over_limit).map((b) => b.schedule_b);
  const licensed = lines.filter(
    (l) =>
      l.basis.kind === "license" ||
      (l.determination.outcome === "license_required" && l.basis.kind === "none"),
  );
  const isCanada = ctx.destination?.iso2 === "CA";
  if (licensed.length) {
    reasons.push(
      `§ 30.2(a)(1)(iv)(B): ${licensed.map((l) => l.product_number).join(", ")} ${licensed.length > 1 ? "require" : "requires"} a BIS licence, so EEI is filed whatever the value.`,
    );
  }
  const embargoGroup = ["E:1", "E:2"].find((g) => groups?.has(g));
  if (embargoGroup) {
    reasons.push(`EAR § 758.1(b): exports to Country Group ${embargoGroup} need EEI whatever the value.`);
  }
  if (!isCanada && over.length) {
    reasons.push(
      `§ 30.2(a)(1)(iv)(A): Schedule B ${over.join(", ")} ${over.length > 1 ? "exceed" : "exceeds"} $2,500.`,
    );
  }
  if (!isCanada && rateMissing && ctx.lines.length) {
    reasons.push(
      `The values are in ${currency ?? "no currency"} and no US dollar exchange rate is stored, so the $2,500 test cannot be made: enter the rate, or file EEI.`,
    );
  }
  const codeless = ctx.lines.filter(({ item, product }) => !item.schedule_b && !digitsOf(product.HTS));
  if (codeless.length)
    notes.push(`No Schedule B number for ${codeless.map((l) => l.product.product_number).join(", ")}.`);
  const itn_required = reasons.length > 0;
  const exemption = itn_required || !ctx.lines.length ? null : isCanada ? LEGEND_CANADA : LEGEND_LOW_VALUE;
  const citation = shipment.aes_citation.trim();
  let problem: string | null = null;
  if (/^X/i.test(citation)) {
    const bad = itnProblem(citation);
    if (bad) problem = `The ITN '${citation}' is not valid: ${bad}`;
  } else if (itn_required) {
    problem = `EEI must be filed and the ITN entered before the paperwork: ${reasons.join(" ")}`;
  } else if (citation && citation !== exemption && [LEGEND_CANADA, LEGEND_LOW_VALUE].includes(citation)) {
    problem = `The legend '${citation}' does not apply to this shipment${exemption ? `; '${exemption}' does` : ""}.`;
  } else if (citation && !(NOEEI_LEGENDS as readonly string[]).includes(citation)) {
    problem = `'${citation}' is neither an ITN nor an exemption legend.`;
  }
  return { itn_required, reasons, exemption, by_schedule_b, problem, notes };
}

/**
 * Paperwork may be generated only when every line is authorised and EEI is settled: otherwise a 422
 * naming each line (ECCN, destination, reason) or the EEI rule. Nothing is generated.
 */
export function assertPaperworkAllowed(ec: TShipmentExportControl): void {
  if (!ec.refusals.length) return;
  const message = `The paperwork cannot be generated: ${ec.refusals.join(" ")}`;
  throw new AppError("VALIDATION", message, {
    errors: { export_control: ec.refusals },
    body: {
      status: { error: true, errorMessage: message },
      refusals: ec.refusals,
      lines: ec.lines
        .filter((l) => l.problem)
        .map((l) => ({
          item_id: l.item_id,
          product_number: l.product_number,
          eccn: l.determination.eccn,
          destination: l.determination.destination?.name ?? null,
          outcome: l.determination.outcome,
          reason: l.problem,
        })),
    },
  });
}

/** The exemption legend to fill in: when one applies and the user has not entered a citation, else null. */
export function automaticLegend(ec: TShipmentExportControl, current: string): string | null {
  return current.trim() || !ec.eei.exemption ? null : ec.eei.exemption;
}

/** Used, remaining and the shipments that drew on one of the caller's licences (404 when not theirs). */
export async function licenseUsage(db: TDb, workspaceId: number, licenseId: number): Promise<TLicenseUsage> {
  const [licence] = await db
    .select()
    .from(licenses)
    .where(and(eq(licenses.id, licenseId), eq(licenses.workspace_id, workspaceId)));
  if (!licence) throw notFound("Licence not found");
  const rows = await licensedLines(db, workspaceId, eq(shipment_items.license_id, licenseId));
  const byShipment = new Map<number, TLicenseUsage["shipments"][number] & { cents: bigint }>();
  let value = 0n;
  let quantity = 0;
  for (const r of rows) {
    const cents = toUsdCents(centsOf(r.extended_value), r.currency ?? null, r.rate) ?? 0n;
    value += cents;
    quantity += r.quantity;
    const entry = byShipment.get(r.shipment_id) ?? {
      shipment_id: r.shipment_id,
      name: r.name,
      ship_date: r.ship_date,
      value_usd: "0.00",
      quantity: 0,
      cents: 0n,
    };
    entry.cents += cents;
    entry.quantity += r.quantity;
    entry.value_usd = usd(entry.cents);
    byShipment.set(r.shipment_id, entry);
  }
  const limitValue = licence.authorized_value ? centsOf(licence.authorized_value) : null;
  const shares = [
    limitValue !== null && limitValue > 0n ? Number((value * 1000n) / limitValue) / 10 : null,
    licence.authorized_quantity ? Math.round((quantity * 1000) / licence.authorized_quantity) / 10 : null,
  ].filter((s): s is number => s !== null);
  const percent = shares.length ? Math.max(...shares) : null;
  return {
    license_id: licence.id,
    authorized_value: licence.authorized_value || null,
    authorized_quantity: licence.authorized_quantity,
    used_value: usd(value),
    used_quantity: quantity,
    remaining_value: limitValue === null ? null : usd(limitValue - value),
    remaining_quantity: licence.authorized_quantity === null ? null : licence.authorized_quantity - quantity,
    percent_used: percent,
    warning:
      percent === null
        ? null
        : percent >= 100
          ? `This licence is exhausted (${percent}% used): it covers no further shipments.`
          : percent >= 90
            ? `This licence is ${percent}% used.`
            : null,
    shipments: [...byShipment.values()].map(({ cents: _, ...s }) => s),
  };
}

export type TLineExportInput = {
  schedule_b?: string;
  license_exception?: string;
  license_exception_note?: string;
  license_id?: number | null;
  override_justification?: string;
};

/** Field errors for the export-control members of the lines (licence of another workspace, thin justification). */
export async function lineExportErrors(
  db: TDb,
  workspaceId: number,
  lines: (TLineExportInput | undefined)[],
  prefix = (i: number) => `items.${i}`,
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const ids = [
    ...new Set(lines.map((l) => l?.license_id).filter((id): id is number => typeof id === "number")),
  ];
  const owned = ids.length
    ? new Set(
        (
          await db
            .select({ id: licenses.id })
            .from(licenses)
            .where(and(eq(licenses.workspace_id, workspaceId), inArray(licenses.id, ids)))
        ).map((r) => r.id),
      )
    : new Set<number>();
  lines.forEach((line, i) => {
    if (!line) return;
    if (typeof line.license_id === "number" && !owned.has(line.license_id)) {
      errors[`${prefix(i)}.license_id`] = ["Choose a licence from your licences."];
    }
    const why = line.override_justification?.trim() ?? "";
    if (why && why.length < MIN_JUSTIFICATION) {
      errors[`${prefix(i)}.override_justification`] = [
        `Write why no licence is needed (at least ${MIN_JUSTIFICATION} characters): it goes into the audit trail.`,
      ];
    }
    if (
      line.license_exception &&
      !(LICENSE_EXCEPTIONS as readonly string[]).includes(line.license_exception)
    ) {
      errors[`${prefix(i)}.license_exception`] = ["Choose a licence exception symbol from the list."];
    }
  });
  return errors;
}

/**
 * Records each override given, changed or removed on a shipment's lines (who, when, why) with what
 * the determination said at the time. Run inside the write's transaction.
 */
export async function auditOverrides(
  tx: Pick<TDb, "insert" | "select">,
  input: {
    workspaceId: number;
    shipmentId: number;
    actor: { userId: number; email: string } | null;
    before: Map<number, string>;
    after: { id: number; product_id: number; override_justification: string }[];
    /** The standing before the change (what the person overrode), read before the write began. */
    ec: TShipmentExportControl | null;
  },
) {
  const changed = input.after.filter((l) => (input.before.get(l.id) ?? "") !== l.override_justification);
  const removed = [...input.before.entries()].filter(
    ([id, why]) => why && !input.after.some((l) => l.id === id),
  );
  if (!changed.length && !removed.length) return;
  // Giving or changing an override releases a licence hold: it needs the compliance role.
  if (input.actor && changed.some((l) => l.override_justification)) {
    const [member] = await tx
      .select({ roles: users.roles })
      .from(users)
      .where(eq(users.id, input.actor.userId));
    if (!holdsRight(parseRoles(member?.roles), "compliance")) throw roleRefused("compliance");
  }
  const { ec } = input;
  const productRows = changed.length
    ? await tx
        .select({ id: products.id, number: products.product_number, eccn: products.US_ECCN })
        .from(products)
        .where(inArray(products.id, [...new Set(changed.map((l) => l.product_id))]))
    : [];
  for (const line of changed) {
    const product = productRows.find((p) => p.id === line.product_id);
    const det = ec?.lines.find((l) => l.product_id === line.product_id)?.determination;
    await tx.insert(export_control_audit).values({
      workspace_id: input.workspaceId,
      shipment_id: input.shipmentId,
      item_id: line.id,
      user_id: input.actor?.userId ?? null,
      user_email: input.actor?.email ?? "",
      action: line.override_justification ? "override" : "override_removed",
      product_number: product?.number ?? "",
      eccn: product?.eccn ?? "",
      destination: ec?.destination?.name ?? "",
      determination: det?.summary ?? "",
      justification: line.override_justification,
    });
  }
  for (const [id] of removed) {
    await tx.insert(export_control_audit).values({
      workspace_id: input.workspaceId,
      shipment_id: input.shipmentId,
      item_id: id,
      user_id: input.actor?.userId ?? null,
      user_email: input.actor?.email ?? "",
      action: "override_removed",
      justification: "(line removed)",
    });
  }
}

/** The override trail of one of the caller's shipments, newest first (404 when not theirs). */
export async function exportControlAudit(db: TDb, workspaceId: number, shipmentId: number) {
  const [owned] = await db
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(eq(shipments.id, shipmentId), eq(shipments.workspace_id, workspaceId)));
  if (!owned) throw notFound("Shipment not found");
  const rows = await db
    .select()
    .from(export_control_audit)
    .where(
      and(
        eq(export_control_audit.workspace_id, workspaceId),
        eq(export_control_audit.shipment_id, shipmentId),
      ),
    )
    .orderBy(asc(export_control_audit.id));
  return rows.reverse();
}

/**
 * Adds `usage` (used, remaining, percent, warning and the shipments that drew on it) to licence
 * rows, for the licence list. Lines name only licences of their own workspace (checked on write).
 */
export async function decorateLicenceUsage(db: TDb, items: Record<string, unknown>[]): Promise<void> {
  const byId = new Map(items.map((item) => [item.id as number, item]));
  const ids = [...byId.keys()];
  if (!ids.length) return;
  const [{ workspace_id: workspaceId } = { workspace_id: 0 }] = await db
    .select({ workspace_id: licenses.workspace_id })
    .from(licenses)
    .where(eq(licenses.id, ids[0]));
  for (const id of ids) {
    const usage = await licenseUsage(db, workspaceId, id).catch(() => null);
    const item = byId.get(id);
    if (item && usage) item.usage = usage;
  }
}
