import { and, asc, desc, eq, getTableColumns, inArray, isNotNull, ne, sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { TDb } from "../../../db/client";
import {
  type TScreeningHistoryEntry,
  type TScreeningMatch,
  ZOverride,
  ZScreeningSearchQuery,
} from "../../../db/contracts/screening";
import { rpscreenings, screening_audit_log, settings_audit_log, shipments } from "../../../db/schema";
import type { TAppEnv } from "../../lib/context";
import { toCsv } from "../../lib/csv";
import { createEntityRoutes } from "../../lib/entity/entity.routes";
import { AppError, notFound } from "../../lib/errors";
import { validate } from "../../lib/validate";
import { APP_REQUEST_HEADER, authOf, requireAuth } from "../auth/auth.middleware";
import { PARTIES } from "../shipments/shipments.service";
import { entityListEntries, listFreshness, STALE_AFTER_DAYS } from "./list-freshness";
import { listSetId, listsOfSet } from "./list-sets";
import {
  contactOf,
  latestScreening,
  overrideScreening,
  screenContact,
  screenParty,
  type TActor,
  type TScreeningDeps,
} from "./screening.service";
import { effectiveScreeningStatus, screeningsEntity } from "./screenings.entity";

const depsOf = (c: Context<TAppEnv>): TScreeningDeps => ({
  db: c.var.db,
  registry: c.var.screening.registry,
  threshold: c.var.screening.threshold,
});

/** The audit export's names for the release settings it records. */
const SETTING_LABELS: Record<string, string> = { two_person_release: "Two-person release" };

/** A recorded setting value as the audit export writes it: on/off for a switch. */
const settingValue = (value: unknown) =>
  value === true
    ? "on"
    : value === false
      ? "off"
      : value === null || value === undefined
        ? ""
        : JSON.stringify(value);

const actorOf = (c: Context<TAppEnv>): TActor => {
  const { user, workspaceId } = authOf(c);
  return { workspaceId, userId: user.id, userEmail: user.email };
};

/**
 * A GET that changes state (the spec's override call) must not be triggerable by another site: a
 * cookie-authenticated one needs proof it comes from our pages (Sec-Fetch-Site: same-origin or the
 * app's own request header). A missing Sec-Fetch-Site is not proof: a link or an old browser omits it.
 */
function refuseCrossSiteGet(c: Context<TAppEnv>) {
  if (c.req.header("authorization")) return;
  const site = c.req.header("sec-fetch-site");
  const isProven = site === "same-origin" || (!site && Boolean(c.req.header(APP_REQUEST_HEADER)));
  if (!isProven) throw new AppError("FORBIDDEN", "Cross-origin request refused");
}

const csvResponse = (c: Context<TAppEnv>, name: string, body: string) => {
  c.header("Content-Type", "text/csv; charset=utf-8");
  c.header("Content-Disposition", `attachment; filename="${name}"`);
  c.header("Cache-Control", "private, no-store");
  return c.body(body);
};

const stamp = () => new Date().toISOString().slice(0, 10);

/** An audit log row with the lists it names (see listsOfSet). */
type TAuditRow = typeof screening_audit_log.$inferSelect & { lists: unknown[] };
const auditColumns = () => ({
  ...getTableColumns(screening_audit_log),
  lists: listsOfSet(screening_audit_log.list_set_id),
});

/** One line of a contact's screening trail, from an audit log row. */
function toHistoryEntry(row: TAuditRow): TScreeningHistoryEntry {
  const query = row.query as {
    name?: string;
    review_date?: string;
    asked_by?: TScreeningHistoryEntry["asked_by"];
  };
  const best = (row.matches as TScreeningMatch[])[0];
  return {
    id: row.id,
    created_at: row.created_at,
    kind: row.kind as TScreeningHistoryEntry["kind"],
    contact_id: row.contact_id,
    name: query.name ?? "",
    outcome: row.outcome as "passed" | "failed",
    previous_status: row.previous_status,
    note: row.note,
    review_date: query.review_date ?? null,
    best_match: best
      ? {
          name: best.name,
          matched_name: best.matched_name,
          source_list: best.source_list,
          source_id: best.source_id,
          programs: best.programs,
          score: best.score,
        }
      : null,
    lists: (row.lists as { source: string; version_date: string }[]).map((l) => ({
      source: l.source,
      version_date: l.version_date,
    })),
    user: row.user_email ?? "system",
    ...(query.asked_by ? { asked_by: query.asked_by } : {}),
  };
}

/** Restricted-party screening: contact results, overrides, free search, downloads, lists. */
export const screeningRoutes = new Hono<TAppEnv>()
  .use(requireAuth())
  /** GET /screenings/trade?itemId=<contactId> → the contact's current result (screened now if it has none). */
  .get("/trade", validate("query", z.object({ itemId: z.coerce.number().int().positive() })), async (c) => {
    const { itemId } = c.req.valid("query");
    const actor = actorOf(c);
    const contact = await contactOf(c.var.db, actor.workspaceId, itemId);
    // A contact changed since its last screening (or never screened) is screened now: its old
    // result says nothing about what it is called today.
    const current = contact.screening_pending
      ? null
      : await latestScreening(c.var.db, actor.workspaceId, contact.id);
    const { lists } = await c.var.screening.registry.get();
    return c.json({ item: current ?? (await screenContact(depsOf(c), actor, contact)), lists });
  })
  /** GET or POST /screenings/override?id&status&note → a new result recording a person's decision. */
  .get("/override", validate("query", ZOverride), async (c) => {
    refuseCrossSiteGet(c);
    const { id, status, note, review_date } = c.req.valid("query");
    return c.json(await overrideScreening(depsOf(c), actorOf(c), id, status, note, review_date));
  })
  .post("/override", validate("json", ZOverride), async (c) => {
    const { id, status, note, review_date } = c.req.valid("json");
    return c.json(await overrideScreening(depsOf(c), actorOf(c), id, status, note, review_date));
  })
  /** GET /screenings/find-contact?keywords&name&address → {headers, data} of list matches. */
  .get("/find-contact", validate("query", ZScreeningSearchQuery), async (c) => {
    const valid = c.req.valid("query");
    const [keywords, name, address] = [
      valid.keywords || undefined,
      valid.name || undefined,
      valid.address || undefined,
    ];
    const terms = (keywords ?? "")
      .split(/[,\s]+/)
      .filter(Boolean)
      .join(" ");
    const query = { name: [name, terms].filter(Boolean).join(" ") || (address ?? ""), address };
    const { result, lists } = await screenParty(depsOf(c), query);
    const actor = actorOf(c);
    await c.var.db.transaction(async (tx) => {
      await tx.insert(screening_audit_log).values({
        workspace_id: actor.workspaceId,
        user_id: actor.userId,
        user_email: actor.userEmail,
        kind: "search",
        query: { keywords, name, address },
        list_set_id: await listSetId(tx as unknown as TDb, lists),
        matches: result.matches.map((m) => ({
          name: m.entry.name,
          list: m.entry.sourceList,
          score: m.score,
        })),
        outcome: result.status,
      });
    });
    return c.json({
      headers: ["Name", "Matched name", "Score", "List", "Type", "Programs", "Addresses", "Countries"],
      data: result.matches.map((m) => ({
        name: m.entry.name,
        matched_name: m.matchedName,
        score: Math.round(m.score * 1000) / 1000,
        source_list: m.entry.sourceList,
        source_id: m.entry.sourceId,
        entity_type: m.entry.entityType,
        programs: m.entry.programs,
        addresses: m.entry.addresses,
        countries: m.entry.countries,
      })),
      status: result.status,
      multiple: result.multiple,
      lists,
    });
  })
  /** GET /screenings/download → CSV of the workspace's screenings, safe to open in a spreadsheet. */
  .get("/download", async (c) => {
    const rows = await c.var.db
      .select({ ...getTableColumns(rpscreenings), status: effectiveScreeningStatus })
      .from(rpscreenings)
      .where(eq(rpscreenings.workspace_id, authOf(c).workspaceId))
      .orderBy(desc(rpscreenings.updated_at));
    const body = toCsv(
      [
        "Entity name",
        "Date screened",
        "Status",
        "Best score",
        "Best match",
        "List",
        "Changed by list update",
      ],
      rows.map((r) => {
        const results = r.results as {
          best_score?: number;
          matches?: { name: string; source_list: string }[];
        };
        const best = results.matches?.[0];
        return [
          r.name,
          r.updated_at,
          r.status,
          results.best_score ?? 0,
          best?.name ?? "",
          best?.source_list ?? "",
          r.is_changed ? "yes" : "no",
        ];
      }),
    );
    return csvResponse(c, `screening-results-${stamp()}.csv`, body);
  })
  /**
   * GET /screenings/audit → the append-only audit log as CSV (kept five years; nothing edits it):
   * every screening, search and override, and every change to a release setting, in time order.
   */
  .get("/audit", async (c) => {
    const { workspaceId } = authOf(c);
    const [rows, settings] = await Promise.all([
      c.var.db
        .select(auditColumns())
        .from(screening_audit_log)
        .where(eq(screening_audit_log.workspace_id, workspaceId))
        .orderBy(asc(screening_audit_log.id)),
      c.var.db
        .select()
        .from(settings_audit_log)
        .where(eq(settings_audit_log.workspace_id, workspaceId))
        .orderBy(asc(settings_audit_log.id)),
    ]);
    const screeningLines = rows.map((r) => ({
      at: r.created_at,
      cells: [
        r.created_at,
        r.user_email ?? "system",
        r.kind,
        r.contact_id ?? "",
        JSON.stringify(r.query),
        (r.lists as { source: string; version_date: string }[])
          .map((l) => `${l.source} ${l.version_date}`)
          .join("; "),
        JSON.stringify(r.matches),
        r.outcome,
        r.previous_status ?? "",
        r.note ?? "",
      ],
    }));
    const settingLines = settings.map((r) => ({
      at: r.created_at,
      cells: [
        r.created_at,
        r.user_email ?? "system",
        "setting",
        "",
        JSON.stringify({ [r.setting]: r.value }),
        "",
        "",
        settingValue(r.value),
        settingValue(r.previous_value),
        `${SETTING_LABELS[r.setting] ?? r.setting} switched ${settingValue(r.value)}`,
      ],
    }));
    // Both logs are in time order; merged so, a screening first where the times are equal.
    const lines: { at: string; cells: unknown[] }[] = [];
    let i = 0;
    let j = 0;
    while (i < screeningLines.length || j < settingLines.length) {
      const takeSetting =
        i >= screeningLines.length || (j < settingLines.length && settingLines[j].at < screeningLines[i].at);
      lines.push(takeSetting ? settingLines[j++] : screeningLines[i++]);
    }
    const body = toCsv(
      [
        "Time",
        "User",
        "Kind",
        "Contact id",
        "Query",
        "Lists",
        "Top matches",
        "Outcome",
        "Previous status",
        "Note",
      ],
      lines.map((line) => line.cells),
    );
    return csvResponse(c, `screening-audit-${stamp()}.csv`, body);
  })
  /** GET /screenings/lists → the loaded lists and versions, and the re-screen job's progress. */
  .get("/lists", async (c) => {
    const { lists, index } = await c.var.screening.registry.get();
    return c.json({
      lists: listFreshness(lists),
      stale_after_days: STALE_AFTER_DAYS,
      entity_list_entries: entityListEntries(index),
      rescreen: c.var.screening.rescreen.state,
      threshold: c.var.screening.threshold,
    });
  })
  /**
   * GET /screenings/contact/{id}/history → the contact's screening trail from the append-only audit
   * log, newest first: every screening, re-screening (with why a list update changed it) and override.
   */
  .get("/contact/:id{[1-9][0-9]{0,15}}/history", async (c) => {
    const actor = actorOf(c);
    const contact = await contactOf(c.var.db, actor.workspaceId, Number(c.req.param("id")));
    const log = screening_audit_log;
    const rows = await c.var.db
      .select(auditColumns())
      .from(log)
      .where(and(eq(log.workspace_id, actor.workspaceId), eq(log.contact_id, contact.id)))
      .orderBy(desc(log.id));
    const current = await latestScreening(c.var.db, actor.workspaceId, contact.id);
    return c.json({
      contact: { id: contact.id, company: contact.company },
      current,
      data: rows.map(toHistoryEntry),
    });
  })
  /**
   * GET /screenings/shipment/:id/releases → the overrides of the shipment's parties (exporter,
   * importer, ultimate consignee), newest first: who asked, who released, when, the note and lists.
   */
  .get("/shipment/:id{[1-9][0-9]{0,15}}/releases", async (c) => {
    const { workspaceId } = authOf(c);
    const [shipment] = await c.var.db
      .select({
        exporter_of_record_id: shipments.exporter_of_record_id,
        importer_of_record_id: shipments.importer_of_record_id,
        ultimate_consignee_id: shipments.ultimate_consignee_id,
      })
      .from(shipments)
      .where(and(eq(shipments.id, Number(c.req.param("id"))), eq(shipments.workspace_id, workspaceId)));
    if (!shipment) throw notFound("Shipment not found");
    const parties = PARTIES.map((key) => shipment[key]).filter((id): id is number => typeof id === "number");
    const log = screening_audit_log;
    const rows = parties.length
      ? await c.var.db
          .select(auditColumns())
          .from(log)
          .where(
            and(
              eq(log.workspace_id, workspaceId),
              eq(log.kind, "override"),
              inArray(log.contact_id, parties),
            ),
          )
          .orderBy(desc(log.id))
      : [];
    return c.json({ data: rows.map(toHistoryEntry) });
  })
  /** GET /screenings/changes → contacts whose outcome a list update changed, and why, newest first. */
  .get("/changes", async (c) => {
    const log = screening_audit_log;
    const rows = await c.var.db
      .select(auditColumns())
      .from(log)
      .where(
        and(
          eq(log.workspace_id, authOf(c).workspaceId),
          eq(log.kind, "rescreen"),
          isNotNull(log.note),
          ne(log.outcome, sql`coalesce(${log.previous_status}, '')`),
        ),
      )
      .orderBy(desc(log.id))
      .limit(100);
    return c.json({ data: rows.map(toHistoryEntry) });
  })
  .route("/", createEntityRoutes(screeningsEntity, { isReadOnly: true }));
