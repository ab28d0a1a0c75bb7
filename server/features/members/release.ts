import { and, eq, inArray, or } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { contacts, shipments, users } from "../../../db/schema";
import { forbidden } from "../../lib/errors";
import { PARTIES } from "../shipments/shipments.service";
import { twoPersonRelease } from "./members.service";

/** A member whose work a screening hit holds: who created or last edited the contact, or created or last edited a shipment naming it. */
export type TAsker = { user_id: number; email: string; name: string; as: string };

/** Who asked for a contact's release: the contact's creator and last editor, and the members behind its shipments. */
export async function releaseAskers(db: TDb, workspaceId: number, contactId: number): Promise<TAsker[]> {
  const found = new Map<number, string[]>();
  const add = (userId: number | null, as: string) => {
    if (userId) found.set(userId, [...(found.get(userId) ?? []), as]);
  };
  const [contact] = await db
    .select({ user_id: contacts.user_id, edited: contacts.updated_by_user_id })
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.workspace_id, workspaceId)));
  add(contact?.user_id ?? null, "created the contact");
  add(contact?.edited ?? null, "last edited the contact");
  const naming = await db
    .select({
      id: shipments.id,
      name: shipments.name,
      by: shipments.user_id,
      edited: shipments.updated_by_user_id,
    })
    .from(shipments)
    .where(
      and(
        eq(shipments.workspace_id, workspaceId),
        or(...PARTIES.map((key) => eq(shipments[key], contactId))),
      ),
    );
  for (const shipment of naming) {
    const label = shipment.name || `#${shipment.id}`;
    add(shipment.by, `created shipment ${label}`);
    add(shipment.edited, `last edited shipment ${label}`);
  }
  if (!found.size) return [];
  const people = await db
    .select({ id: users.id, email: users.email, name: users.name, surname: users.surname })
    .from(users)
    .where(inArray(users.id, [...found.keys()]));
  return people.map((p) => ({
    user_id: p.id,
    email: p.email,
    name: `${p.name} ${p.surname}`,
    as: [...new Set(found.get(p.id))].join("; "),
  }));
}

/**
 * With two-person release on, a compliance member cannot release hits held by their own work
 * (403 saying who must); the askers are returned for the audit trail either way.
 */
export async function checkRelease(
  db: TDb,
  workspaceId: number,
  releaserId: number | null,
  contactId: number,
): Promise<TAsker[]> {
  const askers = await releaseAskers(db, workspaceId, contactId);
  const own = askers.find((asker) => asker.user_id === releaserId);
  if (own && (await twoPersonRelease(db, workspaceId))) {
    throw forbidden(
      `Two-person release is on and you ${own.as}: another member with the Compliance role must clear this contact.`,
    );
  }
  return askers;
}
