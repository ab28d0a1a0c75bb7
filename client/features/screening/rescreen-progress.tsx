import { useRouter } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import type { TApi } from "../../lib/api";

type TListsAnswer = {
  lists: { source: string; version_date: string; age_days: number; is_stale: boolean }[];
  stale_after_days: number;
  entity_list_entries: number;
  rescreen: { isRunning: boolean; reason: string | null; total: number; done: number; changed: number };
};

/** Fewer Entity List entries than this is a sample, not the list (it has thousands). */
const ENTITY_LIST_LOADED = 100;

function ageText(days: number): string {
  if (days < 1) return "today";
  if (days < 60) return `${days} day${days === 1 ? "" : "s"} old`;
  if (days < 730) return `${Math.floor(days / 30.44)} months old`;
  return `${Math.floor(days / 365.25)} years old`;
}

/**
 * The loaded lists, and while contacts are being screened again in the background (after an
 * import) a progress bar; the list reloads when the run ends so changed outcomes show.
 */
export function RescreenProgress({ api }: { api: TApi }) {
  const router = useRouter();
  const [answer, setAnswer] = useState<TListsAnswer>();
  const wasRunning = useRef(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let isActive = true;
    const poll = async () => {
      try {
        const next = await api.get<TListsAnswer>("/screenings/lists");
        if (!isActive) return;
        setAnswer(next);
        if (wasRunning.current && !next.rescreen.isRunning) void router.invalidate();
        wasRunning.current = next.rescreen.isRunning;
        timer = setTimeout(poll, next.rescreen.isRunning ? 1000 : 10_000);
      } catch {
        timer = setTimeout(poll, 10_000);
      }
    };
    void poll();
    return () => {
      isActive = false;
      clearTimeout(timer);
    };
  }, [api, router]);
  if (!answer) return null;
  const { rescreen, lists } = answer;
  const stale = lists.filter((l) => l.is_stale);
  return (
    <div className="mb-4 space-y-2 text-sm text-muted-foreground" data-print-hide>
      <p data-testid="lists-loaded">
        Lists loaded:{" "}
        {lists.map((l) => `${l.source} (${l.version_date}) ${ageText(l.age_days)}`).join("; ") ||
          "none — screening is not possible"}
      </p>
      {stale.length > 0 && (
        <p className="text-amber-700 dark:text-amber-400" role="alert" data-testid="lists-stale">
          Older than {answer.stale_after_days} days:{" "}
          {stale.map((l) => `${l.source} (${ageText(l.age_days)})`).join(", ")}. Parties listed since then are
          not screened: import the current file (npm run screening-lists -- import …).
        </p>
      )}
      {lists.length > 0 && answer.entity_list_entries < ENTITY_LIST_LOADED && (
        <p data-testid="entity-list-missing">
          The BIS Entity List is not loaded
          {answer.entity_list_entries > 0 ? ` (only ${answer.entity_list_entries} sample entries)` : ""}. To
          screen against it, download the Consolidated Screening List (consolidated.csv) from trade.gov and
          import it: npm run screening-lists -- import consolidated.csv (or tradewinds screening-lists import
          consolidated.csv).
        </p>
      )}
      {rescreen.isRunning && (
        <div className="flex items-center gap-3" role="status">
          <progress
            className="h-2 w-64"
            max={rescreen.total || 1}
            value={rescreen.done}
            aria-label="Screening progress"
          />
          <span>
            Screening contacts again ({rescreen.reason}): {rescreen.done} of {rescreen.total},{" "}
            {rescreen.changed} changed
          </span>
        </div>
      )}
    </div>
  );
}
