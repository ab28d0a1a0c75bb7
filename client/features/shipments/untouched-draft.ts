import { useEffect, useRef } from "react";
import type { TShipment } from "../../../db/contracts/shipments";
import { SHIPMENT_STATUS } from "../../../db/contracts/shipments";

/**
 * A shipment as 'Create Int’l Shipment' leaves it: a draft nobody has saved anything into since it
 * was created (its updated_at is still its created_at), without documents.
 */
export function isBlankDraft(
  item: Pick<TShipment, "created_at" | "updated_at" | "shipping_status_id">,
): boolean {
  return item.shipping_status_id === SHIPMENT_STATUS.DRAFT && item.created_at === item.updated_at;
}

// A discard waits one tick, so a remount of the same page (React's development double mount,
// a reload of the route's data) cancels it.
const pending = new Map<number, ReturnType<typeof setTimeout>>();

/**
 * Removes a blank draft when its page is left untouched inside the app (Back, the sidebar, a link),
 * so opening 'Create Int’l Shipment' and going away leaves no empty shipment in the list or the
 * dashboard's counts. `isUntouched` is asked at the moment of leaving. Closing the tab or reloading
 * keeps it: a reload must find its page again.
 */
export function useDiscardUntouchedDraft(
  api: { send: (method: "DELETE", path: string) => Promise<unknown> },
  item: TShipment,
  isUntouched: () => boolean,
) {
  const isUntouchedRef = useRef(isUntouched);
  isUntouchedRef.current = isUntouched;
  const apiRef = useRef(api);
  apiRef.current = api;
  const id = item.id;
  const isBlank = isBlankDraft(item);
  useEffect(() => {
    clearTimeout(pending.get(id));
    pending.delete(id);
    if (!isBlank) return;
    return () => {
      if (!isUntouchedRef.current()) return;
      pending.set(
        id,
        setTimeout(() => {
          pending.delete(id);
          // Nothing to tell the user if it fails: the draft stays, as it did before.
          apiRef.current.send("DELETE", `/shipments/${id}`).catch(() => undefined);
        }, 0),
      );
    };
  }, [id, isBlank]);
}
