import { expect, test } from "bun:test";
import { steppedMoney } from "./entity-fields";

test("money inputs step in exact cents and not below their minimum", () => {
  expect(steppedMoney("1,234.5", 0.1, 1)).toBe("1234.60");
  expect(steppedMoney("0.2", 0.1, 1)).toBe("0.30");
  expect(steppedMoney("", 1, 1, 0)).toBe("1.00");
  expect(steppedMoney("0.05", 0.1, -1, 0)).toBe("0.00");
  expect(steppedMoney("abc", 1, 1)).toBeNull();
});
