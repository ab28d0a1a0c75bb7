import { useEffect, useState } from "react";
import { toast } from "sonner";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import type { TApi } from "../../lib/api";
import { useRoles } from "../../lib/roles";

type TEdition = {
  edition_date: string;
  source: string;
  is_shipped: boolean;
  counts: Record<string, number>;
  loaded_at: string;
  loaded_by_email: string;
};

const FILES = [
  ["country_chart", "country-chart.csv"],
  ["country_groups", "country-groups.csv"],
  ["ccl_eccns", "ccl-eccns.csv"],
  ["chart_footnotes", "country-chart-footnotes.csv"],
] as const;

/**
 * The EAR tables' edition in force for the workspace, and (for its owner) loading a newer edition
 * of the same four CSV files. Determinations change with the edition, without a release.
 */
export function EarEditionCard({ api }: { api: TApi }) {
  // Loading an edition is the admin's.
  const isAdmin = useRoles().can("admin");
  const [edition, setEdition] = useState<TEdition | null>(null);
  const [date, setDate] = useState("");
  const [files, setFiles] = useState<Partial<Record<(typeof FILES)[number][0], File>>>({});
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  useEffect(() => {
    api
      .get<TEdition>("/export-control/edition")
      .then(setEdition)
      .catch((e: Error) => setError(e.message));
  }, [api]);

  const load = async () => {
    setIsBusy(true);
    setError(null);
    try {
      const texts = Object.fromEntries(
        await Promise.all(FILES.map(async ([key]) => [key, (await files[key]?.text()) ?? ""] as const)),
      );
      await api.send("POST", "/export-control/editions", { edition_date: date, files: texts });
      setEdition(await api.get<TEdition>("/export-control/edition"));
      toast.success(`EAR tables of ${date} loaded`);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>EAR tables</CardTitle>
        <CardDescription>
          The Commerce Country Chart, Country Groups and CCL data every export-control determination reads.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        {edition && (
          <p data-testid="ear-edition">
            Edition in force: <strong>{edition.edition_date}</strong>{" "}
            {edition.is_shipped ? "(shipped with the product)" : `(loaded by ${edition.loaded_by_email})`} —{" "}
            {edition.counts.eccns} ECCNs, {edition.counts.chart} chart rows.
          </p>
        )}
        {isAdmin && (
          <details>
            <summary className="cursor-pointer">Load a newer edition</summary>
            <div className="mt-3 grid gap-3 sm:grid-cols-2">
              <div className="space-y-1">
                <Label htmlFor="ear-edition-date">Edition date (eCFR issue)</Label>
                <Input
                  id="ear-edition-date"
                  type="date"
                  value={date}
                  onChange={(e) => setDate(e.target.value)}
                />
              </div>
              {FILES.map(([key, name]) => (
                <div key={key} className="space-y-1">
                  <Label htmlFor={`ear-${key}`}>{name}</Label>
                  <Input
                    id={`ear-${key}`}
                    type="file"
                    accept=".csv,text/csv"
                    onChange={(e) => setFiles((f) => ({ ...f, [key]: e.target.files?.[0] }))}
                  />
                </div>
              ))}
            </div>
            {error && (
              <p role="alert" className="mt-2 text-destructive">
                {error}
              </p>
            )}
            <Button
              type="button"
              className="mt-3"
              disabled={isBusy || !date || FILES.some(([key]) => !files[key])}
              onClick={load}
            >
              {isBusy ? "Loading…" : "Load edition"}
            </Button>
          </details>
        )}
      </CardContent>
    </Card>
  );
}
