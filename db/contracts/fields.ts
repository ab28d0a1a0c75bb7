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
