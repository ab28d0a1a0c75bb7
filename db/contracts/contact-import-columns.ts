// The contacts import's columns, without zod: the server maps a file's header with them, and the
// import dialog lists them and offers a template file.

/** Every column the importer understands, with the header names people actually use for it. */
export const IMPORT_COLUMNS: Record<string, string[]> = {
  company: ["company", "company name", "name", "organisation", "organization", "business name"],
  partner_type: ["partner type", "partner_type", "partner type id", "partner_type_id", "type", "partner"],
  tax_id: ["tax id", "tax_id", "taxid", "vat", "vat number", "vat id", "ein", "tax number", "tin"],
  street: ["street", "address", "address 1", "address line 1", "street address"],
  city: ["city", "town"],
  state_province: ["state province", "state_province", "state", "province", "region", "state/province"],
  postal_code: ["postal code", "postal_code", "zip", "zip code", "postcode", "post code"],
  country: ["country", "country code", "country name", "country_id", "iso country", "country iso"],
  contact_1: ["contact 1", "contact_1", "contact", "contact name", "contact person"],
  phone_1: ["phone 1", "phone_1", "phone", "telephone", "tel"],
  email_1: ["email 1", "email_1", "e-mail 1", "email", "e-mail", "e mail", "mail"],
  contact_2: ["contact 2", "contact_2", "second contact"],
  phone_2: ["phone 2", "phone_2", "second phone"],
  email_2: ["email 2", "email_2", "e-mail 2", "second email"],
  is_sensitive: ["is sensitive", "is_sensitive", "sensitive"],
  sensitive_note: ["sensitive note", "sensitive_note"],
  is_restricted: ["is restricted", "is_restricted", "restricted"],
  restricted_note: ["restricted note", "restricted_note"],
};

/** How a column is named in messages when the file has no header for it (e.g. a note required by a flag). */
export const IMPORT_COLUMN_LABELS: Record<string, string> = {
  company: "Company",
  partner_type: "Partner type",
  tax_id: "Tax ID",
  street: "Street",
  city: "City",
  state_province: "State / Province",
  postal_code: "Postal code",
  country: "Country",
  contact_1: "Contact 1",
  phone_1: "Phone 1",
  email_1: "E-mail 1",
  contact_2: "Contact 2",
  phone_2: "Phone 2",
  email_2: "E-mail 2",
  is_sensitive: "Sensitive",
  sensitive_note: "Sensitive note",
  is_restricted: "Restricted",
  restricted_note: "Restricted note",
};

/** Columns a file must have: the contract's required fields. */
export const REQUIRED_IMPORT_COLUMNS = [
  "company",
  "partner_type",
  "tax_id",
  "contact_1",
  "phone_1",
  "email_1",
];

/** A template file: the header as the dialog names the columns, and one example row. */
export function importTemplateCsv(): string {
  const fields = Object.keys(IMPORT_COLUMN_LABELS);
  const example: Record<string, string> = {
    company: "Example Trading GmbH",
    partner_type: "Customer",
    tax_id: "DE123456789",
    street: "Hafenstrasse 1",
    city: "Hamburg",
    postal_code: "20457",
    country: "DE",
    contact_1: "Jana Beispiel",
    phone_1: "+49 40 1234567",
    email_1: "jana@example.com",
    is_sensitive: "no",
    is_restricted: "no",
  };
  return `${fields.map((f) => IMPORT_COLUMN_LABELS[f]).join(",")}\r\n${fields.map((f) => example[f] ?? "").join(",")}\r\n`;
}
