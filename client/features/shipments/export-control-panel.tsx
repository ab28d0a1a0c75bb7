import { AlertTriangleIcon, BanIcon, CheckCircle2Icon, FileTextIcon, HelpCircleIcon } from "lucide-react";
import { useEffect, useState } from "react";
import {
  LICENSE_EXCEPTIONS,
  MIN_JUSTIFICATION,
  SCHEDULE_B_UNITS,
  type TDeterminationOutcome,
  type TLineExportControl,
  type TShipmentExportControl,
} from "../../../db/contracts/export-control";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { NativeSelect, NativeSelectOption } from "../../components/ui/native-select";
import { Textarea } from "../../components/ui/textarea";
import type { TApi } from "../../lib/api";

const OUTCOME: Record<
  TDeterminationOutcome,
  { label: string; variant: "default" | "destructive" | "orange" | "secondary" }
> = {
  nlr: { label: "No licence required", variant: "default" },
  license_required: { label: "Licence required", variant: "destructive" },
  review: { label: "Review needed", variant: "orange" },
  embargo: { label: "Embargoed destination", variant: "destructive" },
  unknown: { label: "Cannot decide yet", variant: "secondary" },
};

type TShipmentEei = {
  usd_exchange_rate: string;
  usd_exchange_rate_date: string | null;
  ultimate_consignee_type: string;
  related_party: string;
  routed_transaction: string;
  hazardous_materials: string;
};

/**
 * Export control per line, as the shipment is edited: what the EAR chart says for each line (in
 * words, with the reason and what to do), the licence, exception or override that covers it, and
 * whether EEI must be filed. Reloads whenever the form saved (`version`); its own changes are saved
 * through /api/export-control at once.
 */
