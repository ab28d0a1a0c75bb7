import { and, eq } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import type { TExporterProfile, TExporterProfileInput } from "../../../db/contracts/exporter-profile";
import { ZExporterProfileInput } from "../../../db/contracts/exporter-profile";
import { parseRoles } from "../../../db/contracts/members";
import { countries, exporter_profiles, users } from "../../../db/schema";
import type { TDbOrTx } from "../../lib/entity/entity";
import { AppError } from "../../lib/errors";
import { newStorageKey, type TStorage } from "../../lib/storage";
import { roleRefused } from "../members/roles";

export type TExporterProfileRow = typeof exporter_profiles.$inferSelect;

/** The stored profile of a workspace, or null before its first save. */
export async function exporterProfileRow(
  db: TDbOrTx,
  workspaceId: number,
): Promise<TExporterProfileRow | null> {
  const [row] = await db
    .select()
    .from(exporter_profiles)
    .where(eq(exporter_profiles.workspace_id, workspaceId));
  return row ?? null;
}

/** The exporter profile is the workspace's admins' to edit. */
async function isAdmin(db: TDb, workspaceId: number, userId: number): Promise<boolean> {
  const [user] = await db
    .select({ roles: users.roles })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.workspace_id, workspaceId)));
  return parseRoles(user?.roles).includes("admin");
}

/** GET: the profile (blank fields before the first save) and whether the caller may edit it. */
export async function getExporterProfile(
  db: TDb,
  workspaceId: number,
  userId: number,
): Promise<TExporterProfile> {
  const row = await exporterProfileRow(db, workspaceId);
  const blank = ZExporterProfileInput.parse({});
  const {
    workspace_id: _ws,
    updated_at,
    logo_key,
    ...fields
  } = row ?? { ...blank, workspace_id: 0, updated_at: null, logo_key: null };
  const [country] = fields.country_id
    ? await db.select({ name: countries.name }).from(countries).where(eq(countries.id, fields.country_id))
    : [];
  return {
    ...blank,
    ...fields,
    other_id_type: fields.other_id_type as TExporterProfile["other_id_type"],
    country: country?.name ?? null,
    editable: await isAdmin(db, workspaceId, userId),
    logo_url: logo_key ? `/api/exporter-profile/logo?v=${encodeURIComponent(logo_key)}` : null,
    updated_at,
  };
}

/** PUT: only the workspace's admins; an unknown country is a 422 on country_id. */
export async function saveExporterProfile(
  db: TDb,
  workspaceId: number,
  userId: number,
  input: ReturnType<typeof ZExporterProfileInput.parse> & Partial<TExporterProfileInput>,
): Promise<TExporterProfile> {
  if (!(await isAdmin(db, workspaceId, userId))) {
    throw roleRefused("admin");
  }
  if (input.country_id) {
    const [country] = await db
      .select({ id: countries.id })
      .from(countries)
      .where(eq(countries.id, input.country_id));
    if (!country) {
      throw new AppError("VALIDATION", "country_id: Choose a country from the list.", {
        errors: { country_id: ["Choose a country from the list."] },
      });
    }
  }
  const values = { ...input, updated_at: new Date().toISOString() };
  await db
    .insert(exporter_profiles)
    .values({ ...values, workspace_id: workspaceId })
    .onConflictDoUpdate({ target: exporter_profiles.workspace_id, set: values });
  return getExporterProfile(db, workspaceId, userId);
}

/** The logo's bytes, or null when the workspace has none. */
export async function exporterProfileLogo(
  deps: { db: TDbOrTx; storage: TStorage },
  workspaceId: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const row = await exporterProfileRow(deps.db, workspaceId);
  const blob = row?.logo_key ? await deps.storage.get(row.logo_key) : null;
  return blob ? new Uint8Array(await blob.arrayBuffer()) : null;
}

/** Stores (or with null removes) the logo; only the workspace's admins. The previous file is deleted. */
export async function saveExporterLogo(
  deps: { db: TDb; storage: TStorage },
  workspaceId: number,
  userId: number,
  bytes: Uint8Array | null,
): Promise<TExporterProfile> {
  const { db, storage } = deps;
  if (!(await isAdmin(db, workspaceId, userId))) {
    throw roleRefused("admin");
  }
  const previous = (await exporterProfileRow(db, workspaceId))?.logo_key ?? null;
  let key: string | null = null;
  if (bytes) {
    key = newStorageKey("logos");
    await storage.put(key, bytes);
  }
  await db
    .insert(exporter_profiles)
    .values({ workspace_id: workspaceId, logo_key: key })
    .onConflictDoUpdate({
      target: exporter_profiles.workspace_id,
      set: { logo_key: key, updated_at: new Date().toISOString() },
    });
  if (previous) await storage.delete(previous);
  return getExporterProfile(db, workspaceId, userId);
}
