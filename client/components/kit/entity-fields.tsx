import type { AnyFieldApi } from "@tanstack/react-form";
import { Link } from "@tanstack/react-router";
import { decimalToScaled, isDecimal, scaledToDecimal } from "../../../db/contracts/decimal";
import type { TDictionary } from "../../../db/contracts/dictionary";
import { Checkbox } from "../ui/checkbox";
import { Field, FieldError, FieldLabel } from "../ui/field";
import { Input } from "../ui/input";
import { NativeSelect, NativeSelectOption } from "../ui/native-select";
import { Textarea } from "../ui/textarea";
import type { TFieldConfig } from "./entity-config";
import { fieldErrors } from "./form-fields";

/** Digits with thousands separators while typing money ("1234.5" → "1,234.5"); the value stays plain. */
function withSeparators(value: string): string {
  const [whole, frac] = value.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/**
 * A money amount moved by `step` in exact cents ("1,234.5" + 0.1 → "1234.60"), not below `min`;
 * null when the current text is not an amount.
 */
export function steppedMoney(text: string, step: number, direction: 1 | -1, min?: number): string | null {
  const plain = text.replace(/[,\s$]/g, "") || "0";
  if (!isDecimal(plain, 2)) return null;
  let cents = decimalToScaled(plain, 2) + direction * decimalToScaled(step, 2);
  if (min !== undefined) cents = Math.max(cents, decimalToScaled(min, 2));
  return scaledToDecimal(cents, 2);
}

/** One configured field: label (with * when required), the right input, and its errors. */
export function EntityField({
  config,
  field,
  dictionaries,
  isRequired,
}: {
  config: TFieldConfig;
  field: AnyFieldApi;
  dictionaries: TDictionary;
  isRequired: boolean;
}) {
  const errors = fieldErrors(field);
  const id = `field-${config.name}`;
  const invalid = errors.length > 0 || undefined;
  const common = {
    id,
    name: config.name,
    onBlur: field.handleBlur,
    "aria-invalid": invalid,
    "aria-required": isRequired || undefined,
    "aria-describedby": errors.length ? `${id}-error` : undefined,
  };
  const value = field.state.value as unknown;
  const label = (
    <FieldLabel htmlFor={id}>
      {config.label}
      {isRequired && (
        <span aria-hidden className="text-destructive">
          *
        </span>
      )}
    </FieldLabel>
  );

  if (config.kind === "menu") {
    return (
      <fieldset className={config.span === 2 ? "sm:col-span-2" : undefined}>
        <legend className="mb-2 text-sm font-medium">{config.label}</legend>
        <div
          className="flex flex-col gap-1 rounded-lg border p-1 sm:max-w-xs"
          role="radiogroup"
          aria-label={config.label}
        >
          {config.links?.map((link) => (
            <Link key={link.to} to={link.to} className="rounded-md px-3 py-2 text-sm hover:bg-accent">
              {link.label}
            </Link>
          ))}
          {config.choices?.map((choice) => (
            // biome-ignore lint/a11y/useSemanticElements: a styled menu of choices; role=radio keeps it accessible
            <button
              key={choice.value}
              type="button"
              role="radio"
              aria-checked={value === choice.value}
              onClick={() => field.handleChange(choice.value)}
              className="rounded-md px-3 py-2 text-left text-sm hover:bg-accent aria-checked:bg-primary aria-checked:text-primary-foreground"
            >
              {choice.label}
            </button>
          ))}
        </div>
      </fieldset>
    );
  }

  if (config.kind === "checkbox") {
    return (
      <Field orientation="horizontal" className={config.span === 2 ? "sm:col-span-2" : undefined}>
        <Checkbox
          {...common}
          checked={Boolean(value)}
          onCheckedChange={(c) => field.handleChange(c === true)}
        />
        <FieldLabel htmlFor={id} className="font-normal">
          {config.label}
        </FieldLabel>
      </Field>
    );
  }

  let input: React.ReactNode;
  if (config.kind === "select" && config.choices) {
    // A fixed list of text values (no dictionary behind it).
    input = (
      <NativeSelect
        {...common}
        wrapperClassName="w-full"
        value={String(value ?? "")}
        onChange={(e) => field.handleChange(e.target.value)}
      >
        {config.choices.map((o) => (
          <NativeSelectOption key={o.value} value={o.value}>
            {o.label}
          </NativeSelectOption>
        ))}
      </NativeSelect>
    );
  } else if (config.kind === "select") {
    const options = config.dictionary ? (dictionaries[config.dictionary] ?? []) : [];
    input = (
      <NativeSelect
        {...common}
        wrapperClassName="w-full"
        value={value === null || value === undefined ? "" : String(value)}
        onChange={(e) => field.handleChange(e.target.value === "" ? "" : Number(e.target.value))}
      >
        <NativeSelectOption value="">Choose…</NativeSelectOption>
        {options.map((o) => (
          <NativeSelectOption key={o.id} value={String(o.id)}>
            {o.label}
          </NativeSelectOption>
        ))}
      </NativeSelect>
    );
  } else if (config.kind === "textarea") {
    input = (
      <Textarea
        {...common}
        value={String(value ?? "")}
        onChange={(e) => field.handleChange(e.target.value)}
      />
    );
  } else if (config.kind === "money") {
    const code = config.currency && config.currency !== "USD" ? config.currency : null;
    input = (
      <div className="relative">
        <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-muted-foreground">
          {code ?? "$"}
        </span>
        <Input
          {...common}
          inputMode="decimal"
          className={code ? "pl-12" : "pl-7"}
          value={withSeparators(String(value ?? ""))}
          onChange={(e) => field.handleChange(e.target.value.replace(/[,\s$]/g, ""))}
          onKeyDown={(e) => {
            // Arrow keys step the amount like a number input would (spec: freight by 0.1, others by 1).
            if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
            const next = steppedMoney(
              String(value ?? ""),
              config.step ?? 1,
              e.key === "ArrowUp" ? 1 : -1,
              config.min,
            );
            if (next === null) return;
            e.preventDefault();
            field.handleChange(next);
          }}
        />
      </div>
    );
  } else {
    input = (
      <Input
        {...common}
        type={config.kind === "number" ? "number" : config.kind}
        min={config.min}
        step={config.step}
        autoComplete={config.autoComplete}
        value={String(value ?? "")}
        onChange={(e) => field.handleChange(e.target.value)}
      />
    );
  }
  return (
    <Field data-invalid={invalid} className={config.span === 2 ? "sm:col-span-2" : undefined}>
      {label}
      {input}
      {config.hint && <p className="text-xs text-muted-foreground">{config.hint}</p>}
      <FieldError id={`${id}-error`} errors={errors} />
    </Field>
  );
}
