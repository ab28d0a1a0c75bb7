import type { Context } from "hono";
import type { TAppEnv } from "../../lib/context";
import { authOf } from "../auth/auth.middleware";
import { staleContactIds } from "./rescreen";
import { contactOf, screenContact } from "./screening.service";

/** What about a contact, when changed, makes its screening out of date. */
const SCREENED_FIELDS = ["company", "street", "city", "state_province", "postal_code", "country_id"];

/** Contacts are screened when created, and again when their name, address or country change. */
export async function screenOnContactSave(
  c: Context<TAppEnv>,
  item: Record<string, unknown>,
  before: Record<string, unknown> | null,
): Promise<void> {
  if (before && SCREENED_FIELDS.every((f) => before[f] === item[f])) return;
  const { user, workspaceId } = authOf(c);
  const contact = await contactOf(c.var.db, workspaceId, Number(item.id));
  await screenContact(
    { db: c.var.db, registry: c.var.screening.registry, threshold: c.var.screening.threshold },
    { workspaceId, userId: user.id, userEmail: user.email },
    contact,
  );
}

/** After a CSV import, the new and changed contacts are screened in the background. */
export function screenAfterImport(c: Context<TAppEnv>): void {
  const { workspaceId } = authOf(c);
  const { rescreen } = c.var.screening;
  void staleContactIds(c.var.db, workspaceId)
    .then((ids) => (ids.length ? rescreen.run(ids, "contact import") : undefined))
    .catch((error) => c.var.logger.error("screening imported contacts failed", { error: String(error) }));
}
