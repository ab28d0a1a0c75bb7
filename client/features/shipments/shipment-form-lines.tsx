import type { AnyFieldApi } from "@tanstack/react-form";
import type { ReactNode } from "react";
import type { TDictionaryOption } from "../../../db/contracts/dictionary";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { NativeSelect, NativeSelectOption } from "../../components/ui/native-select";
import {
  contentKey,
  contentsOf,
  shippedProducts,
  type TItemLine,
  type TPackageLine,
} from "./shipment-form-values";

// The shipment form's building blocks: its numbered steps and the inputs of its item and package lines.

/** A numbered step of the form (spec: numbered step headings 1–6). */
export function Step({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-3">
            <span
              className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary text-sm text-primary-foreground"
              aria-hidden
            >
              {number}
            </span>
            <span>
              <span className="sr-only">Step {number}: </span>
              {title}
            </span>
          </h2>
        </CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

type TFormLike = {
  Field: (props: { name: never; children: (field: AnyFieldApi) => ReactNode }) => ReactNode;
};

/** A line's select (product or package type), labelled for assistive technology per line. */
export function LineSelect({
  form,
  name,
  label,
  visibleLabel,
  options,
  className,
  textValues,
  emptyLabel = "Choose…",
}: {
  form: unknown;
  name: string;
  label: string;
  visibleLabel: string;
  options: { id: number | string; label: string }[];
  className?: string;
  /** The options' ids are codes, kept as text (not turned into numbers). */
  textValues?: boolean;
  emptyLabel?: string;
}) {
  const Field = (form as TFormLike).Field;
  return (
    <Field name={name as never}>
      {(f) => (
        <div className={`min-w-0 space-y-2 ${className ?? ""}`}>
          <Label htmlFor={name}>
            <span aria-hidden>{visibleLabel}</span>
            <span className="sr-only">{label}</span>
          </Label>
          <NativeSelect
            id={name}
            wrapperClassName="w-full"
            value={f.state.value === "" ? "" : String(f.state.value)}
            onChange={(e) =>
              f.handleChange(e.target.value === "" || textValues ? e.target.value : Number(e.target.value))
            }
          >
            {textValues ? null : <NativeSelectOption value="">{emptyLabel}</NativeSelectOption>}
            {options.map((o) => (
              <NativeSelectOption key={o.id} value={String(o.id)}>
                {o.label}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
      )}
    </Field>
  );
}

/** A line's number input (quantity, weight, dimension). */
export function LineInput({
  form,
  name,
  label,
  visibleLabel,
  min,
  step,
  disabled,
  placeholder,
}: {
  form: unknown;
  name: string;
  label: string;
  visibleLabel: string;
  min: number;
  step: number;
  disabled?: boolean;
  placeholder?: string;
}) {
  const Field = (form as TFormLike).Field;
  return (
    <Field name={name as never}>
      {(f) => (
        <div className="min-w-0 space-y-2">
          <Label htmlFor={name}>
            <span aria-hidden>{visibleLabel}</span>
            <span className="sr-only">{label}</span>
          </Label>
          <Input
            id={name}
            type="number"
            inputMode="decimal"
            min={min}
            step={step}
            disabled={disabled}
            placeholder={placeholder}
            value={String(f.state.value ?? "")}
            onChange={(e) => f.handleChange(e.target.value)}
          />
        </div>
      )}
    </Field>
  );
}

/**
 * What each package of a package line holds: pieces per package of each item the shipment ships
 * (empty: none). The packing list prints them under every numbered package; the server refuses more
 * pieces packed than the items ship.
 */
export function PackageContents({
  form,
  n,
  index,
  line,
  items,
  products,
  disabled,
}: {
  form: unknown;
  n: number;
  index: number;
  line: TPackageLine;
  items: TItemLine[];
  products: TDictionaryOption[];
  disabled?: boolean;
}) {
  const shipped = items.filter((item) => item.product_id !== "");
  const assigned = contentsOf(line.contents ?? {}, shippedProducts(items)).length;
  const single = line.single_contents ?? [];
  const nameOf = (id: number) => products.find((p) => p.id === id)?.label ?? `Product ${id}`;
  return (
    <details className="col-span-full rounded-md border px-3 py-2" open={assigned > 0}>
      <summary className="cursor-pointer text-sm font-medium">
        Contents of each package{" "}
        <span className="font-normal text-muted-foreground">
          {assigned > 0 ? `(${assigned} ${assigned === 1 ? "product" : "products"})` : "(not assigned)"}
        </span>
      </summary>
      {single.length > 0 && (
        <ul
          className="mt-2 space-y-1 text-sm text-muted-foreground"
          aria-label={`Package ${n}: single packages' contents`}
        >
          {single.map((c) => (
            <li key={`${c.product_id}-${c.package}`}>
              Package {c.package} of this line also holds {c.quantity} × {nameOf(c.product_id)}
            </li>
          ))}
        </ul>
      )}
      {shipped.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">
          Add items first: a package holds the shipment's items.
        </p>
      ) : (
        <div className="mt-2 grid grid-cols-2 gap-3 md:grid-cols-4">
          {shipped.map((item) => {
            const id = item.product_id as number;
            const name = nameOf(id);
            return (
              <LineInput
                key={id}
                form={form}
                name={`packages[${index}].contents.${contentKey(id)}`}
                label={`Package ${n}: pieces of ${name} in each package`}
                visibleLabel={`${name} (ships ${item.quantity || 0})`}
                min={0}
                step={1}
                placeholder="0"
                disabled={disabled}
              />
            );
          })}
        </div>
      )}
    </details>
  );
}
