import { type AnyFieldApi, useForm, useStore } from "@tanstack/react-form";
import { useRouter } from "@tanstack/react-router";
import { ArrowLeftIcon, EyeIcon } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import type { TPublicUser } from "../../../db/contracts/auth";
import type { TDictionary } from "../../../db/contracts/dictionary";
import {
  computeShipmentTotals,
  DOCUMENT_TYPE_LABELS,
  GENERATED_DOCUMENT_TYPES,
  SHIPMENT_STATUS,
  type TGeneratedDocumentType,
  type TShipment,
  type TShipmentDocument,
  type TShipmentParty,
} from "../../../db/contracts/shipments";
import { PageHeader } from "../../components/app/screens";
import { AutosaveBanner, useAutosave } from "../../components/kit/autosave";
import type { TFieldConfig } from "../../components/kit/entity-config";
import { EntityField } from "../../components/kit/entity-fields";
import { KeptWorkBanner, useKeptWork } from "../../components/kit/kept-work";
import { LineEditor } from "../../components/kit/line-editor";
import { Alert, AlertDescription, AlertTitle } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Checkbox } from "../../components/ui/checkbox";
import { Label } from "../../components/ui/label";
import { ApiError, type TApi } from "../../lib/api";
import type { TDictionaryCache } from "../../lib/dictionaries";
import { formatMoney } from "../../lib/format";
import { keepPageForOffline } from "../../lib/offline";
import { useRoles } from "../../lib/roles";
import { ScreeningSwitch } from "../screening/screening-switch";
import { ExportControlPanel } from "./export-control-panel";
import { PaperworkPanel, type TPaperworkValues } from "./paperwork-panel";
import { PartyPicker, type TPickedParty } from "./party-picker";
import { GenerateButton, ShipmentDocuments } from "./shipment-documents";
import { LineInput, LineSelect, PackageContents, Step } from "./shipment-form-lines";
import {
  changeKey,
  lineContentsOf,
  PARTIES,
  shippedProducts,
  type TPartyKey,
  type TValues,
  toValues,
  UOM_OPTIONS,
} from "./shipment-form-values";
import { ShipmentReleases } from "./shipment-releases";
import { SaveAsTemplate, TemplateChooser } from "./shipment-templates";
import { DETAIL_FIELDS, MONEY_FIELDS, ShipmentStatus } from "./shipments-screen";
import { useDiscardUntouchedDraft } from "./untouched-draft";

type TProps = {
  api: TApi;
  dictionaries: TDictionary;
  dictionaryCache: TDictionaryCache;
  user: TPublicUser | null;
  item: TShipment;
  /** Each product's unit value, for extended values and totals shown live. */
  unitValues: Record<string, string>;
};

/**
 * The international shipment form (spec section 2, Shipment form): parties with screening, item and
 * package lines, details, signature, documents and paperwork, freight and insurance. Every change is
 * autosaved as a draft (spec section 4); a new shipment is created by its first autosave.
 */
