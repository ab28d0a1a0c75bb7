import { AlertTriangleIcon, CheckCircle2Icon, ShieldAlertIcon } from "lucide-react";
import { useEffect, useState } from "react";
import {
  AES_MESSAGE,
  DESTINATION_CONTROL_STATEMENT,
  hasDestinationControlStatement,
  ITN,
  NOEEI_LEGENDS,
} from "../../../db/contracts/paperwork";
import { REASON_FOR_EXPORT_LABELS, REASONS_FOR_EXPORT } from "../../../db/contracts/shipments";
import { Alert, AlertDescription, AlertTitle } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { NativeSelect, NativeSelectOption } from "../../components/ui/native-select";
import { Textarea } from "../../components/ui/textarea";
import type { TApi } from "../../lib/api";
import { formatDate } from "../../lib/format";

/** GET /api/paperwork/shipments/{id} (server/features/paperwork/paperwork.readiness.ts, TPaperworkReadiness). */
type TReadiness = {
  missing: Record<string, string[]>;
  parties: {
    field: string;
    label: string;
    contact_id: number;
    company: string;
    status: string | null;
    cleared: boolean;
  }[];
  blocked: boolean;
  licences: {
    item_id: number;
    product_number: string;
    needs_license: boolean;
    license: { reference_number_1: string; licence_name: string } | null;
    message: string;
  }[];
  aes: { kind: "exempt" | "itn_required"; suggestion: string | null; message: string };
  dcs_required: boolean;
  proforma_valid_until: string | null;
  paper_size: "letter" | "a4";
};

export type TPaperworkValues = {
  aes_citation: string;
  proforma_valid_until: string;
  preview_statement_text: string;
  invoice_date: string;
  reason_for_export: string;
  incoterm_place: string;
  marks_and_numbers: string;
};

const FIELD_LABELS: Record<string, string> = {
  name: "Shipment name",
  exporter_of_record_id: "Exporter of record",
  importer_of_record_id: "Importer of record",
  items: "Items",
  total_value: "Total value",
  currency_id: "Currency",
  incoterm_id: "Incoterm",
  packages: "Packages",
  proforma_valid_until: "Proforma 'valid until'",
};

/** The AES/EEI citation as typed: an ITN (X + 14 digits), a listed NOEEI legend, or nothing. */
function isValidCitation(value: string): boolean {
  const v = value.trim();
  return v === "" || ITN.test(v.toUpperCase()) || (NOEEI_LEGENDS as readonly string[]).includes(v);
}

/**
 * Step 5's compliance view: the screening gate, what is still missing, each line's licence, the
 * AES/EEI citation with its suggestion, the proforma's validity and the statement block with the
 * Destination Control Statement. Reloads whenever the shipment was saved (`version`).
 */
