import { describe, expect, test } from "bun:test";
import {
  adviseAes,
  aesLegend,
  DESTINATION_CONTROL_STATEMENT,
  defaultProformaValidUntil,
  hasDestinationControlStatement,
  isControlledEccn,
  ZAesCitation,
} from "./paperwork";

describe("AES / EEI", () => {
  test("an ITN or a listed exemption legend is accepted; anything else is refused", () => {
    expect(ZAesCitation.parse("x20261120123456")).toBe("X20261120123456");
    expect(ZAesCitation.parse("NOEEI § 30.37(a)")).toBe("NOEEI § 30.37(a)");
    expect(ZAesCitation.parse("")).toBe("");
    expect(ZAesCitation.safeParse("X2026112012345").success).toBe(false);
    expect(ZAesCitation.safeParse("NOEEI 30.37(a)").success).toBe(false);
  });
  test("an ITN prints as AES X…", () => {
    expect(aesLegend("X20261120123456")).toBe("AES X20261120123456");
    expect(aesLegend("NOEEI § 30.36")).toBe("NOEEI § 30.36");
    expect(aesLegend("")).toBe("");
  });
  test("NOEEI § 30.37(a) only when every Schedule B code sums to at most $2,500 and no licence is needed", () => {
    const line = (hts: string, extended_value: string, needs_license = false) => ({
      hts,
      extended_value,
      needs_license,
    });
    expect(
      adviseAes([line("8471.30.0100", "2500.00"), line("8517.62.0090", "2500.00")], "USD").suggestion,
    ).toBe("NOEEI § 30.37(a)");
    // Two lines under one code add up past the limit (the dots in the code do not matter).
    const over = adviseAes([line("8471.30.0100", "1250.00"), line("8471300100", "1250.01")], "USD");
    expect(over.kind).toBe("itn_required");
    expect(over.message).toContain("8471300100");
    // A licence needs EEI whatever the value.
    expect(adviseAes([line("8471.30.0100", "1.00", true)], "USD").kind).toBe("itn_required");
    // Not in dollars: no suggestion.
    expect(adviseAes([line("8471.30.0100", "1.00")], "EUR").kind).toBe("itn_required");
  });
});

describe("Destination Control Statement", () => {
  test("only ECCNs other than EAR99 are controlled", () => {
    expect(isControlledEccn("EAR99")).toBe(false);
    expect(isControlledEccn("ear99")).toBe(false);
    expect(isControlledEccn("5A002.a")).toBe(true);
  });
  test("the statement counts as present only with the full wording", () => {
    expect(
      hasDestinationControlStatement(`Note.\n${DESTINATION_CONTROL_STATEMENT.replace(/ /g, "\n")}`),
    ).toBe(true);
    expect(hasDestinationControlStatement(DESTINATION_CONTROL_STATEMENT.replace("resold, ", ""))).toBe(false);
    expect(DESTINATION_CONTROL_STATEMENT).not.toContain("Diversion contrary");
  });
});

test("a proforma is valid for 30 days after the ship date by default", () => {
  expect(defaultProformaValidUntil("2026-11-21")).toBe("2026-12-21");
  expect(defaultProformaValidUntil("2026-12-15")).toBe("2027-01-14");
  expect(defaultProformaValidUntil(null)).toBeNull();
});
