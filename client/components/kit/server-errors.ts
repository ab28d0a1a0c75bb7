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

/** What a failed save shows (spec section 8, 'Save failure'). */
export type TSaveFailure = {
  /** The toast: the server's status.errorMessage, or 'Save failed' when it sent none. */
  toast: string;
  /** Under the form: the server's field errors joined in one text, or 'Update failed'. */
  title: string;
  /** Under the title: 'Status {message or code}', or 'No response received'. */
  cause: string;
};

/** The spec's texts for a save that failed with `error`. */
export function saveFailure(error: unknown): TSaveFailure {
  if (!(error instanceof ApiError)) {
    return {
      toast: "Save failed",
      title: "Update failed",
      cause: error instanceof Error && error.message ? error.message : "No response received",
    };
  }
  const body = error.body as { message?: unknown; status?: { errorMessage?: unknown } } | null;
  const errorMessage = body?.status?.errorMessage;
  const message = typeof body?.message === "string" && body.message ? body.message : undefined;
  const joined = Object.values(error.errors ?? {})
    .flat()
    .join("; ");
  return {
    toast: typeof errorMessage === "string" && errorMessage ? errorMessage : "Save failed",
    title: joined || "Update failed",
    cause: error.status === 0 ? "No response received" : `Status ${message ?? error.status}`,
  };
}
