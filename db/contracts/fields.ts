import { z } from "zod";

/** Field building blocks shared by every entity contract, with the spec's messages. */
export const REQUIRED = "This field is required.";
export const EMAIL_INVALID = "E-mail is invalid";

/** A required text: trimmed, not empty ('This field is required.'), bounded. */
export const requiredText = (max = 255) =>
  z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(max, `Please use at most ${max} characters.`);

/** An optional text: null and missing become "". */
export const optionalText = (max = 255) =>
  z
    .string({ error: "Must be text." })
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

/** A required reference to another record by id. */
export const requiredId = () =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.coerce.number({ error: REQUIRED }).int(REQUIRED).positive(REQUIRED),
  );

/** An optional reference by id; "" and null mean none. */
export const optionalId = () =>
  z.preprocess(
    (v) => (v === "" || v === undefined ? null : v),
    z.coerce.number({ error: "Must be an id." }).int("Must be an id.").positive("Must be an id.").nullable(),
  );

/** An e-mail address that must be given. */
export const requiredEmail = () => requiredText(254).pipe(z.email({ error: EMAIL_INVALID }));

/** An e-mail address that may be left empty. */
export const optionalEmail = () =>
  optionalText(254).refine((v) => v === "" || z.email().safeParse(v).success, EMAIL_INVALID);

/** A calendar date as YYYY-MM-DD that really exists (2024-02-30 does not). */
export const isoDate = () =>
  z
    .string({ error: REQUIRED })
    .trim()
    .min(1, REQUIRED)
    .refine((v) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
    }, "Enter a date as YYYY-MM-DD.");

/**
 * An exact decimal (money or weight) with at most `scale` places, as a string: "1234.50".
 * Numbers are accepted and converted through their decimal text, never rounded.
 */
export const decimal = (scale: number, options: { min?: number; isRequired?: boolean } = {}) =>
  z
    .union([z.string(), z.number()], { error: REQUIRED })
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
