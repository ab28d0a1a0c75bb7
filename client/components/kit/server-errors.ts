import type { AnyFormApi } from "@tanstack/react-form";
import { ApiError } from "../../lib/api";

/**
 * Puts a 422's field errors on the form's fields (as server errors, cleared on the next change) and
 * returns the message to toast: the server's field errors joined in one text, or its message.
 */
export function applyServerErrors(form: AnyFormApi, error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  const errors = error.errors ?? {};
  for (const [name, messages] of Object.entries(errors)) {
    if (!(name in form.state.values)) continue;
    form.setFieldMeta(name, (meta) => ({
      ...meta,
      isTouched: true,
      errorMap: { ...meta.errorMap, onServer: messages.join(" ") },
    }));
  }
  const joined = Object.values(errors).flat().join("; ");
  return joined || error.message || fallback;
}