export function ExportControlPanel({
  api,
  shipmentId,
  version,
  eei,
  onChanged,
}: {
  api: TApi;
  shipmentId: number;
  version: string;
  eei: TShipmentEei;
  /** Called after this panel stored a change, so the paperwork checks reload. */
  onChanged?: () => void;
}) {
  const [standing, setStanding] = useState<TShipmentExportControl | null>(null);
  const [error, setError] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the reload trigger.
  useEffect(() => {
    let isCurrent = true;
    api
      .get<TShipmentExportControl>(`/export-control/shipments/${shipmentId}`)
      .then((answer) => {
        if (!isCurrent) return;
        setStanding(answer);
        setError(null);
      })
      .catch((e: Error) => isCurrent && setError(e.message));
    return () => {
      isCurrent = false;
    };
  }, [api, shipmentId, version]);

  const saveLine = async (itemId: number, body: Record<string, unknown>) => {
    try {
      setStanding(
        await api.send<TShipmentExportControl>(
          "PUT",
          `/export-control/shipments/${shipmentId}/lines/${itemId}`,
          body,
        ),
      );
      setError(null);
      onChanged?.();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const saveEei = async (body: Record<string, unknown>) => {
    try {
      setStanding(
        await api.send<TShipmentExportControl>("PUT", `/export-control/shipments/${shipmentId}/eei`, body),
      );
      setError(null);
      onChanged?.();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <section aria-labelledby="export-control-heading" className="mt-6 space-y-4" data-testid="export-control">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="export-control-heading" className="text-base font-semibold">
          Export control
        </h3>
        {standing && (
          <span className="text-xs text-muted-foreground">
            EAR tables of {standing.edition.edition_date}
            {standing.destination ? ` · destination ${standing.destination.name}` : ""}
          </span>
        )}
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      {!standing && !error && (
        <p className="text-sm text-muted-foreground">Checking each line against the EAR…</p>
      )}
      {standing && standing.lines.length === 0 && (
        <p className="text-sm text-muted-foreground">Add items and save to see what each line needs.</p>
      )}
      {standing && standing.lines.length > 0 && (
        <ul className="divide-y rounded-md border" aria-label="Export control per line">
          {standing.lines.map((line) => (
            <LineStanding key={line.item_id} line={line} onSave={(body) => saveLine(line.item_id, body)} />
          ))}
        </ul>
      )}
      {standing && <EeiSection standing={standing} shipmentId={shipmentId} eei={eei} onSave={saveEei} />}
    </section>
  );
}

function OutcomeIcon({ line }: { line: TLineExportControl }) {
  const cls = "mt-0.5 size-4 shrink-0";
  if (line.determination.outcome === "embargo")
    return <BanIcon className={`${cls} text-destructive`} aria-hidden />;
  if (line.is_cleared) return <CheckCircle2Icon className={`${cls} text-emerald-600`} aria-hidden />;
  if (line.determination.outcome === "unknown")
    return <HelpCircleIcon className={`${cls} text-muted-foreground`} aria-hidden />;
  return <AlertTriangleIcon className={`${cls} text-amber-600`} aria-hidden />;
}

function LineStanding({
  line,
  onSave,
}: {
  line: TLineExportControl;
  onSave: (body: Record<string, unknown>) => void;
}) {
  const d = line.determination;
  const outcome = OUTCOME[d.outcome];
  const [justification, setJustification] = useState(line.stored.override_justification);
  const [note, setNote] = useState(line.stored.license_exception_note);
  const [scheduleB, setScheduleB] = useState(line.stored.schedule_b);
  const [scheduleBQuantity, setScheduleBQuantity] = useState(line.stored.schedule_b_quantity);
  const scheduleBUnit = line.stored.schedule_b_unit || "NO";
  const name = line.product_number;
  const licenceOptions = [
    ...line.license_candidates,
    ...(line.license && !line.license_candidates.some((c) => c.id === line.license?.id)
      ? [{ id: line.license.id, number: line.license.number, name: line.license.name, remaining: null }]
      : []),
  ];
  const coveredText =
    line.basis.kind === "license"
      ? `Covered by licence ${line.basis.text}.`
      : line.basis.kind === "exception"
        ? `Shipped under licence exception ${line.basis.text}.`
        : line.basis.kind === "override"
          ? "Overridden with a written justification (recorded in the audit trail)."
          : null;
  const canChoose = d.outcome === "license_required" || d.outcome === "review";
  return (
    <li className="space-y-3 px-3 py-3 text-sm" data-testid={`export-line-${name}`}>
      <div className="flex items-start gap-2">
        <OutcomeIcon line={line} />
        <div className="min-w-0 flex-1 space-y-1">
          <p className="flex flex-wrap items-center gap-2">
            <strong>{name}</strong>
            <span className="text-muted-foreground">{d.eccn || "no ECCN"}</span>
            <Badge
              variant={line.is_cleared && d.outcome !== "nlr" ? "default" : outcome.variant}
              data-testid="outcome"
            >
              {line.is_cleared && d.outcome !== "nlr" ? "Covered" : outcome.label}
            </Badge>
            {line.basis.text && <Badge variant="secondary">Basis: {line.basis.text}</Badge>}
          </p>
          <p>{d.summary}</p>
          {coveredText && <p className="text-emerald-700">{coveredText}</p>}
          {!line.is_cleared && d.next_step && <p className="text-muted-foreground">Next: {d.next_step}</p>}
          {line.problem && <p className="text-destructive">{line.problem}</p>}
          {line.warnings.length > 0 && (
            <details>
              <summary className="cursor-pointer text-muted-foreground">
                {line.warnings.length} note{line.warnings.length > 1 ? "s" : ""} to read
              </summary>
              <ul className="mt-1 list-disc space-y-1 pl-5 text-xs">
                {line.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </details>
          )}
        </div>
      </div>
      {canChoose && d.outcome !== "unknown" && (
        <div className="grid gap-3 pl-6 sm:grid-cols-2">
          <div className="space-y-1">
            <Label htmlFor={`licence-${line.item_id}`}>Licence for {name}</Label>
            <NativeSelect
              id={`licence-${line.item_id}`}
              value={line.license ? String(line.license.id) : ""}
              onChange={(e) => onSave({ license_id: e.target.value ? Number(e.target.value) : null })}
            >
              <NativeSelectOption value="">
                {licenceOptions.length ? "Choose a licence…" : "No licence covers this line"}
              </NativeSelectOption>
              {licenceOptions.map((l) => (
                <NativeSelectOption key={l.id} value={String(l.id)}>
                  {l.number} — {l.name}
                  {l.remaining !== null ? ` ($${l.remaining} left)` : ""}
                </NativeSelectOption>
              ))}
            </NativeSelect>
            {line.license && !line.license.covers && (
              <p className="text-xs text-destructive">Does not cover: {line.license.problem}</p>
            )}
          </div>
          <div className="space-y-1">
            <Label htmlFor={`exception-${line.item_id}`}>Licence exception for {name}</Label>
            <NativeSelect
              id={`exception-${line.item_id}`}
              value={line.stored.license_exception}
              onChange={(e) => onSave({ license_exception: e.target.value, license_exception_note: note })}
            >
              <NativeSelectOption value="">None</NativeSelectOption>
              {(line.stored.license_exception === "LVS" || line.stored.license_exception === "GBS") &&
                !d.exceptions_offered.some((o) => o.symbol === line.stored.license_exception) && (
                  <NativeSelectOption value={line.stored.license_exception}>
                    {line.stored.license_exception} (not available for this line)
                  </NativeSelectOption>
                )}
              {d.exceptions_offered.map((o) => (
                <NativeSelectOption key={o.symbol} value={o.symbol}>
                  {o.symbol} (offered)
                </NativeSelectOption>
              ))}
              {LICENSE_EXCEPTIONS.filter(
                (s) => !d.exceptions_offered.some((o) => o.symbol === s) && s !== "LVS" && s !== "GBS",
              ).map((s) => (
                <NativeSelectOption key={s} value={s}>
                  {s} (needs a note)
                </NativeSelectOption>
              ))}
            </NativeSelect>
            <Input
              aria-label={`Exception note for ${name}`}
              placeholder="Why this exception applies (for TMP, ENC, …)"
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
          </div>
          <div className="space-y-1 sm:col-span-2">
            <Label htmlFor={`override-${line.item_id}`}>Override for {name} (written justification)</Label>
            <Textarea
              id={`override-${line.item_id}`}
              rows={2}
              value={justification}
              placeholder={`Why no licence is needed (at least ${MIN_JUSTIFICATION} characters); recorded with your name and the time.`}
              onChange={(e) => setJustification(e.target.value)}
            />
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={
                justification.trim().length < MIN_JUSTIFICATION ||
                justification.trim() === line.stored.override_justification
              }
              onClick={() => onSave({ override_justification: justification })}
            >
              Record override
            </Button>
            {line.stored.override_justification && (
              <Button
                type="button"
                variant="ghost"
                size="sm"
                onClick={() => {
                  setJustification("");
                  onSave({ override_justification: "" });
                }}
              >
                Withdraw override
              </Button>
            )}
          </div>
        </div>
      )}
      <div className="flex flex-wrap items-end gap-2 pl-6">
        <div className="space-y-1">
          <Label htmlFor={`schedule-b-${line.item_id}`}>Schedule B for {name}</Label>
          <Input
            id={`schedule-b-${line.item_id}`}
            className="w-56"
            inputMode="numeric"
            placeholder="10 digits, e.g. 8471.30.0100"
            value={scheduleB}
            onChange={(e) => setScheduleB(e.target.value)}
            onBlur={() => scheduleB !== line.stored.schedule_b && onSave({ schedule_b: scheduleB })}
          />
        </div>
        <div className="space-y-1">
          <Label htmlFor={`schedule-b-unit-${line.item_id}`}>Schedule B unit for {name}</Label>
          <NativeSelect
            id={`schedule-b-unit-${line.item_id}`}
            className="w-32"
            value={scheduleBUnit}
            onChange={(e) => onSave({ schedule_b_unit: e.target.value })}
          >
            {SCHEDULE_B_UNITS.map((u) => (
              <NativeSelectOption key={u} value={u}>
                {u === "X" ? "X (no quantity)" : u}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        {scheduleBUnit !== "X" && (
          <div className="space-y-1">
            <Label htmlFor={`schedule-b-quantity-${line.item_id}`}>
              Quantity in {scheduleBUnit} for {name}
            </Label>
            <Input
              id={`schedule-b-quantity-${line.item_id}`}
              className="w-40"
              inputMode="decimal"
              placeholder={scheduleBUnit === "NO" ? "the piece count" : "required, e.g. 12.5"}
              value={scheduleBQuantity}
              onChange={(e) => setScheduleBQuantity(e.target.value)}
              onBlur={() =>
                scheduleBQuantity !== line.stored.schedule_b_quantity &&
                onSave({ schedule_b_quantity: scheduleBQuantity })
              }
            />
          </div>
        )}
      </div>
      <p className="pl-6 text-xs text-muted-foreground">
        The EEI reports the quantity in the unit Schedule B gives for the number (§ 30.6(a)(14)); NO with the
        piece count is assumed until you state another.
      </p>
    </li>
  );
}

const YES_NO = [
  { value: "", label: "Not answered" },
  { value: "Y", label: "Yes" },
  { value: "N", label: "No" },
];

function EeiSection({
  standing,
  shipmentId,
  eei,
  onSave,
}: {
  standing: TShipmentExportControl;
  shipmentId: number;
  eei: TShipmentEei;
  onSave: (body: Record<string, unknown>) => void;
}) {
  const [rate, setRate] = useState(eei.usd_exchange_rate);
  const [rateDate, setRateDate] = useState(eei.usd_exchange_rate_date ?? "");
  const verdict = standing.eei;
  const base = `/api/export-control/shipments/${shipmentId}`;
  return (
    <div className="space-y-3 rounded-md border p-3 text-sm" data-testid="eei">
      <p className="font-medium">
        {verdict.itn_required
          ? "EEI must be filed in AESDirect and the ITN entered below."
          : verdict.exemption
            ? `No EEI filing needed: ${verdict.exemption} will be printed.`
            : "Add items to judge EEI."}
      </p>
      {verdict.reasons.length > 0 && (
        <ul className="list-disc space-y-1 pl-5">
          {verdict.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
      {verdict.problem && <p className="text-destructive">{verdict.problem}</p>}
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="space-y-1">
          <Label htmlFor="usd_exchange_rate">USD exchange rate (US$ per 1 unit)</Label>
          <Input
            id="usd_exchange_rate"
            inputMode="decimal"
            placeholder="e.g. 1.0845 (USD: 1)"
            value={rate}
            onChange={(e) => setRate(e.target.value)}
            onBlur={() => rate !== eei.usd_exchange_rate && onSave({ usd_exchange_rate: rate })}
          />
        </div>
        <div className="space-y-1">
          <Label htmlFor="usd_exchange_rate_date">Exchange rate date</Label>
          <Input
            id="usd_exchange_rate_date"
            type="date"
            value={rateDate}
            onChange={(e) => {
              setRateDate(e.target.value);
              onSave({ usd_exchange_rate_date: e.target.value || null });
            }}
          />
        </div>
        <div className="space-y-1">
          <Label htmlFor="ultimate_consignee_type">EEI consignee type</Label>
          <NativeSelect
            id="ultimate_consignee_type"
            defaultValue={eei.ultimate_consignee_type}
            onChange={(e) => onSave({ ultimate_consignee_type: e.target.value })}
          >
            <NativeSelectOption value="">Not answered</NativeSelectOption>
            <NativeSelectOption value="D">D — direct consumer</NativeSelectOption>
            <NativeSelectOption value="G">G — government entity</NativeSelectOption>
            <NativeSelectOption value="R">R — reseller</NativeSelectOption>
            <NativeSelectOption value="O">O — other / unknown</NativeSelectOption>
          </NativeSelect>
        </div>
        {(
          [
            ["related_party", "EEI related party"],
            ["routed_transaction", "EEI routed export transaction"],
            ["hazardous_materials", "EEI hazardous materials"],
          ] as const
        ).map(([key, label]) => (
          <div key={key} className="space-y-1">
            <Label htmlFor={key}>{label}</Label>
            <NativeSelect
              id={key}
              defaultValue={eei[key]}
              onChange={(e) => onSave({ [key]: e.target.value })}
            >
              {YES_NO.map((o) => (
                <NativeSelectOption key={o.value} value={o.value}>
                  {o.label}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
        ))}
      </div>
      <p className="flex flex-wrap items-center gap-3">
        <FileTextIcon className="size-4" aria-hidden />
        <a className="underline" href={`${base}/eei-data-sheet.pdf`} target="_blank" rel="noreferrer">
          EEI data sheet (PDF)
        </a>
        <a className="underline" href={`${base}/eei-data-sheet.csv`}>
          CSV
        </a>
        <a className="underline" href={`${base}/eei-data-sheet.json`} target="_blank" rel="noreferrer">
          JSON
        </a>
        <a className="underline" href={`${base}/sli.pdf`} target="_blank" rel="noreferrer">
          Shipper's letter of instruction (PDF)
        </a>
      </p>
    </div>
  );
}
