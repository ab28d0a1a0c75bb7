import type { Context } from "hono";
import type { TAppEnv } from "../../lib/context";
import { authOf } from "../auth/auth.middleware";
import type { TImportScreening } from "../contacts/contacts.routes";
import { contactOf, pendingContactIds, screenContact } from "./screening.service";
import { ScreeningWorker } from "./screening-worker";

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

/**
 * Before a big CSV file is imported: a screening worker of its own, which builds its index of the
 * lists on another core while the file is imported and scores each written batch's names as they
 * come (null where none can start: the job then screens as it would without).
 */
export function prepareImportScreening(c: Context<TAppEnv>): ScreeningWorker | null {
  return c.var.screening.rescreen.startWorker();
}

/**
 * After a CSV import, the new and changed contacts are screened in the background (on the worker
 * `prepareImportScreening` started, if any; it is stopped when the job ends).
 */
export function screenAfterImport(c: Context<TAppEnv>, prepared: TImportScreening | null): void {
  const { workspaceId } = authOf(c);
  const { rescreen } = c.var.screening;
  const worker = prepared instanceof ScreeningWorker ? prepared : undefined;
  // The pending mark is indexed; comparing every contact with its newest result is not (a
  // 100,000-contact workspace held the server for seconds in that one query).
  void pendingContactIds(c.var.db, workspaceId)
    .then((ids) => (ids.length ? rescreen.run(ids, "contact import", undefined, { worker }) : undefined))
    .catch((error) => c.var.logger.error("screening imported contacts failed", { error: String(error) }))
    .finally(() => prepared?.stop());
}
