import { Hono } from "hono";
import { ZExporterProfileInput } from "../../../db/contracts/exporter-profile";
import type { TAppEnv } from "../../lib/context";
import { validate } from "../../lib/validate";
import { authOf, requireAuth } from "../auth/auth.middleware";
import { getExporterProfile, saveExporterProfile } from "./exporter-profile.service";

/**
 * The workspace's own legal entity under /api/exporter-profile (session required, the caller's
 * workspace only):
 * - GET / → {item: TExporterProfile}
 * - PUT / {company, street, …, ein, eori, …} → {item}; 422 naming each bad field; 403 unless the
 *   caller owns the workspace.
 */
export const exporterProfileRoutes = new Hono<TAppEnv>()
  .use(requireAuth())
  .get("/", async (c) => {
    const { workspaceId, user } = authOf(c);
    return c.json({ item: await getExporterProfile(c.var.db, workspaceId, user.id) });
  })
  .put("/", validate("json", ZExporterProfileInput), async (c) => {
    const { workspaceId, user } = authOf(c);
    const item = await saveExporterProfile(c.var.db, workspaceId, user.id, c.req.valid("json"));
    return c.json({ item, messages: ["Exporter profile saved"], status: { error: false } });
  });
