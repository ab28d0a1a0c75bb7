import { HistoryIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { forgetWork, keepWork, readKeptWork, type TKeptWork } from "../../lib/kept-work";
import { Button } from "../ui/button";
import { formatAutosaveTime } from "./autosave";

/**
 * Keeps a copy of a form's unsaved work in the browser while the server does not have it, and offers
 * it back when the page opens again (after a reload, a crash, leaving anyway) with values that differ
 * from the stored record. The copy is dropped once every change is saved, or when the user discards it.
 */
export function useKeptWork<T>({
  storageKey,
  snapshot,
  baseUpdatedAt,
  isUnsaved,
  hasChanged,
  differsFromStored,
  onRestore,
}: {
  /** One per record, e.g. "shipment:42". */
  storageKey: string;
  /** What to keep: the form's values now. */
  snapshot: T;
  /** The record's updated_at as the server last stored it for this page (the base of the next save). */
  baseUpdatedAt: string | null;
  /** The server lacks a change (the autosaver's state). */
  isUnsaved: boolean;
  /** Anything was changed on this page since it opened. */
  hasChanged: () => boolean;
  /** Whether a kept copy says something the stored record does not. */
  differsFromStored: (kept: T) => boolean;
  /**
   * Puts the kept values back into the form (which then autosaves them), with the updated_at they
   * were based on: a page opened from an older copy (offline) saves on that base, not its own.
   */
  onRestore: (kept: T, baseUpdatedAt: string | null) => void;
}) {
  const [offer, setOffer] = useState<TKeptWork<T> | null>(null);
  const offerRef = useRef<TKeptWork<T> | null>(null);
  offerRef.current = offer;
  const differsRef = useRef(differsFromStored);
  differsRef.current = differsFromStored;

  // Browser only (storage): a copy from an earlier visit is offered when it adds something.
  useEffect(() => {
    const kept = readKeptWork<T>(storageKey);
    if (!kept) return;
    if (differsRef.current(kept.snapshot)) setOffer(kept);
    else forgetWork(storageKey);
  }, [storageKey]);

  // Every change is kept until the server has it. While a copy from before is on offer it is left
  // alone: the user decides about it first.
  const serialized = JSON.stringify(snapshot);
  useEffect(() => {
    if (offerRef.current || !hasChanged()) return;
    if (isUnsaved) keepWork(storageKey, JSON.parse(serialized) as T, baseUpdatedAt);
    else forgetWork(storageKey);
  }, [serialized, isUnsaved, storageKey, baseUpdatedAt, hasChanged]);

  return {
    offer,
    restore() {
      if (!offer) return;
      setOffer(null);
      onRestore(offer.snapshot, offer.baseUpdatedAt);
    },
    discard() {
      setOffer(null);
      forgetWork(storageKey);
    },
  };
}

/** 'Unsaved changes from {time} were kept in this browser' with Restore and Discard. */
export function KeptWorkBanner({
  kept,
}: {
  kept: { offer: TKeptWork<unknown> | null; restore: () => void; discard: () => void };
}) {
  if (!kept.offer) return null;
  return (
    <div
      role="alert"
      data-testid="kept-work"
      className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
    >
      <HistoryIcon className="size-4 shrink-0" aria-hidden />
      <span className="flex-1">
        Changes you made on {formatAutosaveTime(new Date(kept.offer.keptAt))} did not reach the server; a copy
        was kept in this browser.
      </span>
      <Button size="sm" onClick={kept.restore}>
        Restore my changes
      </Button>
      <Button size="sm" variant="outline" onClick={kept.discard}>
        Discard
      </Button>
    </div>
  );
}
