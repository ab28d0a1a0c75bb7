import type { ReactNode } from "react";
import type { z } from "zod";
import type { TDictionary, TDictionaryName } from "../../../db/contracts/dictionary";
import type { TApi } from "../../lib/api";
import type { TFilterKind } from "../../lib/list-search";

/** A list column: what it shows, and whether the API lets it sort and filter. */
export type TColumn<T> = {
  key: string;
  header: string;
  sortable?: boolean;
  filter?: TFilterKind;
  /** A "choice" filter's options (e.g. the statuses, or a dictionary's entries). */
  filterOptions?: (dictionaries: TDictionary) => readonly { value: string; label: string }[];
  /** Cell content; by default the row's value of `key`. */
  cell?: (row: T, dictionaries: TDictionary) => ReactNode;
  className?: string;
  /**
   * Hidden while the table is narrower than 72rem (1,152 px: a 1440 px screen with the sidebar open)
   * so the columns that matter fit; the print page still has every field. Same as priority 4.
   */
  isLowPriority?: boolean;
  /**
   * Which columns give way as the table narrows: 1 identifies or decides (reference, status,
   * counterpart, date) and always shows; 2 shows from a 48rem table, 3 from 64rem, 4 from 72rem,
   * 5 from 90rem. Default 2 (4 with isLowPriority). The column chooser overrides it per user.
   */
  priority?: TColumnPriority;
  /**
   * Its part in the phone's card (the table becomes one card per row below 36rem): "status" heads
   * the card, "title" names the row, "detail" lines follow with their headers. Without any, the
   * first column is the title and the other priority-1 columns are the details.
   */
  card?: "status" | "title" | "detail";
};

export type TColumnPriority = 1 | 2 | 3 | 4 | 5;

/** A form field: the kit renders the input, label and errors from this. */
export type TFieldConfig = {
  name: string;
  label: string;
  kind: "text" | "email" | "tel" | "textarea" | "select" | "checkbox" | "money" | "number" | "date" | "menu";
  /** A "menu" field: a side menu of choices, plus links that leave the form (e.g. to another screen). */
  choices?: readonly { value: string; label: string }[];
  links?: readonly { to: string; label: string }[];
  /** Shown under the input. */
  hint?: string;
  /** How the print page shows the value (default: by kind). */
  format?: (value: unknown, item: Record<string, unknown>) => string;
  /** Options of a select come from this dictionary. */
  dictionary?: TDictionaryName;
  /** Shown as required (the contract enforces it). */
  isRequired?: boolean;
  /** Required only while this flag field is on (spec: conditional requirement). */
  requiredWhen?: string;
  /** Money inputs: the ISO code of the amount's currency (default USD, shown as '$'). */
  currency?: string;
  /** Number inputs: min and step. */
  min?: number;
  step?: number;
  /** Grid span out of 2 columns. */
  span?: 1 | 2;
  autoComplete?: string;
};

/** Everything the kit needs to give an entity its list, edit and print screens. */
export type TEntityScreen<T extends { id: number }> = {
  /** API path under /api: "/contacts". */
  endpoint: string;
  /** How a row is named to people (delete confirmations): the company, the product number… */
  rowLabel?: (row: T) => string;
  noun: string;
  nounPlural: string;
  listTitle: string;
  createLabel: string;
  /** The create and edit pages' browser tab title and header ("Create Contact", "Edit Contact"). */
  createTitle: string;
  editTitle: string;
  saveLabel: string;
  /** Where a newly created record goes after saving (spec: contacts → list, others → edit page). */
  afterCreate: "list" | "edit";
  /**
   * Something the user must know about a record just saved (a contact that failed screening): shown
   * instead of a plain 'Save successful', with a link to the explanation.
   */
  savedNotice?: (
    item: T,
    api: TApi,
  ) => Promise<{ title: string; description: string; linkLabel: string; to: string } | null>;
  paths: { list: string; create: string; edit: (id: number) => string; print: (id: number) => string };
  dictionaries: readonly TDictionaryName[];
  columns: TColumn<T>[];
  fields: TFieldConfig[];
  /**
   * The zod contract shared with the server, loaded with the create and edit screens: list screens
   * never download zod or the contracts (read-only records have none).
   */
  loadSchema?: () => Promise<z.ZodType>;
  /** Form values for a new record, given the server's create defaults (GET /{entity}/edit). */
  blank: (defaults: Record<string, unknown>) => Record<string, unknown>;
  /** Which row actions the table offers (default: edit, print, delete). */
  rowActions?: readonly ("edit" | "print" | "delete")[];
  /** Attached files: where they upload, and whether files can be chosen before the first save. */
  documents?: { endpoint: string; chooseOnCreate?: boolean; label?: string };
  /** Form values for an existing record. */
  toForm: (item: T) => Record<string, unknown>;
  /**
   * The body a save sends, from the form values (spec section 5, e.g. contacts send flags as 1/0).
   * By default the values without created_at and updated_at, which the server sets.
   */
  toPayload?: (values: Record<string, unknown>) => Record<string, unknown>;
};

/** Fields the server owns; a save never sends them (spec section 5). */
const SERVER_FIELDS = ["created_at", "updated_at"] as const;

/** The values without the fields the server sets: what every entity sends by default. */
export function withoutServerFields(
  values: Record<string, unknown>,
  extra: readonly string[] = [],
): Record<string, unknown> {
  const dropped = new Set<string>([...SERVER_FIELDS, ...extra]);
  return Object.fromEntries(Object.entries(values).filter(([key]) => !dropped.has(key)));
}

/** What a save sends for a screen: its toPayload, or the values without the server's fields. */
export function payloadOf<T extends { id: number }>(
  screen: Pick<TEntityScreen<T>, "toPayload">,
  values: Record<string, unknown>,
): Record<string, unknown> {
  return screen.toPayload ? screen.toPayload(values) : withoutServerFields(values);
}
