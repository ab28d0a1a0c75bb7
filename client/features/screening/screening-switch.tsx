import { Link, useRouteContext } from "@tanstack/react-router";
import { ClockIcon, HourglassIcon, ShieldAlertIcon, ShieldCheckIcon } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { toast } from "sonner";
import {
  contactScreeningState,
  type TContactScreening,
  type TContactScreeningState,
} from "../../../db/contracts/screening";
import { DateTime } from "../../components/app/date-time";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import { Textarea } from "../../components/ui/textarea";
import type { TApi } from "../../lib/api";
import { formatDate } from "../../lib/format";
import { cn } from "../../lib/utils";
import { ReviewBadge, ScreeningStatus } from "./screening-status";

/**
 * One sentence that says where the party stands: what matched, on which list and how closely when it
 * failed; pending and review due as such (never as passed).
 */
function headline(
  state: TContactScreeningState | undefined,
  result: TContactScreening | undefined,
  isError: boolean,
  clearedBy?: string,
): string {
  const best = result?.matches[0];
  if (state === "failed") {
    if (!best) return "Screening FAILED. Do not trade with this party until someone has reviewed it.";
    const as = best.matched_name && best.matched_name !== best.name ? ` (as “${best.matched_name}”)` : "";
    return `Screening FAILED: matches ${best.name}${as} on ${best.source_list}, score ${best.score.toFixed(3)}. Do not trade with this party until someone has reviewed it.`;
  }
  if (state === "review_due")
    return `Review due: whitelisted until ${formatDate(result?.review_date ?? "")}. It still passes; decide again.`;
  if (state === "passed") {
    // An override says who cleared it and why; the matches stay listed below as cleared.
    if (result?.override_of_id)
      return `Cleared by ${clearedBy ?? "a team member"} on ${formatDate(result.created_at)}: ${result.note ?? ""}`;
    return "Screening PASSED: no list entry close enough.";
  }
  if (state === "pending" || isError)
    return "Screening PENDING: not yet screened for the current name and address. Not cleared until it is.";
  return "Loading the screening…";
}

type TTrade = { item: TContactScreening; lists: { source: string; version_date: string }[] };

/**
 * A party's screening (spec: the screening switch): its status, 'Multiple results found!', a link
 * to the search on failure, the matches that explain it, and a manual override (PASSED/FAILED, the
 * active one matching the status) that needs a note. 'Load error.' retries on click.
 */
