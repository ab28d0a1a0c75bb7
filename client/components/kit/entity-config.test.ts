import { expect, test } from "bun:test";
import { payloadOf, withoutServerFields } from "./entity-config";

test("other entities send their values without created_at and updated_at", () => {
  const values = { name: "Memo", description: "", created_at: "x", updated_at: "y", is_sensitive: true };
  expect(payloadOf({}, values)).toEqual({ name: "Memo", description: "", is_sensitive: true });
  expect(withoutServerFields(values, ["description"])).toEqual({ name: "Memo", is_sensitive: true });
});

test("a screen's own toPayload replaces the default", () => {
  expect(payloadOf({ toPayload: (v) => ({ wrapped: v.name }) }, { name: "A", created_at: "x" })).toEqual({
    wrapped: "A",
  });
});
