import { useBlocker } from "@tanstack/react-router";
import { CheckCircle2Icon, CloudOffIcon, RefreshCwIcon, TriangleAlertIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { ApiError } from "../../lib/api";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";

/** Spec section 9: autosave 800 ms after the last change; the result banner hides after 3000 ms. */
export const AUTOSAVE_DELAY_MS = 800;
export const AUTOSAVE_BANNER_MS = 3000;
/** A save that failed for want of a network or server is retried after 1 s, 2 s, 4 s … up to 30 s. */
export const AUTOSAVE_RETRY_MIN_MS = 1000;
export const AUTOSAVE_RETRY_MAX_MS = 30_000;

/**
 * Failures worth retrying unchanged: no answer at all (offline, server down), a timeout, too many
 * requests, a server error. A 422 would fail again with the same values: the next change retries it.
 */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

export type TAutosavePhase = "idle" | "saving" | "saved" | "failed" | "conflict";

export type TAutosaveState = {
  phase: TAutosavePhase;
  /** When the last autosave succeeded (this page's life). */
  lastSavedAt: Date | null;
  /** A 409's message: the record changed elsewhere. */
  conflictMessage?: string;
  /** Why the last save failed, when the server said (a 422's field errors). */
  failureDetail?: string;
  /** A change has not reached the server yet: the page shows a marker until it has. */
  isUnsaved?: boolean;
  /** The last save failed and will be tried again on its own (network or server trouble). */
  isRetrying?: boolean;
  /** Saves that failed since the last one that went through. */
  failedAttempts?: number;
};

/** The autosave banner's time: MM/DD/YY - HH:mm (spec section 9). */
export function formatAutosaveTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(date.getMonth() + 1)}/${pad(date.getDate())}/${pad(date.getFullYear() % 100)} - ${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}`;
}

export type TAutosaver = {
  /** Records a change and (re)starts the delay. */
  markChanged: () => void;
  /**
   * Saves now if anything is unsaved (after a running save ends), or always when `extra` is given:
   * for explicit actions such as generating paperwork. Rejects with the save's error.
   */
  flush: (options?: { extra?: Record<string, unknown> }) => Promise<void>;
  /** True while a change has not reached the server. */
  hasUnsaved: () => boolean;
  /** True once anything was changed on this page (saved or not). */
  hasChanged: () => boolean;
  /** Tries a waiting retry at once (the browser is back online). */
  retryNow: () => void;
  /** Leaving the page: a pending autosave is cancelled and nothing fires any more. */
  dispose: () => void;
};

/**
 * Autosave as spec section 4 says: a save fires `delayMs` after the last change, only when a change
 * is newer than the last save, never while one is running (a change made during a save is saved
 * after it, after the delay), and nothing fires once disposed (the page was left). A 409 (the record
 * changed elsewhere) stops autosaving: the page reloads the record and starts a new autosaver.
 * The result banner goes back to idle after AUTOSAVE_BANNER_MS; the state's isUnsaved stays true
 * until the server has every change. A save that failed for want of a network or server is retried
 * with a doubling delay (retryMinMs … retryMaxMs) until it goes through, so work done offline
 * reaches the server once the connection is back without the user doing anything.
 */
export function createAutosaver({
  save,
  onState,
  delayMs = AUTOSAVE_DELAY_MS,
  bannerMs = AUTOSAVE_BANNER_MS,
  retryMinMs = AUTOSAVE_RETRY_MIN_MS,
  retryMaxMs = AUTOSAVE_RETRY_MAX_MS,
}: {
  save: (extra?: Record<string, unknown>) => Promise<void>;
  onState: (state: TAutosaveState) => void;
  delayMs?: number;
  bannerMs?: number;
  retryMinMs?: number;
  retryMaxMs?: number;
}): TAutosaver {
  // Counters instead of clocks: "newer than the last save" must hold even within one millisecond.
  let changeSeq = 0;
  let savedSeq = 0;
  let running: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  let isDisposed = false;
  let isStopped = false;
  let failures = 0;
  let isRetryPending = false;
  let state: TAutosaveState = { phase: "idle", lastSavedAt: null };

  const isUnsaved = () => changeSeq > savedSeq || running !== null;
  const emit = (phaseState: TAutosaveState) => {
    const next = {
      ...phaseState,
      isUnsaved: isUnsaved(),
      isRetrying: isRetryPending,
      failedAttempts: failures,
    };
    state = next;
    clearTimeout(hideTimer);
    if (isDisposed) return;
    onState(next);
    if (next.phase === "saved" || next.phase === "failed") {
      hideTimer = setTimeout(() => {
        if (!isDisposed && state === next) emit({ ...next, phase: "idle" });
      }, bannerMs);
    }
  };
  const schedule = (ms = delayMs) => {
    clearTimeout(timer);
    timer = setTimeout(() => void run().catch(() => undefined), ms);
  };

  async function run(extra?: Record<string, unknown>): Promise<void> {
    if (isDisposed || isStopped || running) return; // skipped while a save runs; it re-checks when it ends
    if (changeSeq <= savedSeq && !extra) return;
    const seq = changeSeq;
    emit({ phase: "saving", lastSavedAt: state.lastSavedAt });
    const attempt = (async () => {
      try {
        await save(extra);
        savedSeq = Math.max(savedSeq, seq);
        failures = 0;
        isRetryPending = false;
        running = null;
        emit({ phase: "saved", lastSavedAt: new Date() });
      } catch (error) {
        running = null;
        if (error instanceof ApiError && error.status === 409) {
          isStopped = true;
          emit({ phase: "conflict", lastSavedAt: state.lastSavedAt, conflictMessage: error.message });
        } else {
          const detail =
            error instanceof ApiError && error.errors
              ? Object.entries(error.errors)
                  .map(([field, messages]) => `${field}: ${messages.join(" ")}`)
                  .join("; ")
              : undefined;
          failures += 1;
          isRetryPending = isRetryable(error);
          emit({ phase: "failed", lastSavedAt: state.lastSavedAt, failureDetail: detail });
        }
        throw error;
      }
    })();
    running = attempt.then(
      () => undefined,
      () => undefined,
    );
    try {
      await attempt;
    } finally {
      running = null;
      if (!isDisposed && !isStopped) {
        // Network or server trouble: the same values are tried again, later each time. A change made
        // while this save ran is newer than it: save it too, after the usual delay. A refused save
        // (422) is not retried on its own (it would fail again); the next change retries.
        if (isRetryPending && changeSeq > savedSeq)
          schedule(Math.min(retryMaxMs, retryMinMs * 2 ** Math.max(0, failures - 1)));
        else if (changeSeq > seq) schedule();
      }
    }
  }

  return {
    markChanged() {
      const wasUnsaved = isUnsaved();
      changeSeq += 1;
      // The first change after everything was saved raises the unsaved marker.
      if (!wasUnsaved) emit({ ...state });
      if (!isDisposed && !isStopped) schedule();
    },
    async flush(options = {}) {
      clearTimeout(timer);
      if (running) await running;
      if (isStopped)
        throw new ApiError(409, state.conflictMessage ?? "The record was changed somewhere else.", null);
      await run(options.extra);
    },
    hasUnsaved: isUnsaved,
    hasChanged: () => changeSeq > 0,
    retryNow() {
      if (isRetryPending && !running && !isDisposed && !isStopped) schedule(0);
    },
    dispose() {
      isDisposed = true;
      clearTimeout(timer);
      clearTimeout(hideTimer);
    },
  };
}

/** The question asked before leaving a page whose changes have not reached the server. */
export const LEAVE_UNSAVED_QUESTION =
  "Some of your changes have not been saved yet. A copy stays in this browser, but if you leave now the server does not have them. Leave anyway?";

/**
 * The autosaver for a screen's life, its banner state, and a "leave page?" question while a change
 * is unsaved: the browser's own on reload or close, a confirm on any in-app navigation (sidebar,
 * Back, links). A waiting retry runs at once when the browser is back online. Leaving the page
 * (unmount) cancels a pending autosave.
 */
export function useAutosave({
  save,
  delayMs = AUTOSAVE_DELAY_MS,
}: {
  /** Sends the current values (plus what an explicit action adds); throws (an ApiError) on failure. */
  save: (extra?: Record<string, unknown>) => Promise<void>;
  delayMs?: number;
}) {
  const [state, setState] = useState<TAutosaveState>({ phase: "idle", lastSavedAt: null });
  const saveRef = useRef(save);
  saveRef.current = save;
  const [autosaver] = useState(() =>
    createAutosaver({ save: (extra) => saveRef.current(extra), onState: setState, delayMs }),
  );
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!autosaver.hasUnsaved()) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    const onOnline = () => autosaver.retryNow();
    window.addEventListener("beforeunload", onBeforeUnload);
    window.addEventListener("online", onOnline);
    return () => {
      autosaver.dispose();
      window.removeEventListener("beforeunload", onBeforeUnload);
      window.removeEventListener("online", onOnline);
    };
  }, [autosaver]);
  useBlocker({
    shouldBlockFn: () => autosaver.hasUnsaved() && !window.confirm(LEAVE_UNSAVED_QUESTION),
    // The listener above asks on reload and close.
    enableBeforeUnload: false,
  });
  return { state, ...autosaver };
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
    <>
      <UnsavedMarker state={state} />
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
    </>
  );
}

/**
 * A marker that stays, once a save has failed, until the server has every change (the spec's
 * result banner hides after 3 s; this does not), saying whether a retry is under way.
 */
export function UnsavedMarker({ state }: { state: TAutosaveState }) {
  // While saves go through, typing does not flash a marker: it shows once a save has failed.
  if (!state.isUnsaved || state.phase === "conflict" || !state.failedAttempts) return null;
  const isOffline = typeof navigator !== "undefined" && navigator.onLine === false;
  let detail = "";
  if (state.phase === "saving") detail = "saving now…";
  else if (isOffline)
    detail = "you are offline; they are kept in this browser and saved when the connection is back.";
  else if (state.isRetrying) detail = "the last save did not go through; trying again automatically.";
  else if (state.failureDetail) detail = "the server refused the last save; correct the fields below.";
  return (
    <p
      data-testid="unsaved-marker"
      className="flex items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-950"
    >
      <CloudOffIcon className="size-4 shrink-0" aria-hidden />
      <span>
        <strong>Unsaved changes</strong>
        {detail && ` — ${detail}`}
      </span>
    </p>
  );
}
