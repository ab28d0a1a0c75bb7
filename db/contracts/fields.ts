import { z } from "zod";

/** Field building blocks shared by every entity contract, with the spec's messages. */
export const REQUIRED = "This field is required.";
export const EMAIL_INVALID = "E-mail is invalid";
export const NOT_TEXT = "Must be text.";
export const NOT_ID = "Must be an id.";
export const NOT_NUMBER = "Must be a number.";

/**
 * A type error's message: 'This field is required.' when the value is missing (undefined or null),
 * else what the value should have been, so `company: 42` does not read as if it were missing.
 */
const typeMessage =
  (wrongType: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined || issue.input === null ? REQUIRED : wrongType;

/** A required text: trimmed, not empty ('This field is required.'), bounded. */
export const requiredText = (max = 255) =>
  z
    .string({ error: typeMessage(NOT_TEXT) })
    .trim()
    .min(1, REQUIRED)
    .max(max, `Please use at most ${max} characters.`);

/** An optional text: null and missing become "". */
export const optionalText = (max = 255) =>
  z
    .string({ error: NOT_TEXT })
    .trim()
    .max(max, `Please use at most ${max} characters.`)
    .nullish()
    .transform((v) => v ?? "");

/** A 0/1 flag as the spec sends it; true/false and "0"/"1" are accepted too. */
export const flag = () =>
  z
    .union([z.boolean(), z.literal(0), z.literal(1), z.literal("0"), z.literal("1")], {
      error: "Must be 1 or 0.",
    })
    .nullish()
    .transform((v) => v === true || v === 1 || v === "1");

/**
 * An id as JSON sends it (a whole number) or as a form field or CSV cell does ("12"). Blank text is
 * `blank`; anything else (true, [2], "12abc", 1.5) is left for the number check to refuse, where
 * z.coerce.number would have turned true into 1 and [2] into 2.
 */
const toId = (value: unknown, blank: null | undefined): unknown => {
  if (value === null || value === undefined) return blank;
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (text === "") return blank;
  return /^\d{1,15}$/.test(text) ? Number(text) : value;
};

/** A required reference to another record by id; missing, "", null and 0 are 'This field is required.'. */
export const requiredId = () =>
  z.preprocess(
    (v) => (v === 0 ? undefined : toId(v, undefined)),
    z
      .number({ error: typeMessage(NOT_ID) })
      .int(NOT_ID)
      .positive(NOT_ID),
  );

/** An optional reference by id; "", null and missing mean none. */
export const optionalId = () =>
  z.preprocess((v) => toId(v, null), z.number({ error: NOT_ID }).int(NOT_ID).positive(NOT_ID).nullable());

/** An e-mail address that must be given. */
export const requiredEmail = () => requiredText(254).pipe(z.email({ error: EMAIL_INVALID }));

/** An e-mail address that may be left empty. */
export const optionalEmail = () =>
  optionalText(254).refine((v) => v === "" || z.email().safeParse(v).success, EMAIL_INVALID);

/** A calendar date as YYYY-MM-DD that really exists (2024-02-30 does not). */
export const isoDate = () =>
  z
    .string({ error: typeMessage("Enter a date as YYYY-MM-DD.") })
    .trim()
    .min(1, REQUIRED)
    .refine((v) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
    }, "Enter a date as YYYY-MM-DD.");

/**
 * An exact decimal (money or weight) with at most `scale` places, as a string: "1234.50".
 * Numbers are accepted and converted through their decimal text, never rounded. Left out or
 * empty it is 'This field is required.' when `isRequired`, else "0".
 */
export const decimal = (scale: number, options: { min?: number; isRequired?: boolean } = {}) =>
  z
    .preprocess(
      (v) => (v === null || v === undefined ? "" : v),
      z.union([z.string(), z.number()], { error: NOT_NUMBER }),
    )
    .transform((v) => (typeof v === "number" ? String(v) : v.trim().replace(/,/g, "")))
    .refine((v) => !options.isRequired || v !== "", REQUIRED)
    .transform((v) => (v === "" ? "0" : v))
    .refine(
      (v) => new RegExp(`^\\d{1,13}(\\.\\d{1,${scale}})?$`).test(v),
      scale === 2
        ? "Enter an amount such as 1234.50 (at most 2 decimals)."
        : `Enter a number with at most ${scale} decimals.`,
    )
    .refine((v) => options.min === undefined || Number(v) >= options.min, `Must be at least ${options.min}.`);

/**
 * For an object-level rule (a note required while its flag is on, expiry after validity): run it
 * even when other fields failed, so a form shows every error at once, as long as the fields it reads
 * parsed themselves. Zod skips such rules after any field error by default.
 */
export const whenFieldsParsed = (...fields: string[]) => ({
  when: (payload: z.core.ParsePayload) =>
    typeof payload.value === "object" &&
    payload.value !== null &&
    !payload.issues.some((issue) => fields.includes(String(issue.path?.[0]))),
});
