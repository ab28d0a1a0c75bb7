import type { ReactNode } from "react";
import type { z } from "zod";
import type { TDictionary, TDictionaryName } from "../../../db/contracts/dictionary";

/** A list column: what it shows, and whether the API lets it sort and filter. */
export type TColumn<T> = {
  key: string;
  header: string;
  sortable?: boolean;
  filter?: "text" | "boolean";
  /** Cell content; by default the row's value of `key`. */
  cell?: (row: T, dictionaries: TDictionary) => ReactNode;
  className?: string;
};

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
  noun: string;
  nounPlural: string;
  listTitle: string;
  createLabel: string;
  createTitle: string;
  editTitle: string;
  saveLabel: string;
  /** Where a newly created record goes after saving (spec: contacts → list, others → edit page). */
  afterCreate: "list" | "edit";
  paths: { list: string; create: string; edit: (id: number) => string; print: (id: number) => string };
  dictionaries: readonly TDictionaryName[];
  columns: TColumn<T>[];
  fields: TFieldConfig[];
  /** The zod contract shared with the server. */
  schema: z.ZodType;
  /** Form values for a new record, given the server's create defaults (GET /{entity}/edit). */
  blank: (defaults: Record<string, unknown>) => Record<string, unknown>;
  /** Which row actions the table offers (default: edit, print, delete). */
  rowActions?: readonly ("edit" | "print" | "delete")[];
  /** Attached files: where they upload, and whether files can be chosen before the first save. */
  documents?: { endpoint: string; chooseOnCreate?: boolean; label?: string };
  /** Form values for an existing record. */
  toForm: (item: T) => Record<string, unknown>;
};