export function ShipmentForm({ api, dictionaries, dictionaryCache, user, item, unitValues }: TProps) {
  const router = useRouter();
  const initial = useMemo(() => toValues(item), [item]);
  const form = useForm({ defaultValues: initial });
  // Saving is the shipper's work: others (compliance, a plain admin) see the shipment read-only,
  // nothing is autosaved, and a compliance member still releases holds and decides screenings here.
  const mayEdit = useRoles().can("shipper");

  const saved = useRef({
    id: item.id,
    updatedAt: item.updated_at,
    statusId: item.shipping_status_id,
    generated: item.generate_documents as string[],
    itemIds: new Map((item.items ?? []).map((i) => [i.product_id, i.id])),
    packageIds: new Map((item.packages ?? []).map((p) => [p.package_id, p.id])),
  });
  const [statusId, setStatusId] = useState(saved.current.statusId);
  const [documents, setDocuments] = useState<TShipmentDocument[]>(item.documents ?? []);
  // Changes whenever the server stored something: the paperwork panel re-checks then.
  const [version, setVersion] = useState(`${item.updated_at}:${(item.documents ?? []).length}`);
  // A generation the server refused (422 missing fields, 409 screening gate) while the save itself stood.
  const paperworkError = useRef<ApiError | null>(null);
  const [selection, setSelection] = useState<string[]>(item.generate_documents ?? []);
  // Who saved the shipment last, and when (shown with the screening releases).
  const [lastSave, setLastSave] = useState({ by: item.updated_by, at: item.updated_at });
  const [prices, setPrices] = useState<Record<string, string>>(() => {
    const known = { ...unitValues };
    for (const line of item.items ?? []) known[String(line.product_id)] = line.unit_value;
    return known;
  });
  const [parties, setParties] = useState<Record<TPartyKey, TPickedParty | TShipmentParty | null>>(
    () =>
      Object.fromEntries(
        PARTIES.map((p) => [p.key, (item[p.embedded] as TShipmentParty | null | undefined) ?? null]),
      ) as Record<TPartyKey, TShipmentParty | null>,
  );
  const partiesRef = useRef(parties);
  partiesRef.current = parties;

  /** Takes in what the server stored: its updated_at (the base of the next PUT), line ids, documents. */
  const absorb = (stored: TShipment) => {
    saved.current.updatedAt = stored.updated_at;
    saved.current.statusId = stored.shipping_status_id;
    saved.current.generated = stored.generate_documents;
    saved.current.itemIds = new Map(stored.items.map((i) => [i.product_id, i.id]));
    saved.current.packageIds = new Map(stored.packages.map((p) => [p.package_id, p.id]));
    setStatusId(stored.shipping_status_id);
    setDocuments(stored.documents);
    setVersion(`${stored.updated_at}:${stored.documents.length}`);
    setLastSave({ by: stored.updated_by, at: stored.updated_at });
  };

  const save = async (extra?: Record<string, unknown>) => {
    const ref = saved.current;
    const values = form.state.values;
    const body: Record<string, unknown> = {
      ...values,
      updated_at: ref.updatedAt,
      ship_date: values.ship_date || null,
      generate_documents: ref.generated,
      items: values.items
        .filter((i) => i.product_id !== "")
        .map((i) => ({
          id: ref.itemIds.get(i.product_id as number),
          product_id: i.product_id,
          quantity: i.quantity,
          unit_of_measure: i.unit_of_measure || "PCS",
          unit_price: i.unit_price === "" ? null : i.unit_price,
          origin_country_id: i.origin_country_id === "" ? null : i.origin_country_id,
        })),
      packages: values.packages
        .filter((p) => p.package_id !== "")
        .map((p) => ({
          id: ref.packageIds.get(p.package_id as number),
          ...p,
          // Only the products still shipped: contents of a removed item line go with it.
          contents: lineContentsOf(p, shippedProducts(values.items)),
        })),
      ...extra,
    };
    // Autosave keeps new and draft shipments drafts; a shipment in transit or delivered keeps its status.
    if (ref.statusId === SHIPMENT_STATUS.DRAFT) body.shipping_status_id = SHIPMENT_STATUS.DRAFT;
    let answer: { item: TShipment };
    try {
      answer = await api.send<{ item: TShipment }>("PUT", `/shipments/${ref.id}`, body);
    } catch (error) {
      const refused =
        error instanceof ApiError ? (error.body as { paperwork?: boolean; item?: TShipment }) : null;
      if (!refused?.paperwork || !refused.item) throw error;
      // The shipment was saved; only its paperwork was refused. Keep working from what was stored.
      paperworkError.current = error as ApiError;
      absorb(refused.item);
      return;
    }
    absorb(answer.item);
  };
  const autosave = useAutosave({ save });

  // Every change (as changeKey sees it) restarts the autosave delay.
  const values = useStore(form.store, (s) => s.values) as TValues;
  const lastLines = useRef("");
  const lastKey = useRef<string | null>(null);
  useEffect(() => {
    const key = changeKey(values, lastLines);
    if (lastKey.current === null) {
      lastKey.current = key;
      return;
    }
    if (key !== lastKey.current) {
      lastKey.current = key;
      if (mayEdit) autosave.markChanged();
    }
  }, [values, autosave.markChanged, mayEdit]);
  // Unsaved work survives a reload in this browser; a draft left untouched is removed.
  const kept = useKeptWork({
    storageKey: `shipment:${item.id}`,
    snapshot: { values, parties },
    baseUpdatedAt: saved.current.updatedAt,
    isUnsaved: Boolean(autosave.state.isUnsaved),
    hasChanged: autosave.hasChanged,
    differsFromStored: (copy) =>
      changeKey(copy.values, { current: "" }) !== changeKey(initial, { current: "" }),
    onRestore: (copy, base) => {
      if (base && base > saved.current.updatedAt) saved.current.updatedAt = base;
      for (const [key, value] of Object.entries(copy.values))
        form.setFieldValue(key as keyof TValues, value as never);
      setParties(copy.parties);
    },
  });
  useDiscardUntouchedDraft(api, item, () => mayEdit && !autosave.hasChanged() && documents.length === 0);
  // This page and its code are kept for the service worker, so a reload while offline opens it again
  // and offers the kept copy above.
  useEffect(() => {
    void keepPageForOffline();
  }, []);

  const totals = computeShipmentTotals({
    items: values.items.map((i) => ({
      unit_value: i.unit_price?.trim() ? i.unit_price : (prices[String(i.product_id)] ?? "0"),
      quantity: i.quantity,
    })),
    packages: values.packages,
    freight: values.freight,
    insurance: values.insurance,
    other_charges: values.other_charges,
    discount: values.discount,
  });

  const setPaperworkValue = useCallback(
    (name: keyof TPaperworkValues, value: string) => form.setFieldValue(name, value),
    [form],
  );

  const runAction = async (action: () => Promise<void>, failure: string) => {
    try {
      await action();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) return; // the conflict banner says it
      const body = error instanceof ApiError ? (error.body as { status?: { errorMessage?: string } }) : null;
      const fields = error instanceof ApiError && error.errors ? Object.values(error.errors).flat() : [];
      toast.error(body?.status?.errorMessage || (error as Error).message || failure, {
        description: fields.length ? [...new Set(fields)].join(" ") : undefined,
      });
    }
  };

  /** The shipment's id, creating it (by saving now) when it has none yet. */
  const ensureSaved = async (): Promise<number> => {
    if (autosave.hasUnsaved()) await autosave.flush();
    return saved.current.id;
  };

  const reload = () => router.invalidate();

  // Amounts show the shipment's currency: the dictionary labels currencies as 'EUR - Euro'.
  const currencyLabel = (dictionaries.currencies ?? []).find((c) => c.id === values.currency_id)?.label ?? "";
  const currency = /^[A-Z]{3}\b/.exec(currencyLabel)?.[0] ?? "USD";
  const money = (value: string | number | null | undefined) => formatMoney(value, currency);
  const field = (config: TFieldConfig) => (
    <form.Field key={config.name} name={config.name as keyof TValues}>
      {(f) => (
        <EntityField
          config={config}
          field={f as unknown as AnyFieldApi}
          dictionaries={dictionaries}
          isRequired={Boolean(config.isRequired)}
        />
      )}
    </form.Field>
  );

  const products = dictionaries.products ?? [];
  const countryOptions = dictionaries.countries ?? [];
  const packageTypes = dictionaries.packages ?? [];
  const usedPackages = new Set(values.packages.map((p) => p.package_id));
  const generatedTypes = new Set(
    documents.filter((d) => d.document_type !== "custom").map((d) => d.document_type),
  );
  const isSelectionNew =
    selection.length !== generatedTypes.size ||
    selection.some((t) => !generatedTypes.has(t as TGeneratedDocumentType));
  const signatureUrl = item.user?.signature_url ?? user?.signature_url ?? null;

  return (
    <section className="mx-auto max-w-5xl space-y-6">
      <PageHeader title="Create International Shipment">
        <Button variant="outline" onClick={() => router.history.back()}>
          <ArrowLeftIcon />
          Back
        </Button>
        {mayEdit && (
          <SaveAsTemplate
            defaultName={values.name}
            onSave={async (name) => {
              const id = await ensureSaved();
              await api.send("POST", `/shipments/${id}/template`, { name });
              dictionaryCache.forget(["templates"]);
              toast.success("Template saved", { description: name });
            }}
            onFailure={(action) => runAction(action, "Save failed")}
          />
        )}
      </PageHeader>

      {!mayEdit && (
        <Alert data-testid="shipment-read-only">
          <EyeIcon />
          <AlertTitle>Read only</AlertTitle>
          <AlertDescription>You can view this shipment; saving needs the Shipper role.</AlertDescription>
        </Alert>
      )}

      <div className="sticky top-16 z-20 space-y-2">
        <KeptWorkBanner kept={kept} />
        <AutosaveBanner state={autosave.state} onReload={() => void reload()} />
      </div>

      <Card>
        <CardContent className="grid gap-4 sm:grid-cols-[1fr_auto_1fr] sm:items-end">
          <fieldset disabled={!mayEdit} className="min-w-0">
            {field({
              name: "name",
              label: "Shipment name",
              kind: "text",
              hint: "Also the name of a template saved from it.",
            })}
          </fieldset>
          <div className="flex items-center gap-2 pb-2 text-sm">
            <span className="text-muted-foreground">Status</span>
            <ShipmentStatus statusId={statusId} />
          </div>
          {mayEdit && (
            <TemplateChooser
              api={api}
              isTouched={() => autosave.hasUnsaved() || form.state.isDirty}
              onLoad={(template) => {
                const next = toValues(template);
                next.ship_date = "";
                for (const [key, value] of Object.entries(next))
                  form.setFieldValue(key as keyof TValues, value as never);
                setPrices((known) => {
                  const merged = { ...known };
                  for (const line of template.items) merged[String(line.product_id)] = line.unit_value;
                  return merged;
                });
                setParties(
                  Object.fromEntries(
                    PARTIES.map((p) => [p.key, (template[p.embedded] as TShipmentParty | null) ?? null]),
                  ) as Record<TPartyKey, TShipmentParty | null>,
                );
                toast.success("Template loaded", { description: template.name });
              }}
            />
          )}
        </CardContent>
      </Card>

      <Step number={1} title="Who are the parties to this shipment?">
        <div className="grid gap-6 lg:grid-cols-3">
          {PARTIES.map((party) => (
            <div key={party.key} className="min-w-0 space-y-2">
              <fieldset disabled={!mayEdit} className="min-w-0">
                <form.Field name={party.key}>
                  {(f) => (
                    <PartyPicker
                      api={api}
                      label={party.label}
                      countries={dictionaries.countries ?? []}
                      value={(f.state.value as number | "") || null}
                      party={parties[party.key]}
                      onChange={(picked) => {
                        setParties((p) => ({ ...p, [party.key]: picked }));
                        f.handleChange((picked?.id ?? "") as never);
                      }}
                    />
                  )}
                </form.Field>
              </fieldset>
              {values[party.key] !== "" && (
                <ScreeningSwitch
                  key={values[party.key]}
                  api={api}
                  contactId={values[party.key] as number}
                  title={`Screening: ${party.label}`}
                  className="mt-4"
                />
              )}
            </div>
          ))}
        </div>
      </Step>

      <ShipmentReleases
        api={api}
        shipmentId={saved.current.id}
        version={version}
        lastEditor={lastSave.by}
        lastSavedAt={lastSave.at}
      />

      {/* The rest is the shipper's to change; documents stay downloadable (links, not controls). */}
      <fieldset disabled={!mayEdit} className="min-w-0 space-y-6" data-testid="shipment-editable">
        <Step number={2} title="What do you want to ship?">
          <form.Field name="items" mode="array">
            {(lines) => (
              <LineEditor
                label="Items"
                rows={values.items}
                rowKey={(_, i) => i}
                rowLabel={(_, i) => `item ${i + 1}`}
                addLabel="Add Item"
                canAdd={values.items.length < products.length}
                onAdd={() =>
                  lines.pushValue({
                    product_id: "",
                    quantity: "1",
                    unit_of_measure: "PCS",
                    unit_price: "",
                    origin_country_id: "",
                  } as never)
                }
                onRemove={(i) => lines.removeValue(i)}
                emptyText={
                  products.length
                    ? "No items yet: add the products this shipment carries."
                    : "Add products to your catalogue first."
                }
                renderRow={(line, i) => {
                  const taken = new Set(values.items.filter((_, j) => j !== i).map((l) => l.product_id));
                  return (
                    <>
                      <LineSelect
                        form={form}
                        name={`items[${i}].product_id`}
                        label={`Item ${i + 1} product`}
                        visibleLabel="Product"
                        options={products.filter((p) => !taken.has(p.id))}
                        className="col-span-2 md:col-span-2 xl:col-span-4"
                      />
                      <LineInput
                        form={form}
                        name={`items[${i}].quantity`}
                        label={`Item ${i + 1} quantity`}
                        visibleLabel="Quantity"
                        min={1}
                        step={1}
                      />
                      <LineSelect
                        form={form}
                        name={`items[${i}].unit_of_measure`}
                        label={`Item ${i + 1} unit of measure`}
                        visibleLabel="Unit"
                        options={UOM_OPTIONS}
                        textValues
                      />
                      <LineInput
                        form={form}
                        name={`items[${i}].unit_price`}
                        label={`Item ${i + 1} unit price`}
                        visibleLabel="Unit price"
                        min={0}
                        step={0.01}
                        placeholder={line.product_id === "" ? "" : (prices[String(line.product_id)] ?? "")}
                      />
                      <LineSelect
                        form={form}
                        name={`items[${i}].origin_country_id`}
                        label={`Item ${i + 1} country of origin`}
                        visibleLabel="Origin"
                        options={countryOptions}
                        emptyLabel="Product's origin"
                        className="col-span-2 md:col-span-2 xl:col-span-2"
                      />
                      <div className="space-y-2 xl:col-span-3">
                        <span className="block text-sm font-medium">Extended value</span>
                        <output
                          className="block h-9 py-2 text-sm tabular-nums"
                          aria-label={`Item ${i + 1} extended value`}
                        >
                          {line.product_id === "" ? "—" : money(totals.extended_values[i])}
                        </output>
                      </div>
                    </>
                  );
                }}
              />
            )}
          </form.Field>
          <p className="mt-3 text-sm">
            Total value:{" "}
            <strong className="tabular-nums" data-testid="total-value">
              {money(totals.total_value)}
            </strong>
          </p>
          <ExportControlPanel
            api={api}
            shipmentId={saved.current.id}
            version={version}
            eei={item}
            onChanged={() => setVersion((v) => `${v.split("+")[0]}+${Date.now()}`)}
          />
        </Step>

        <Step number={3} title="How do you want to pack this shipment?">
          <form.Field name="packages" mode="array">
            {(lines) => (
              <LineEditor
                label="Packages"
                rows={values.packages}
                rowKey={(_, i) => i}
                rowLabel={(_, i) => `package ${i + 1}`}
                addLabel="Add Piece"
                canAdd={packageTypes.some((p) => !usedPackages.has(p.id))}
                onAdd={() =>
                  lines.pushValue({
                    package_id: "",
                    quantity: "1",
                    net_weight: "1",
                    gross_weight: "1",
                    length: "1",
                    width: "1",
                    height: "1",
                    contents: {},
                  } as never)
                }
                onRemove={(i) => lines.removeValue(i)}
                emptyText="No packages yet: add the pieces this shipment is packed in."
                renderRow={(line, i) => {
                  const taken = new Set(values.packages.filter((_, j) => j !== i).map((l) => l.package_id));
                  const isOff = line.package_id === "";
                  const n = i + 1;
                  return (
                    <>
                      <LineSelect
                        form={form}
                        name={`packages[${i}].package_id`}
                        label={`Package ${n} type`}
                        visibleLabel="Package type"
                        options={packageTypes.filter((p) => !taken.has(p.id))}
                        className="col-span-2"
                      />
                      <LineInput
                        form={form}
                        name={`packages[${i}].quantity`}
                        label={`Package ${n} quantity`}
                        visibleLabel="Quantity"
                        min={1}
                        step={1}
                        disabled={isOff}
                      />
                      <LineInput
                        form={form}
                        name={`packages[${i}].net_weight`}
                        label={`Package ${n} net weight (kg)`}
                        visibleLabel="Net (kg)"
                        min={0.01}
                        step={0.001}
                        disabled={isOff}
                      />
                      <LineInput
                        form={form}
                        name={`packages[${i}].gross_weight`}
                        label={`Package ${n} gross weight (kg)`}
                        visibleLabel="Gross (kg)"
                        min={0.01}
                        step={0.001}
                        disabled={isOff}
                      />
                      <LineInput
                        form={form}
                        name={`packages[${i}].length`}
                        label={`Package ${n} length (in)`}
                        visibleLabel="L (in)"
                        min={0.01}
                        step={0.01}
                      />
                      <LineInput
                        form={form}
                        name={`packages[${i}].width`}
                        label={`Package ${n} width (in)`}
                        visibleLabel="W (in)"
                        min={0.01}
                        step={0.01}
                      />
                      <LineInput
                        form={form}
                        name={`packages[${i}].height`}
                        label={`Package ${n} height (in)`}
                        visibleLabel="H (in)"
                        min={0.01}
                        step={0.01}
                      />
                      <PackageContents
                        form={form}
                        n={n}
                        index={i}
                        line={line}
                        items={values.items}
                        products={products}
                        disabled={isOff}
                      />
                    </>
                  );
                }}
              />
            )}
          </form.Field>
          <p className="mt-3 text-sm">
            Total pieces:{" "}
            <strong className="tabular-nums" data-testid="total-pieces">
              {totals.total_pieces}
            </strong>
          </p>
        </Step>

        <Step number={4} title="How do you want to ship this?">
          <div className="grid gap-5 sm:grid-cols-2">{DETAIL_FIELDS.map(field)}</div>
        </Step>

        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Authorized signature</h2>
            </CardTitle>
            <CardDescription>From your profile; the paperwork is signed with it.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5 sm:grid-cols-2">
            {field({ name: "user_name", label: "Name", kind: "text" })}
            {field({ name: "user_title", label: "Title", kind: "text" })}
            <div className="sm:col-span-2">
              {signatureUrl ? (
                <img
                  src={signatureUrl}
                  alt="Authorized signature"
                  className="h-20 rounded border bg-white p-2"
                />
              ) : (
                <p className="text-sm text-muted-foreground">
                  No signature image yet: upload one on your{" "}
                  <a className="text-primary underline" href="/user/account">
                    User Profile
                  </a>
                  .
                </p>
              )}
            </div>
          </CardContent>
        </Card>

        <ShipmentDocuments
          api={api}
          documents={documents}
          ensureSaved={ensureSaved}
          onChanged={(stored, removedType) => {
            absorb(stored);
            if (removedType) setSelection((s) => s.filter((t) => t !== removedType));
          }}
          runAction={runAction}
        />

        <Step number={5} title="What documents do you want to create?">
          <PaperworkPanel
            api={api}
            shipmentId={saved.current.id}
            version={version}
            values={{
              aes_citation: values.aes_citation,
              proforma_valid_until: values.proforma_valid_until,
              preview_statement_text: values.preview_statement_text,
              invoice_date: values.invoice_date,
              reason_for_export: values.reason_for_export,
              incoterm_place: values.incoterm_place,
              marks_and_numbers: values.marks_and_numbers,
            }}
            onChange={setPaperworkValue}
          />
          <fieldset className="flex flex-wrap gap-6">
            <legend className="sr-only">Document types</legend>
            {GENERATED_DOCUMENT_TYPES.map((type) => (
              <div key={type} className="flex items-center gap-2">
                <Checkbox
                  id={`doc-${type}`}
                  checked={selection.includes(type)}
                  onCheckedChange={(c) =>
                    setSelection((s) =>
                      c === true ? [...new Set([...s, type])] : s.filter((t) => t !== type),
                    )
                  }
                />
                <Label htmlFor={`doc-${type}`} className="font-normal">
                  {DOCUMENT_TYPE_LABELS[type]}
                </Label>
              </div>
            ))}
          </fieldset>
        </Step>

        <Step number={6} title="What do you want to do with the documents?">
          <GenerateButton
            isEnabled={isSelectionNew && autosave.state.phase !== "conflict"}
            hasChoice={selection.length > 0}
            onGenerate={() =>
              runAction(async () => {
                paperworkError.current = null;
                await autosave.flush({ extra: { generate_documents: selection } });
                const refused = paperworkError.current as ApiError | null;
                if (refused) {
                  const fields = refused.errors ? Object.values(refused.errors).flat() : [];
                  toast.error(refused.message || "The paperwork could not be generated", {
                    description: fields.length ? [...new Set(fields)].join(" ") : undefined,
                  });
                  return;
                }
                toast.success("Paperwork generated");
              }, "Save failed")
            }
          />
        </Step>

        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Freight and insurance</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="space-y-5">
            <div className="grid gap-5 sm:grid-cols-2">
              {MONEY_FIELDS.map((config) => field({ ...config, currency }))}
            </div>
            <dl className="grid gap-2 rounded-md border bg-muted/30 p-4 text-sm sm:grid-cols-3">
              <div>
                <dt className="text-muted-foreground">Total value</dt>
                <dd className="text-lg font-semibold tabular-nums">{money(totals.total_value)}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Total invoice value</dt>
                <dd className="text-lg font-semibold tabular-nums" data-testid="total-invoice-value">
                  {money(totals.total_invoice_value)}
                </dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Total pieces</dt>
                <dd className="text-lg font-semibold tabular-nums">{totals.total_pieces}</dd>
              </div>
            </dl>
          </CardContent>
        </Card>
      </fieldset>
    </section>
  );
}
