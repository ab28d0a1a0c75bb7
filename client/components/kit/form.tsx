import type { ComponentProps } from "react";
import type { ZodType } from "zod";
import { useIsHydrated } from "../../lib/hydration";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";

/**
 * A <form> that leaves validation to the form library (noValidate) and submits through it. It is a
 * POST form: before JavaScript runs, a submit can never put field values (a password) in a URL.
 * Forms with a server `action` (login, register) work without JavaScript at all.
 */
export function Form({
  onSubmit,
  ...props
}: Omit<ComponentProps<"form">, "onSubmit"> & { onSubmit: () => unknown }) {
  return (
    <form
      noValidate
      method="post"
      {...props}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    />
  );
}

/** Submit button with a spinner and a busy label while the form submits (spec defaults 'Save' / 'Saving'). */
export function SubmitButton({
  isBusy,
  label = "Save",
  busyLabel = "Saving",
  disabled,
  className,
  worksWithoutJs = false,
}: {
  isBusy: boolean;
  label?: string;
  busyLabel?: string;
  disabled?: boolean;
  className?: string;
  /** The form posts to a server action, so it may submit before hydration. */
  worksWithoutJs?: boolean;
}) {
  const isHydrated = useIsHydrated();
  return (
    <Button
      type="submit"
      className={className}
      disabled={disabled || isBusy || (!isHydrated && !worksWithoutJs)}
    >
      {isBusy && <Spinner />}
      {isBusy ? busyLabel : label}
    </Button>
  );
}

/** A contract's messages per field (the first for each), or undefined when the values pass: a form's validator. */
export function contractErrors(schema: ZodType, value: unknown) {
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
  return { fields };
}
