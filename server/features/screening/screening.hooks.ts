import type { Context } from "hono";
import type { TAppEnv } from "../../lib/context";
import { authOf } from "../auth/auth.middleware";
import { contactOf, pendingContactIds, screenContact } from "./screening.service";

/**
 * Contacts are screened when created, and again when their name, address or country change: the
 * write itself marked them pending (column default and trigger), so this screens whatever is
 * pending. If it fails or the process stops first, the mark stays and the sweep finishes it.
 */
export async function screenOnContactSave(c: Context<TAppEnv>, item: Record<string, unknown>): Promise<void> {
  const { user, workspaceId } = authOf(c);
  const contact = await contactOf(c.var.db, workspaceId, Number(item.id));
  if (!contact.screening_pending) return;
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
  // The pending mark is indexed; comparing every contact with its newest result is not (a
  // 100,000-contact workspace held the server for seconds in that one query).
  void pendingContactIds(c.var.db, workspaceId)
    .then((ids) =>
      ids.length ? rescreen.run(ids, "contact import", undefined, { pendingOnly: true }) : undefined,
    )
    .catch((error) => c.var.logger.error("screening imported contacts failed", { error: String(error) }));
}
