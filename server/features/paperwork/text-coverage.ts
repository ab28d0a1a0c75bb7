// A character no font of the paperwork has would be dropped from the PDF without a trace (jsPDF
// draws nothing for it). Before anything is drawn, every text of the model is checked against the
// fonts' character maps; the first character none of them has refuses the generation, naming the
// field and the character, so the user can correct the record.
import type { TPaperParty, TPaperworkModel } from "./paperwork.render";
import { FONT_CHAIN, loadAllScriptFonts, loadScriptFont } from "./script-fonts";

export type TUnrenderable = { field: string; label: string; char: string; codepoint: string };

const PARTIES: [
  keyof Pick<TPaperworkModel, "exporter" | "importer" | "consignee" | "notify_party">,
  string,
][] = [
  ["exporter", "Exporter"],
  ["importer", "Importer of record"],
  ["consignee", "Ultimate consignee"],
  ["notify_party", "Notify party"],
];

const PARTY_FIELDS: Record<keyof TPaperParty, string> = {
  company: "company",
  street: "street",
  city: "city",
  state_province: "state / province",
  postal_code: "postal code",
  country: "country",
  tax_id: "tax ID",
  tax_id_label: "tax ID type",
  other_id_label: "second identifier type",
  other_id: "second identifier",
  contact: "contact",
  phone: "phone",
  email: "e-mail",
};

/** Every printed text of the model with its field key and a label a user recognises. */
export function printedTexts(model: TPaperworkModel): { field: string; label: string; text: string }[] {
  const out: { field: string; label: string; text: string }[] = [];
  for (const [key, name] of PARTIES) {
    const party = model[key];
    if (!party) continue;
    for (const [field, label] of Object.entries(PARTY_FIELDS) as [keyof TPaperParty, string][]) {
      out.push({ field: `${key}.${field}`, label: `${name}: ${label}`, text: party[field] ?? "" });
    }
  }
  model.lines.forEach((line, i) => {
    const item = `Item ${i + 1}${line.product_number ? ` (${line.product_number})` : ""}`;
    for (const key of ["product_number", "name", "description", "hts", "eccn", "origin"] as const) {
      out.push({ field: `lines.${i}.${key}`, label: `${item}: ${key.replace("_", " ")}`, text: line[key] });
    }
  });
  model.packages.forEach((p, i) => {
    out.push({ field: `packages.${i}.type`, label: `Package ${i + 1}: type`, text: p.type });
  });
  const plain: [string, string, string][] = [
    ["carrier", "Carrier", model.carrier],
    ["mode_of_transport", "Mode of transport", model.mode_of_transport],
    ["bol_hawb_tracking", "BOL / HAWB / tracking", model.bol_hawb_tracking],
    ["port_of_export", "Port of export", model.port_of_export],
    ["port_of_import", "Port of import", model.port_of_import],
    ["incoterm_place", "Incoterm place", model.incoterm_place],
    ["payment_terms", "Payment terms", model.payment_terms],
    ["consignee_reference", "Consignee reference", model.consignee_reference],
    ["shipper_reference", "Shipper reference", model.shipper_reference],
    ["statement", "Statement", model.statement],
    ["marks", "Marks and numbers", model.marks],
    ["letterhead", "Letterhead", model.letterhead ?? ""],
    ["other_charges_label", "Other charges label", model.other_charges_label ?? ""],
    ["user_name", "Signatory name", model.signature.name],
    ["user_title", "Signatory title", model.signature.title],
  ];
  for (const [field, label, text] of plain) out.push({ field, label, text: text ?? "" });
  model.tracking_numbers.forEach((text, i) => {
    out.push({ field: `tracking_number_${i + 1}`, label: `Tracking number ${i + 1}`, text });
  });
  return out;
}

// Controls, format characters (joiners, direction marks) and separators are not drawn as glyphs.
const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Z}]$/u;

/** The first character of the model no paperwork font has, or null when everything can be printed. */
export async function findUnrenderable(model: TPaperworkModel): Promise<TUnrenderable | null> {
  const latin = await loadScriptFont(FONT_CHAIN[0]);
  let all: Set<number>[] | null = null;
  for (const { field, label, text } of printedTexts(model)) {
    for (const char of text) {
      const code = char.codePointAt(0) ?? 0;
      if (latin.covers.has(code) || INVISIBLE.test(char)) continue;
      all ??= (await loadAllScriptFonts()).map((f) => f.covers);
      if (all.some((covers) => covers.has(code))) continue;
      return {
        field,
        label,
        char,
        codepoint: `U+${code.toString(16).toUpperCase().padStart(4, "0")}`,
      };
    }
  }
  return null;
}
