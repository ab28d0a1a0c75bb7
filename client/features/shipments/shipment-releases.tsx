import { ShieldCheckIcon } from "lucide-react";
import { useEffect, useState } from "react";
import type { TScreeningHistoryEntry } from "../../../db/contracts/screening";
import { DateTime } from "../../components/app/date-time";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Skeleton } from "../../components/ui/skeleton";
import type { TApi } from "../../lib/api";

type TEditor = { name: string; surname: string; email: string } | null | undefined;

/**
 * Who released the shipment's parties from screening (who asked, who released, when, the note) and who
 * saved the shipment last. Reloads whenever `version` (the stored shipment) changes.
 */
export function ShipmentReleases({
  api,
  shipmentId,
  version,
  lastEditor,
  lastSavedAt,
}: {
  api: TApi;
  shipmentId: number | null | undefined;
  version: string;
  lastEditor: TEditor;
  lastSavedAt: string | null | undefined;
}) {
  const [releases, setReleases] = useState<TScreeningHistoryEntry[]>();
  const [isError, setIsError] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the trigger to reload.
  useEffect(() => {
    if (!shipmentId) return;
    let isCurrent = true;
    setIsError(false);
    api
      .get<{ data: TScreeningHistoryEntry[] }>(`/screenings/shipment/${shipmentId}/releases`)
      .then((answer) => isCurrent && setReleases(answer.data))
      .catch(() => isCurrent && setIsError(true));
    return () => {
      isCurrent = false;
    };
  }, [api, shipmentId, version]);
  if (!shipmentId) return null;
  const editor = lastEditor ? `${lastEditor.name} ${lastEditor.surname}`.trim() || lastEditor.email : null;
  return (
    <Card aria-labelledby="shipment-releases-title">
      <CardHeader>
        <CardTitle>
          <h2 id="shipment-releases-title">Screening releases</h2>
        </CardTitle>
        <CardDescription>
          {editor ? (
            <>
              Last saved by {editor}
              {lastSavedAt && (
                <>
                  {" "}
                  on <DateTime value={lastSavedAt} />
                </>
              )}
              .
            </>
          ) : (
            "Who cleared this shipment's parties from screening."
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isError ? (
          <p className="text-sm text-destructive">The releases could not be loaded.</p>
        ) : !releases ? (
          <Skeleton className="h-10 w-full" />
        ) : releases.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No screening hit of its parties was released by hand.
          </p>
        ) : (
          <ul className="grid gap-3" data-testid="shipment-releases">
            {releases.map((release) => (
              <li key={release.id} className="flex gap-3 rounded-md border p-3 text-sm">
                <ShieldCheckIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
                <div className="grid gap-1">
                  <p>
                    <strong>{release.name}</strong> marked{" "}
                    {release.outcome === "passed" ? "PASSED" : "FAILED"} by {release.user} on{" "}
                    <DateTime value={release.created_at} />
                  </p>
                  {release.asked_by && release.asked_by.length > 0 && (
                    <p className="text-muted-foreground">
                      Asked by {release.asked_by.map((a) => `${a.name} (${a.as})`).join(", ")}
                    </p>
                  )}
                  {release.note && <p className="text-muted-foreground">Note: {release.note}</p>}
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
