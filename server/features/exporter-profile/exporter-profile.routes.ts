import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ZExporterProfileInput } from "../../../db/contracts/exporter-profile";
import type { TAppEnv } from "../../lib/context";
import { AppError, notFound } from "../../lib/errors";
import { validate } from "../../lib/validate";
import { authOf, requireAuth } from "../auth/auth.middleware";
import { IMAGE_MAX_BYTES, IMAGE_SIZE_MESSAGE, IMAGE_TYPE_MESSAGE, sniffImage } from "../users/users.routes";
import {
  exporterProfileLogo,
  getExporterProfile,
  saveExporterLogo,
  saveExporterProfile,
} from "./exporter-profile.service";

const logoError = (message: string) => new AppError("VALIDATION", message, { errors: { logo: [message] } });

/**
 * The workspace's own legal entity under /api/exporter-profile (session required, the caller's
 * workspace only):
 * - GET / → {item: TExporterProfile}
 * - PUT / {company, street, …, ein, eori, …} → {item}; 422 naming each bad field; 403 unless the
 *   caller owns the workspace.
 * - POST /logo (multipart, field "logo": PNG or JPEG under 2 MB) → {item}; DELETE /logo → {item};
 *   GET /logo → the image (404 when none).
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
  })
  .post(
    "/logo",
    bodyLimit({
      maxSize: IMAGE_MAX_BYTES + 64 * 1024,
      onError: () => {
        throw logoError(IMAGE_SIZE_MESSAGE);
      },
    }),
    async (c) => {
      const { workspaceId, user } = authOf(c);
      const body = await c.req.parseBody().catch(() => {
        throw logoError("Send the logo as multipart/form-data");
      });
      const file = body.logo;
      if (!(file instanceof File)) throw logoError('Choose an image to upload in the field "logo"');
      if (file.size >= IMAGE_MAX_BYTES) throw logoError(IMAGE_SIZE_MESSAGE);
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (!sniffImage(bytes)) throw logoError(IMAGE_TYPE_MESSAGE);
      const item = await saveExporterLogo(c.var, workspaceId, user.id, bytes);
      return c.json({ item, messages: ["Logo uploaded"] });
    },
  )
  .delete("/logo", async (c) => {
    const { workspaceId, user } = authOf(c);
    const item = await saveExporterLogo(c.var, workspaceId, user.id, null);
    return c.json({ item, messages: ["Logo removed"] });
  })
  .get("/logo", async (c) => {
    const bytes = await exporterProfileLogo(c.var, authOf(c).workspaceId);
    if (!bytes) throw notFound("No logo uploaded");
    c.header("Content-Type", sniffImage(bytes) ?? "application/octet-stream");
    c.header("Cache-Control", "private, no-cache");
    return c.body(bytes);
  });
