import { zValidator } from "@hono/zod-validator";
import type { MiddlewareHandler, ValidationTargets } from "hono";
import type { z } from "zod";
import { AppError, type TFieldErrors } from "./errors";
import { MAX_ISSUES_REPORTED, oversizeArrayErrors } from "./input-bounds";

/**
 * Turns zod issues into `{field: [messages]}`; issues without a path go under `_`. At most
 * MAX_ISSUES_REPORTED problems are listed; the others are counted in one closing `_` message, so an
 * answer never grows with the number of bad elements in the request.
 */
export function toFieldErrors(error: z.ZodError): TFieldErrors {
  const errors: TFieldErrors = {};
  let listed = 0;
  let omitted = 0;
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    if (errors[key]?.includes(issue.message)) continue;
    if (listed >= MAX_ISSUES_REPORTED) {
      omitted += 1;
      continue;
    }
    errors[key] ??= [];
    errors[key].push(issue.message);
    listed += 1;
  }
  if (omitted) {
    errors._ ??= [];
    errors._.push(`${omitted} more ${omitted === 1 ? "problem was" : "problems were"} not listed.`);
  }
  return errors;
}

/**
 * One-line summary of field errors, for toasts and logs. A message shared by many fields is said
 * once, naming the first few fields and counting the others.
 */
export function summarize(errors: TFieldErrors): string {
  const fieldsByMessage = new Map<string, string[]>();
  for (const [field, messages] of Object.entries(errors)) {
    for (const message of messages) {
      const fields = fieldsByMessage.get(message) ?? [];
      fields.push(field);
      fieldsByMessage.set(message, fields);
    }
  }
  const shared = new Set([...fieldsByMessage].filter(([, fields]) => fields.length > 3).map(([m]) => m));
  const parts: string[] = [];
  for (const [field, messages] of Object.entries(errors)) {
    const own = messages.filter((message) => !shared.has(message));
    if (own.length) parts.push(field === "_" ? own.join(" ") : `${field}: ${own.join(" ")}`);
  }
  for (const message of shared) {
    const fields = (fieldsByMessage.get(message) ?? []).filter((field) => field !== "_");
    const named = fields.slice(0, 3).join(", ");
    const more = fields.length > 3 ? ` and ${fields.length - 3} more` : "";
    parts.push(`${named}${more}: ${message}`);
  }
  return parts.join("; ");
}

/** The 422 for lists longer than their contract allows, raised before any element is validated. */
export function assertArraysWithinBounds(schema: z.ZodType, value: unknown): void {
  const errors = oversizeArrayErrors(schema, value);
  if (errors) throw new AppError("VALIDATION", summarize(errors), { errors });
}

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\b/i;

/**
 * zValidator with the app's error shape: a failed check throws a VALIDATION AppError (422) whose
 * message names the fields, so every endpoint answers bad input the same way. A JSON body's lists
 * are measured against the contract first, so an oversize list is refused without validating it.
 */
export const validate = <T extends z.ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
) => {
  const check = zValidator(target, schema, (result) => {
    if (!result.success) {
      const errors = toFieldErrors(result.error as unknown as z.ZodError);
      throw new AppError("VALIDATION", summarize(errors), { errors });
    }
  });
  if (target !== "json") return check;
  const bounded: MiddlewareHandler = async (c, next) => {
    if (JSON_TYPE.test(c.req.header("content-type") ?? "")) {
      // Parsed once: Hono keeps the body, and the validator below reads the same parse.
      const body = await c.req.json().catch(() => undefined);
      if (body !== undefined) assertArraysWithinBounds(schema, body);
    }
    return check(c, next);
  };
  return bounded as typeof check;
};
