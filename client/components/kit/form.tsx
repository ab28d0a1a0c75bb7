import type { ComponentProps } from "react";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";

/** A <form> that leaves validation to the form library (noValidate) and submits through it. */
export function Form({
  onSubmit,
  ...props
}: Omit<ComponentProps<"form">, "onSubmit"> & { onSubmit: () => unknown }) {
  return (
    <form
      noValidate
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
}: {
  isBusy: boolean;
  label?: string;
  busyLabel?: string;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <Button type="submit" className={className} disabled={disabled || isBusy}>
      {isBusy && <Spinner />}
      {isBusy ? busyLabel : label}
    </Button>
  );
}
