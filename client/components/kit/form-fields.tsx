import type { AnyFieldApi } from "@tanstack/react-form";
import type { ReactNode } from "react";
import { Checkbox } from "../ui/checkbox";
import { Field, FieldError, FieldLabel } from "../ui/field";
import { Input } from "../ui/input";
import { NativeSelect, NativeSelectOption } from "../ui/native-select";

/** Error messages of a field: its own validators' and the server's (set through setErrorMap), deduplicated. */
export function fieldErrors(field: AnyFieldApi): string[] {
  const shown = field.state.meta.isTouched || field.form.state.submissionAttempts > 0;
  if (!shown) return [];
  const messages = field.state.meta.errors.map((e: unknown) =>
    typeof e === "string" ? e : ((e as { message?: string } | undefined)?.message ?? ""),
  );
  return [...new Set(messages.filter(Boolean))] as string[];
}

type TFieldProps = { field: AnyFieldApi; label: string; description?: ReactNode };

/** A labelled text input bound to a TanStack Form field, showing its errors below it. */
export function TextField({
  field,
  label,
  type = "text",
  autoComplete,
  placeholder,
}: TFieldProps & { type?: string; autoComplete?: string; placeholder?: string }) {
  const errors = fieldErrors(field);
  const id = `field-${field.name}`;
  return (
    <Field data-invalid={errors.length > 0 || undefined}>
      <FieldLabel htmlFor={id}>{label}</FieldLabel>
      <Input
        id={id}
        name={field.name}
        type={type}
        autoComplete={autoComplete}
        placeholder={placeholder}
        value={(field.state.value as string | undefined) ?? ""}
        onBlur={field.handleBlur}
        onChange={(e) => field.handleChange(e.target.value)}
        aria-invalid={errors.length > 0 || undefined}
        aria-describedby={errors.length ? `${id}-error` : undefined}
      />
      <FieldError id={`${id}-error`} errors={errors} />
    </Field>
  );
}

/** A labelled native select bound to a field; `placeholder` adds an empty first option. */
export function SelectField({
  field,
  label,
  options,
  placeholder,
}: TFieldProps & { options: readonly { value: string; label: string }[]; placeholder?: string }) {
  const errors = fieldErrors(field);
  const id = `field-${field.name}`;
  return (
    <Field data-invalid={errors.length > 0 || undefined}>
      <FieldLabel htmlFor={id}>{label}</FieldLabel>
      <NativeSelect
        id={id}
        name={field.name}
        wrapperClassName="w-full"
        value={(field.state.value as string | undefined) ?? ""}
        onBlur={field.handleBlur}
        onChange={(e) => field.handleChange(e.target.value)}
        aria-invalid={errors.length > 0 || undefined}
      >
        {placeholder !== undefined && <NativeSelectOption value="">{placeholder}</NativeSelectOption>}
        {options.map((o) => (
          <NativeSelectOption key={o.value} value={o.value}>
            {o.label}
          </NativeSelectOption>
        ))}
      </NativeSelect>
      <FieldError id={`${id}-error`} errors={errors} />
    </Field>
  );
}

/** A checkbox with its label to the right. */
export function CheckboxField({ field, label }: TFieldProps) {
  const id = `field-${field.name}`;
  return (
    <Field orientation="horizontal">
      <Checkbox
        id={id}
        name={field.name}
        checked={Boolean(field.state.value)}
        onCheckedChange={(checked) => field.handleChange(checked === true)}
      />
      <FieldLabel htmlFor={id} className="font-normal">
        {label}
      </FieldLabel>
    </Field>
  );
}
