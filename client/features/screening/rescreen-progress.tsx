import { useRouter } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import type { TApi } from "../../lib/api";

type TListsAnswer = {
  lists: { source: string; version_date: string }[];
  rescreen: { isRunning: boolean; reason: string | null; total: number; done: number; changed: number };
};

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
  return (
    <div className="mb-4 space-y-2 text-sm text-muted-foreground" data-print-hide>
      <p>
        Lists loaded:{" "}
        {lists.map((l) => `${l.source} (${l.version_date})`).join(", ") || "none — screening is not possible"}
      </p>
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
