import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { Hono } from "hono";
import { ZPartnerTypeInput } from "../../../db/contracts/contacts";
import { partner_types } from "../../../db/schema";
import type { TAppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { validate } from "../../lib/validate";
import { authOf, requireAuth } from "../auth/auth.middleware";

const visibleTo = (workspaceId: number) =>
  or(isNull(partner_types.workspace_id), eq(partner_types.workspace_id, workspaceId));

/** GET /partner-types (seeded + the workspace's own), POST /partner-types {partner_type}. */
export const partnerTypeRoutes = new Hono<TAppEnv>()
  .use(requireAuth())
  .get("/", async (c) => {
    const data = await c.var.db
      .select({ id: partner_types.id, partner_type: partner_types.partner_type })
      .from(partner_types)
      .where(visibleTo(authOf(c).workspaceId))
      .orderBy(asc(partner_types.id));
    return c.json({ data });
  })
  .post("/", validate("json", ZPartnerTypeInput), async (c) => {
    const { workspaceId } = authOf(c);
    const { partner_type } = c.req.valid("json");
    const [existing] = await c.var.db
      .select({ id: partner_types.id })
      .from(partner_types)
      .where(and(visibleTo(workspaceId), sql`lower(${partner_types.partner_type}) = lower(${partner_type})`))
      .limit(1);
    if (existing) {
      throw new AppError("VALIDATION", "This partner type already exists", {
        errors: { partner_type: ["This partner type already exists"] },
      });
    }
    const [item] = await c.var.db
      .insert(partner_types)
      .values({ partner_type, workspace_id: workspaceId })
      .returning({ id: partner_types.id, partner_type: partner_types.partner_type });
    return c.json({ item, status: { error: false } }, 201);
  });
