import { describe, expect, test } from "bun:test";
import { ZContactInput } from "./contacts";
import { REQUIRED } from "./fields";
import { EXPIRY_BEFORE_VALID, ZLicenseInput } from "./licenses";
import { ZProductInput } from "./products";

// A form shows every error at once; the conditional ones (a note required by its flag,
// expiry before validity) are not held back until the other fields are fixed.

const pathsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  (result.error?.issues ?? []).map((issue) => issue.path.join("."));

describe("every validation error at once", () => {
  test("contact: the Sensitive and Restricted notes fail together with the missing required fields", () => {
    const result = ZContactInput.safeParse({
      company: "",
      partner_type_id: "",
      tax_id: "",
      contact_1: "",
      phone_1: "",
      email_1: "",
      is_sensitive: true,
      sensitive_note: "",
      is_restricted: true,
      restricted_note: "",
    });
    expect(pathsOf(result)).toEqual(
      expect.arrayContaining(["company", "partner_type_id", "email_1", "sensitive_note", "restricted_note"]),
    );
    const note = result.error?.issues.find((issue) => issue.path[0] === "sensitive_note");
    expect(note?.message).toBe(REQUIRED);
  });

  test("product: the Sensitive message fails together with the others", () => {
    const result = ZProductInput.safeParse({ name: "", is_sensitive: true, sensitive_message: "" });
    expect(pathsOf(result)).toEqual(expect.arrayContaining(["name", "HTS", "sensitive_message"]));
  });

  test("licence: expiry before validity fails together with a missing name", () => {
    const result = ZLicenseInput.safeParse({
      licence_name: "",
      valid_date: "2026-05-02",
      expiration_date: "2026-05-01",
      reference_number_1: "R1",
      reference_number_2: "R2",
      status: "pending",
      country_id: 1,
      contact_id: 1,
    });
    expect(pathsOf(result)).toEqual(expect.arrayContaining(["licence_name", "expiration_date"]));
    expect(result.error?.issues.find((i) => i.path[0] === "expiration_date")?.message).toBe(
      EXPIRY_BEFORE_VALID,
    );
  });

  test("a rule whose own field failed stays quiet rather than guessing", () => {
    const result = ZLicenseInput.safeParse({ valid_date: "not a date", expiration_date: "2026-05-01" });
    expect(result.error?.issues.filter((i) => i.message === EXPIRY_BEFORE_VALID)).toEqual([]);
  });
});
