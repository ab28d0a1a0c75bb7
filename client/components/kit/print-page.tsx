import { useRouter } from "@tanstack/react-router";
import { type ReactNode, useEffect } from "react";
import type { TDictionary } from "../../../db/contracts/dictionary";
import { labelOf } from "../../lib/dictionaries";
import { formatMoney, formatNumber } from "../../lib/format";
import { PageHeader } from "../app/screens";
import { Button } from "../ui/button";
import type { TEntityScreen } from "./entity-config";

/** The spec opens the print dialog 200 ms after the page loads. */
export const PRINT_DELAY_MS = 200;

/**
 * The record's editable fields as label/value rows: booleans Yes/No, empty strings N/A, related
 * records by their name (the id kept in data-id). Opens the print dialog after 200 ms.
 */
export function PrintPage<T extends { id: number }>({
  screen,
  item,
  dictionaries,
  children,
}: {
  screen: TEntityScreen<T>;
  item: T;
  dictionaries: TDictionary;
  /** Printed under the rows (e.g. a shipment's item and package tables). */
  children?: ReactNode;
}) {
  const router = useRouter();
  useEffect(() => {
    const timer = setTimeout(() => window.print(), PRINT_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  const record = item as unknown as Record<string, unknown>;
  return (
    <section className="max-w-4xl">
      <PageHeader title={`${screen.editTitle.replace(/^Edit /, "")} #${item.id}`}>
        <div className="flex gap-2" data-print-hide>
          <Button variant="outline" onClick={() => router.history.back()}>
            Back
          </Button>
          <Button onClick={() => window.print()}>Print</Button>
        </div>
      </PageHeader>
      <dl className="divide-y rounded-lg border bg-card text-sm">
        {screen.fields.map((config) => {
          const raw = record[config.name];
          let shown: string;
          if (config.format) shown = config.format(raw, record);
          else if (config.kind === "checkbox") shown = raw === true || raw === 1 ? "Yes" : "No";
          else if (config.kind === "select")
            shown = labelOf(config.dictionary ? dictionaries[config.dictionary] : undefined, raw);
          else if (config.kind === "money") shown = formatMoney(raw as string);
          else if (config.kind === "number") shown = formatNumber(raw as string);
          else shown = raw === null || raw === undefined ? "" : String(raw);
          return (
            <div
              key={`${config.name}:${config.label}`}
              className="grid grid-cols-3 gap-4 px-4 py-2"
              data-field={config.name}
            >
              <dt className="font-medium text-muted-foreground">{config.label}</dt>
              <dd
                className="col-span-2 whitespace-pre-wrap"
                data-id={config.kind === "select" ? String(raw ?? "") : undefined}
              >
                {shown === "" ? "N/A" : shown}
              </dd>
            </div>
          );
        })}
      </dl>
      {children}
    </section>
  );
}
