import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { AppError, type TFieldErrors } from "./errors";

/** Turns zod issues into `{field: [messages]}`; issues without a path go under `_`. */
export function toFieldErrors(error: z.ZodError): TFieldErrors {
  const errors: TFieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    errors[key] ??= [];
    if (!errors[key].includes(issue.message)) errors[key].push(issue.message);
  }
  return errors;
}

/** One-line summary of field errors, for toasts and logs. */
export function summarize(errors: TFieldErrors): string {
  return Object.entries(errors)
    .map(([field, messages]) => (field === "_" ? messages.join(" ") : `${field}: ${messages.join(" ")}`))
    .join("; ");
}

/**
 * zValidator with the app's error shape: a failed check throws a VALIDATION AppError (422) whose
 * message names the fields, so every endpoint answers bad input the same way.
 */
export const validate = <T extends z.ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
) =>
  zValidator(target, schema, (result) => {
    if (!result.success) {
      const errors = toFieldErrors(result.error as unknown as z.ZodError);
      throw new AppError("VALIDATION", summarize(errors), { errors });
    }
  });
