import { describe, expect, test } from "bun:test";
import { z } from "zod";
import {
  decimal,
  isoDate,
  NOT_ID,
  NOT_NUMBER,
  NOT_TEXT,
  optionalId,
  optionalText,
  REQUIRED,
  requiredId,
  requiredText,
} from "./fields";

/** The messages a field gives for a value, or its parsed value when it passes. */
function check(schema: z.ZodType, value: unknown) {
  const result = z.object({ field: schema }).safeParse(value === undefined ? {} : { field: value });
  return result.success
    ? { value: (result.data as { field: unknown }).field }
    : { errors: result.error.issues.map((i) => i.message) };
}

describe("ids", () => {
  test.each([
    [2, 2],
    ["2", 2],
    [" 17 ", 17],
  ])("requiredId accepts %p as %p", (input, expected) => {
    expect(check(requiredId(), input)).toEqual({ value: expected });
  });

  test.each([undefined, null, "", "  ", 0])("requiredId: %p is missing", (input) => {
    expect(check(requiredId(), input)).toEqual({ errors: [REQUIRED] });
  });

  test("requiredId refuses other types and shapes with 'Must be an id.' (no coercion of true or [2])", () => {
    for (const input of [true, false, [2], { id: 2 }, "2abc", "1e3", "-3", 1.5, -3, "0x10"]) {
      expect(check(requiredId(), input), JSON.stringify(input)).toEqual({ errors: [NOT_ID] });
    }
  });

  test("optionalId: blank is none; digits and whole numbers pass; other types are refused", () => {
    for (const blank of [undefined, null, "", " "])
      expect(check(optionalId(), blank)).toEqual({ value: null });
    expect(check(optionalId(), "44")).toEqual({ value: 44 });
    expect(check(optionalId(), 44)).toEqual({ value: 44 });
    for (const wrong of [true, [44], "x", 0, 2.5])
      expect(check(optionalId(), wrong)).toEqual({ errors: [NOT_ID] });
  });
});

describe("texts, dates and decimals", () => {
  test("a required text says 'required' when missing or blank, 'Must be text.' for another type", () => {
    for (const missing of [undefined, null, "", "   "]) {
      expect(check(requiredText(), missing)).toEqual({ errors: [REQUIRED] });
    }
    for (const wrong of [42, true, ["a"], { a: 1 }]) {
      expect(check(requiredText(), wrong)).toEqual({ errors: [NOT_TEXT] });
    }
    expect(check(requiredText(), "  Acme  ")).toEqual({ value: "Acme" });
    expect(check(optionalText(), 42)).toEqual({ errors: [NOT_TEXT] });
  });

  test("a date says 'required' when missing and asks for YYYY-MM-DD for another type", () => {
    expect(check(isoDate(), undefined)).toEqual({ errors: [REQUIRED] });
    expect(check(isoDate(), 20260101)).toEqual({ errors: ["Enter a date as YYYY-MM-DD."] });
    expect(check(isoDate(), "2026-01-01")).toEqual({ value: "2026-01-01" });
  });

  test("a decimal: missing is 0 unless required; another type is 'Must be a number.'", () => {
    for (const missing of [undefined, null, ""]) {
      expect(check(decimal(3), missing)).toEqual({ value: "0" });
      expect(check(decimal(2, { isRequired: true }), missing)).toEqual({ errors: [REQUIRED] });
    }
    for (const wrong of [true, ["1"], { v: 1 }])
      expect(check(decimal(2), wrong)).toEqual({ errors: [NOT_NUMBER] });
    expect(check(decimal(2), "1,234.5")).toEqual({ value: "1234.5" });
    expect(check(decimal(3), 2.75)).toEqual({ value: "2.75" });
  });
});
