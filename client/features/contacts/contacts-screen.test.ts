import { describe, expect, test } from "bun:test";
import { ZContactInput } from "../../../db/contracts/contacts";
import { payloadOf } from "../../components/kit/entity-config";
import { contactsScreen } from "./contacts-screen";

const form = {
  ...contactsScreen.blank({}),
  company: "Hanseatic Machinery GmbH",
  partner_type_id: 2,
  tax_id: "DE1",
  contact_1: "Greta",
  phone_1: "+49 40 1",
  email_1: "greta@hanseatic.example",
};

describe("saving a contact (spec section 5)", () => {
  test("flags go as 1 or 0, empty notes as '-', and created_at, updated_at and user_id stay home", () => {
    const payload = payloadOf(contactsScreen, {
      ...form,
      is_sensitive: true,
      sensitive_note: "Dual-use buyer",
      is_restricted: false,
      restricted_note: "  ",
      created_at: "2024-01-01T00:00:00Z",
      updated_at: "2024-01-02T00:00:00Z",
      user_id: 7,
    });
    expect(payload).toMatchObject({
      is_sensitive: 1,
      sensitive_note: "Dual-use buyer",
      is_restricted: 0,
      restricted_note: "-",
    });
    expect(payload).not.toHaveProperty("created_at");
    expect(payload).not.toHaveProperty("updated_at");
    expect(payload).not.toHaveProperty("user_id");
    // The server's contract takes the payload as it is.
    expect(ZContactInput.safeParse(payload).success).toBe(true);
  });

  test("a blank form sends both flags off and both notes as '-'", () => {
    const payload = payloadOf(contactsScreen, form);
    expect(payload).toMatchObject({
      is_sensitive: 0,
      sensitive_note: "-",
      is_restricted: 0,
      restricted_note: "-",
    });
  });

  test("loading a saved contact and saving it again sends the same values", () => {
    const values = contactsScreen.toForm({
      ...form,
      id: 3,
      partner_type_id: 2,
      country_id: null,
      tax_id_type: "vat",
      other_id_type: "eori",
      other_id: "DE123456789012345",
      street: "",
      city: "",
      state_province: "",
      postal_code: "",
      contact_2: "",
      phone_2: "",
      email_2: "",
      is_sensitive: 0,
      sensitive_note: "-",
      is_restricted: 1,
      restricted_note: "Denied party",
      last_shipment_date: null,
      user_id: 1,
      created_at: "2024-01-01T00:00:00Z",
      updated_at: "2024-01-01T00:00:00Z",
    });
    expect(payloadOf(contactsScreen, values)).toMatchObject({
      tax_id_type: "vat",
      other_id_type: "eori",
      other_id: "DE123456789012345",
      is_sensitive: 0,
      sensitive_note: "-",
      is_restricted: 1,
      restricted_note: "Denied party",
    });
  });
});