export function PaperworkPanel({
  api,
  shipmentId,
  version,
  values,
  onChange,
}: {
  api: TApi;
  shipmentId: number;
  version: string;
  values: TPaperworkValues;
  onChange: (name: keyof TPaperworkValues, value: string) => void;
}) {
  const [readiness, setReadiness] = useState<TReadiness | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the reload trigger.
  useEffect(() => {
    let isCurrent = true;
    api
      .get<TReadiness>(`/paperwork/shipments/${shipmentId}`)
      .then((answer) => {
        if (!isCurrent) return;
        setReadiness(answer);
        setLoadError(null);
      })
      .catch((error: Error) => isCurrent && setLoadError(error.message));
    return () => {
      isCurrent = false;
    };
  }, [api, shipmentId, version]);

  // Pre-fill the statement with the DCS once the lines need it and nothing was written yet.
  const needsDcs = readiness?.dcs_required ?? false;
  useEffect(() => {
    if (needsDcs && values.preview_statement_text.trim() === "") {
      onChange("preview_statement_text", DESTINATION_CONTROL_STATEMENT);
    }
  }, [needsDcs, values.preview_statement_text, onChange]);

  const isDcsRemoved = needsDcs && !hasDestinationControlStatement(values.preview_statement_text);
  const isCitationValid = isValidCitation(values.aes_citation);
  const missing = Object.keys(readiness?.missing ?? {});

  return (
    <div className="mb-6 space-y-5" data-testid="paperwork-panel">
      {loadError && <p className="text-sm text-destructive">Could not check the paperwork: {loadError}</p>}
      {!readiness && !loadError && <p className="text-sm text-muted-foreground">Checking the paperwork…</p>}
      {readiness?.blocked && (
        <Alert variant="destructive" data-testid="screening-gate">
          <ShieldAlertIcon aria-hidden />
          <AlertTitle>Paperwork is blocked by restricted-party screening</AlertTitle>
          <AlertDescription>
            <div className="space-y-1 text-red-800">
              <p>Every party must be cleared on the screening screen before documents can be generated:</p>
              <ul className="list-disc pl-5">
                {readiness.parties
                  .filter((p) => !p.cleared)
                  .map((p) => (
                    <li key={p.field}>
                      {p.label} {p.company}: {p.status === "failed" ? "FAILED screening" : "not screened yet"}
                    </li>
                  ))}
              </ul>
              <a className="font-medium text-red-800 underline" href="/restricted-party-screening">
                Open the screening screen
              </a>
            </div>
          </AlertDescription>
        </Alert>
      )}
      {readiness && missing.length > 0 && (
        <Alert>
          <AlertTriangleIcon aria-hidden />
          <AlertTitle>Still needed for the documents</AlertTitle>
          <AlertDescription>{missing.map((key) => FIELD_LABELS[key] ?? key).join(", ")}</AlertDescription>
        </Alert>
      )}

      {readiness && readiness.licences.length > 0 && (
        <section aria-labelledby="licence-heading" className="space-y-2">
          <h3 id="licence-heading" className="text-sm font-semibold">
            Export licences per line
          </h3>
          <ul className="divide-y rounded-md border text-sm">
            {readiness.licences.map((line) => {
              const isMissing = line.needs_license && !line.license;
              return (
                <li key={line.item_id} className="flex items-start gap-2 px-3 py-2">
                  {isMissing ? (
                    <AlertTriangleIcon className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
                  ) : (
                    <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
                  )}
                  <span>
                    <strong>{line.product_number}</strong>: {line.message}
                    {isMissing &&
                      " The paperwork is refused until the line is covered (see Export control under step 2)."}
                  </span>
                </li>
              );
            })}
          </ul>
        </section>
      )}

      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="aes_citation">AES / EEI filing citation</Label>
          <Input
            id="aes_citation"
            list="noeei-legends"
            value={values.aes_citation}
            placeholder="X20261120123456 or NOEEI § 30.37(a)"
            aria-invalid={!isCitationValid}
            aria-describedby="aes-help"
            onChange={(e) => onChange("aes_citation", e.target.value)}
          />
          <datalist id="noeei-legends">
            {NOEEI_LEGENDS.map((legend) => (
              <option key={legend} value={legend} />
            ))}
          </datalist>
          <div id="aes-help" className="space-y-1 text-sm">
            {!isCitationValid && <p className="text-destructive">{AES_MESSAGE}</p>}
            {readiness && <p className="text-muted-foreground">{readiness.aes.message}</p>}
            {readiness?.aes.suggestion && values.aes_citation !== readiness.aes.suggestion && (
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => onChange("aes_citation", readiness.aes.suggestion ?? "")}
              >
                Use {readiness.aes.suggestion}
              </Button>
            )}
          </div>
        </div>
        <div className="space-y-2">
          <Label htmlFor="proforma_valid_until">Proforma valid until</Label>
          <Input
            id="proforma_valid_until"
            type="date"
            value={values.proforma_valid_until}
            aria-describedby="valid-until-help"
            onChange={(e) => onChange("proforma_valid_until", e.target.value)}
          />
          <p id="valid-until-help" className="text-sm text-muted-foreground">
            {values.proforma_valid_until
              ? `Valid until ${formatDate(values.proforma_valid_until)}.`
              : readiness?.proforma_valid_until
                ? `Empty: ${formatDate(readiness.proforma_valid_until)} (ship date + 30 days).`
                : "Empty: ship date + 30 days."}
          </p>
        </div>
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="invoice_date">Invoice date</Label>
          <Input
            id="invoice_date"
            type="date"
            value={values.invoice_date}
            aria-describedby="invoice-date-help"
            onChange={(e) => onChange("invoice_date", e.target.value)}
          />
          <p id="invoice-date-help" className="text-sm text-muted-foreground">
            {values.invoice_date ? "" : "Empty: the day the documents are generated."}
          </p>
        </div>
        <div className="space-y-2">
          <Label htmlFor="reason_for_export">Reason for export</Label>
          <NativeSelect
            id="reason_for_export"
            wrapperClassName="w-full"
            value={values.reason_for_export}
            onChange={(e) => onChange("reason_for_export", e.target.value)}
          >
            <NativeSelectOption value="">Not stated</NativeSelectOption>
            {REASONS_FOR_EXPORT.map((reason) => (
              <NativeSelectOption key={reason} value={reason}>
                {REASON_FOR_EXPORT_LABELS[reason]}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <div className="space-y-2">
          <Label htmlFor="incoterm_place">Incoterm named place</Label>
          <Input
            id="incoterm_place"
            value={values.incoterm_place}
            maxLength={128}
            aria-describedby="incoterm-place-help"
            onChange={(e) => onChange("incoterm_place", e.target.value)}
          />
          <p id="incoterm-place-help" className="text-sm text-muted-foreground">
            Empty: the port of export (E/F terms) or of import (C/D terms).
          </p>
        </div>
        <div className="space-y-2">
          <Label htmlFor="marks_and_numbers">Marks and numbers</Label>
          <Textarea
            id="marks_and_numbers"
            rows={2}
            maxLength={1000}
            value={values.marks_and_numbers}
            aria-describedby="marks-help"
            onChange={(e) => onChange("marks_and_numbers", e.target.value)}
          />
          <p id="marks-help" className="text-sm text-muted-foreground">
            Empty: consignee, destination, reference and package numbers.
          </p>
        </div>
      </div>

      <div className="space-y-2">
        <Label htmlFor="preview_statement_text">Statement printed on the invoice</Label>
        <Textarea
          id="preview_statement_text"
          rows={5}
          value={values.preview_statement_text}
          aria-describedby={isDcsRemoved ? "dcs-note" : undefined}
          onChange={(e) => onChange("preview_statement_text", e.target.value)}
        />
        {isDcsRemoved && (
          <p id="dcs-note" className="text-sm text-amber-700" data-testid="dcs-note">
            Required wording removed: items on the Commerce Control List need the Destination Control
            Statement (15 CFR 758.6). It will still be printed on the invoice.{" "}
            <button
              type="button"
              className="underline"
              onClick={() =>
                onChange(
                  "preview_statement_text",
                  `${DESTINATION_CONTROL_STATEMENT}\n${values.preview_statement_text}`.trim(),
                )
              }
            >
              Put it back
            </button>
          </p>
        )}
      </div>
    </div>
  );
}
