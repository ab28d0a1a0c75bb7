import { CheckCircle2Icon, RefreshCwIcon, TriangleAlertIcon } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "../../lib/api";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";

/** Spec section 9: autosave 800 ms after the last change; the result banner hides after 3000 ms. */
export const AUTOSAVE_DELAY_MS = 800;
export const AUTOSAVE_BANNER_MS = 3000;

export type TAutosavePhase = "idle" | "saving" | "saved" | "failed" | "conflict";

export type TAutosaveState = {
  phase: TAutosavePhase;
  /** When the last autosave succeeded (this page's life). */
  lastSavedAt: Date | null;
  /** A 409's message: the record changed elsewhere. */
  conflictMessage?: string;
  /** Why the last save failed, when the server said (a 422's field errors). */
  failureDetail?: string;
};

/** The autosave banner's time: MM/DD/YY - HH:mm (spec section 9). */
export function formatAutosaveTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(date.getMonth() + 1)}/${pad(date.getDate())}/${pad(date.getFullYear() % 100)} - ${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}`;
}

/**
 * Autosave as spec section 4 says: a save fires AUTOSAVE_DELAY_MS after the last change, only when a
 * change is newer than the last save, never while one is running (a change made during a save is
 * saved after it), and nothing fires once the page is left. A 409 (the record changed elsewhere)
 * stops autosaving until the page reloads the record. The page asks before closing while a change is
 * unsaved.
 */
export function useAutosave({
  save,
  isEnabled = true,
  delayMs = AUTOSAVE_DELAY_MS,
}: {
  /** Sends the current values (plus what an explicit action adds); throws (an ApiError) on failure. */
  save: (extra?: Record<string, unknown>) => Promise<void>;
  isEnabled?: boolean;
  delayMs?: number;
}) {
  const [state, setState] = useState<TAutosaveState>({ phase: "idle", lastSavedAt: null });
  // Counters instead of clocks: "newer than the last save" must hold even within one millisecond.
  const changeSeq = useRef(0);
  const savedSeq = useRef(0);
  const running = useRef<Promise<void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const isLeft = useRef(false);
  const isStopped = useRef(false);
  const lastSavedAt = useRef<Date | null>(null);
  const saveRef = useRef(save);
  saveRef.current = save;

  const showResult = useCallback((next: TAutosaveState) => {
    setState(next);
    clearTimeout(hideTimer.current);
    if (next.phase === "saved" || next.phase === "failed") {
      hideTimer.current = setTimeout(() => {
        if (!isLeft.current) setState((s) => (s.phase === next.phase ? { ...s, phase: "idle" } : s));
      }, AUTOSAVE_BANNER_MS);
    }
  }, []);

  const run = useCallback(
    async (extra?: Record<string, unknown>): Promise<void> => {
      if (isLeft.current || isStopped.current) return;
      if (running.current) return; // skipped while a save runs; the save re-checks when it ends
      if (changeSeq.current <= savedSeq.current && !extra) return;
      const seq = changeSeq.current;
      setState((s) => ({ ...s, phase: "saving" }));
      clearTimeout(hideTimer.current);
      const attempt = (async () => {
        try {
          await saveRef.current(extra);
          savedSeq.current = Math.max(savedSeq.current, seq);
          lastSavedAt.current = new Date();
          if (!isLeft.current) showResult({ phase: "saved", lastSavedAt: lastSavedAt.current });
        } catch (error) {
          if (error instanceof ApiError && error.status === 409) {
            isStopped.current = true;
            if (!isLeft.current)
              setState({
                phase: "conflict",
                lastSavedAt: lastSavedAt.current,
                conflictMessage: error.message,
              });
          } else if (!isLeft.current) {
            const detail =
              error instanceof ApiError && error.errors
                ? Object.entries(error.errors)
                    .map(([field, messages]) => `${field}: ${messages.join(" ")}`)
                    .join("; ")
                : undefined;
            showResult({ phase: "failed", lastSavedAt: lastSavedAt.current, failureDetail: detail });
          }
          throw error;
        }
      })();
      running.current = attempt.then(
        () => undefined,
        () => undefined,
      );
      try {
        await attempt;
      } finally {
        running.current = null;
        // A change made while this save ran is newer than it: save it too, after the usual delay.
        if (!isLeft.current && !isStopped.current && changeSeq.current > savedSeq.current) {
          clearTimeout(timer.current);
          timer.current = setTimeout(() => void run().catch(() => undefined), delayMs);
        }
      }
    },
    [delayMs, showResult],
  );

  /** Records a change and (re)starts the delay. */
  const markChanged = useCallback(() => {
    changeSeq.current += 1;
    if (!isEnabled || isStopped.current) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void run().catch(() => undefined), delayMs);
  }, [delayMs, isEnabled, run]);

  /**
   * Saves now if anything is unsaved (after a running save ends): for explicit actions such as
   * generating paperwork or saving a template. Rejects with the save's error.
   */
  const flush = useCallback(
    async (options: { force?: boolean; extra?: Record<string, unknown> } = {}) => {
      clearTimeout(timer.current);
      if (running.current) await running.current;
      if (isStopped.current) throw new ApiError(409, "This shipment was changed somewhere else.", null);
      if (options.force && changeSeq.current <= savedSeq.current) changeSeq.current = savedSeq.current + 1;
      await run(options.extra);
    },
    [run],
  );

  /** True while a change has not reached the server. */
  const hasUnsaved = useCallback(() => changeSeq.current > savedSeq.current || running.current !== null, []);

  /** After the record was reloaded from the server: nothing is unsaved and autosaving resumes. */
  const resetTo = useCallback(() => {
    clearTimeout(timer.current);
    savedSeq.current = changeSeq.current;
    isStopped.current = false;
    setState({ phase: "idle", lastSavedAt: lastSavedAt.current });
  }, []);

  useEffect(() => {
    isLeft.current = false;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!hasUnsaved()) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => {
      // Leaving the page cancels a pending autosave (spec section 4).
      isLeft.current = true;
      clearTimeout(timer.current);
      clearTimeout(hideTimer.current);
      window.removeEventListener("beforeunload", onBeforeUnload);
    };
  }, [hasUnsaved]);

  return { state, markChanged, flush, hasUnsaved, resetTo };
}

/**
 * The spec's four autosave banners ('Autosaving' with a spinner; saved at {time}; last saved at
 * {time} after a failure; 'Could not save your work at this time') plus the 409 banner with Reload.
 */
export function AutosaveBanner({ state, onReload }: { state: TAutosaveState; onReload: () => void }) {
  let content: React.ReactNode = null;
  let tone = "";
  if (state.phase === "saving") {
    tone = "border-blue-200 bg-blue-50 text-blue-900";
    content = (
      <>
        <Spinner />
        <span>Autosaving</span>
      </>
    );
  } else if (state.phase === "saved" && state.lastSavedAt) {
    tone = "border-green-200 bg-green-50 text-green-900";
    content = (
      <>
        <CheckCircle2Icon className="size-4" aria-hidden />
        <span>Your current work has been saved as a draft: {formatAutosaveTime(state.lastSavedAt)}</span>
      </>
    );
  } else if (state.phase === "failed") {
    tone = "border-red-200 bg-red-50 text-red-900";
    content = (
      <>
        <TriangleAlertIcon className="size-4" aria-hidden />
        <span>
          {state.lastSavedAt
            ? `Your current work has last time been saved as a draft: ${formatAutosaveTime(state.lastSavedAt)}`
            : "Could not save your work at this time"}
          {state.failureDetail && <span className="block text-xs">{state.failureDetail}</span>}
        </span>
      </>
    );
  } else if (state.phase === "conflict") {
    tone = "border-orange-300 bg-orange-50 text-orange-950";
    content = (
      <>
        <TriangleAlertIcon className="size-4 shrink-0" aria-hidden />
        <span className="flex-1">
          <strong>This shipment was changed somewhere else.</strong>{" "}
          {state.conflictMessage ? `${state.conflictMessage} ` : ""}Your latest changes here were not saved:
          reload to continue from the current version.
        </span>
        <Button size="sm" variant="outline" onClick={onReload}>
          <RefreshCwIcon />
          Reload
        </Button>
      </>
    );
  }
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="autosave-banner"
      data-phase={state.phase}
      className={cn(
        "flex min-h-0 flex-wrap items-center gap-2 rounded-md text-sm",
        content && "border px-3 py-2",
        tone,
      )}
    >
      {content}
    </div>
  );
}