export function ScreeningSwitch({
  api,
  contactId,
  title = "Restricted-party screening",
  initialState,
  className = "mb-6",
}: {
  api: TApi;
  contactId: number;
  title?: string;
  /** The state the record came with (shown until the current result has loaded). */
  initialState?: TContactScreeningState;
  className?: string;
}) {
  // Overrides are the compliance role's (the server refuses them to others anyway).
  const { user } = useRouteContext({ from: "__root__" });
  const mayRelease = !user?.roles || user.roles.includes("compliance");
  const [trade, setTrade] = useState<TTrade>();
  const [isError, setIsError] = useState(false);
  const [pending, setPending] = useState<"passed" | "failed">();
  const [note, setNote] = useState("");
  const [reviewDate, setReviewDate] = useState("");
  const [isSaving, setIsSaving] = useState(false);

  const load = useCallback(async () => {
    setIsError(false);
    try {
      setTrade(await api.get<TTrade>(`/screenings/trade?itemId=${contactId}`));
    } catch {
      setIsError(true);
    }
  }, [api, contactId]);
  useEffect(() => {
    void load();
  }, [load]);
  // Who cleared an override: the workspace's user list names them.
  const [users, setUsers] = useState<{ id: number; label: string }[]>([]);
  const overriddenBy = trade?.item.override_of_id ? trade.item.user_id : null;
  useEffect(() => {
    if (!overriddenBy) return;
    api
      .get<{ data: { users?: { id: number; label: string }[] } }>("/dictionary?dropdown_values[]=users")
      .then((answer) => setUsers(answer.data.users ?? []))
      .catch(() => undefined);
  }, [api, overriddenBy]);
  const clearedBy = users.find((u) => u.id === overriddenBy)?.label;

  const override = async () => {
    if (!trade || !pending) return;
    setIsSaving(true);
    try {
      const item = await api.send<TContactScreening>("POST", "/screenings/override", {
        id: trade.item.id,
        status: pending,
        note,
        ...(pending === "passed" && reviewDate ? { review_date: reviewDate } : {}),
      });
      setTrade({ ...trade, item });
      toast.success(`Screening set to ${pending.toUpperCase()}`);
      setPending(undefined);
      setNote("");
      setReviewDate("");
    } catch (error) {
      toast.error("Manual screening override failed.", {
        description: (error as Error).message || "Failed to do manual override",
      });
    } finally {
      setIsSaving(false);
    }
  };

  const result = trade?.item;
  // What the page knows before the result arrives (the record's state from the server), and after.
  const state: TContactScreeningState | undefined = result
    ? contactScreeningState(false, result)
    : initialState;
  const best = result?.matches[0];
  const isCleared = Boolean(result?.override_of_id) && result?.status === "passed";
  const tone =
    state === "failed"
      ? "border-destructive/60 bg-red-50"
      : state === "review_due"
        ? "border-orange-300 bg-orange-50"
        : state === "pending" || (!result && !isError)
          ? "border-dashed"
          : "";
  return (
    <Card
      className={cn("gap-4", className, tone)}
      aria-label={title}
      data-screening-state={state ?? "loading"}
    >
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2">
            {state === "failed" ? (
              <ShieldAlertIcon aria-hidden className="size-5 text-destructive" />
            ) : state === "passed" ? (
              <ShieldCheckIcon aria-hidden className="size-5 text-emerald-600" />
            ) : state === "review_due" ? (
              <ClockIcon aria-hidden className="size-5 text-orange-700" />
            ) : (
              <HourglassIcon aria-hidden className="size-5 text-muted-foreground" />
            )}
            {title}
          </h2>
        </CardTitle>
        <p className="text-sm font-medium" data-testid="screening-headline">
          {headline(state, result, isError, clearedBy)}
        </p>
        {trade && (
          <CardDescription>
            Screened <DateTime value={result?.created_at} /> against{" "}
            {trade.lists.map((l) => `${l.source} (${l.version_date})`).join(", ")}
          </CardDescription>
        )}
      </CardHeader>
      <CardContent className="space-y-3">
        {isError ? (
          <button
            type="button"
            className="text-sm font-medium text-destructive underline"
            onClick={() => void load()}
          >
            Load error.
          </button>
        ) : !result ? (
          <Spinner />
        ) : (
          <>
            <div className="flex flex-wrap items-center gap-3">
              <ScreeningStatus status={result.status} />
              <span className="text-sm text-muted-foreground">best score {result.best_score.toFixed(3)}</span>
              {result.multiple &&
                (isCleared ? (
                  <span className="text-sm text-muted-foreground">Multiple results found (cleared)</span>
                ) : (
                  <span className="text-sm font-medium text-destructive">Multiple results found!</span>
                ))}
              {result.status === "passed" && <ReviewBadge reviewDate={result.review_date} />}
              {result.status === "failed" && (
                <Link
                  to="/restricted-party-screening/search"
                  search={{ name: result.name }}
                  className="text-sm font-medium text-primary underline underline-offset-4"
                >
                  See the results
                </Link>
              )}
              <Link
                to="/restricted-party-screening/history/$contactId"
                params={{ contactId }}
                className="text-sm text-primary underline-offset-4 hover:underline"
              >
                Screening history
              </Link>
            </div>
            {result.override_of_id && !isCleared && (
              <p className="text-sm">
                Manual override: <span className="italic">“{result.note}”</span>
              </p>
            )}
            {result.matches.length > 0 && (
              <ul
                className={cn("space-y-1 text-sm", isCleared && "text-muted-foreground")}
                aria-label={isCleared ? "List entries cleared by the override" : "Closest list entries"}
              >
                {result.matches.slice(0, 3).map((m) => (
                  <li key={`${m.source_list}:${m.source_id}`}>
                    <span className="font-medium">{m.name}</span>
                    {m.matched_name && m.matched_name !== m.name && <span> as “{m.matched_name}”</span>} —{" "}
                    {m.source_list}, score {m.score.toFixed(3)}
                    {isCleared && <span className="ml-1 rounded border px-1 text-xs">cleared</span>}
                    {m.programs.length > 0 && (
                      <span className="text-muted-foreground"> ({m.programs.join(", ")})</span>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {!mayRelease ? (
              <p className="text-sm text-muted-foreground">
                A member with the Compliance role decides manual overrides.
              </p>
            ) : (
              <fieldset className="flex flex-wrap items-center gap-2">
                <legend className="float-left mr-1 text-sm text-muted-foreground">Manual override:</legend>
                {(["passed", "failed"] as const).map((status) => (
                  <Button
                    key={status}
                    type="button"
                    size="sm"
                    variant={
                      result.status === status ? (status === "failed" ? "destructive" : "default") : "outline"
                    }
                    aria-pressed={result.status === status}
                    onClick={() => result.status !== status && setPending(status)}
                  >
                    {status.toUpperCase()}
                  </Button>
                ))}
                {best && state === "failed" && (
                  <span className="text-sm text-muted-foreground">
                    Not {best.name}? Choose PASSED and say why.
                  </span>
                )}
              </fieldset>
            )}
          </>
        )}
      </CardContent>
      <Dialog open={Boolean(pending)} onOpenChange={(open) => !open && setPending(undefined)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Override to {pending?.toUpperCase()}</DialogTitle>
            <DialogDescription>
              Say why. The decision, your name and the time are kept in the screening audit log.
            </DialogDescription>
          </DialogHeader>
          <div className="space-y-2">
            <Label htmlFor="override-note">Note</Label>
            <Textarea id="override-note" value={note} onChange={(e) => setNote(e.target.value)} />
          </div>
          {pending === "passed" && (
            <div className="space-y-2">
              <Label htmlFor="override-review-date">Review date (optional)</Label>
              <Input
                id="override-review-date"
                type="date"
                value={reviewDate}
                min={new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}
                onChange={(e) => setReviewDate(e.target.value)}
                aria-describedby="override-review-help"
              />
              <p id="override-review-help" className="text-sm text-muted-foreground">
                From this day the contact shows 'Review due' (it stays passed) until someone decides again.
              </p>
            </div>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={() => setPending(undefined)}>
              Cancel
            </Button>
            <Button disabled={!note.trim() || isSaving} onClick={() => void override()}>
              {isSaving && <Spinner />}
              Ok.
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
