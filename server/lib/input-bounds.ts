import type { z } from "zod";
import type { TFieldErrors } from "./errors";

/**
 * Longest list any JSON body may hold where its contract sets no maximum of its own (the largest
 * contract maximum is a shipment's 500 lines). A longer list is refused before its elements are
 * looked at, so a 1 MB body of 240,000 bad strings costs one issue instead of 240,000.
 */
export const MAX_ARRAY_ITEMS = 1000;
/** How many field problems one error answer lists; the rest are counted, not repeated. */
export const MAX_ISSUES_REPORTED = 20;

type TDef = {
  type?: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  checks?: { _zod?: { def?: { check?: string; maximum?: number } } }[];
  getter?: () => z.ZodType;
};

const defOf = (schema: unknown): TDef | undefined => (schema as { _zod?: { def?: TDef } })?._zod?.def;

/** The schema under wrappers that do not change the shape (optional, nullable, default, pipe…). */
function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  for (let depth = 0; current && depth < 16; depth++) {
    const def = defOf(current);
    if (!def) return undefined;
    if (def.innerType) current = def.innerType;
    else if (def.type === "pipe" && def.in) current = def.in;
    else if (def.type === "lazy" && def.getter) current = def.getter();
    else return current;
  }
  return current;
}

function maxItems(schema: z.ZodType | undefined): number {
  const declared = defOf(schema)
    ?.checks?.map((check) => check._zod?.def)
    .find((def) => def?.check === "max_length")?.maximum;
  return Math.min(declared ?? MAX_ARRAY_ITEMS, MAX_ARRAY_ITEMS);
}

/**
 * Lists that are longer than their contract allows (or than MAX_ARRAY_ITEMS where it sets no
 * maximum), found by walking the value alongside the schema before the schema runs; null when none.
 * Linear in the body's size and cheap: the body itself is capped at 1 MB.
 */
export function oversizeArrayErrors(schema: z.ZodType, value: unknown): TFieldErrors | null {
  const errors: TFieldErrors = {};
  let found = 0;
  const walk = (node: unknown, nodeSchema: z.ZodType | undefined, path: string, depth: number) => {
    if (found >= MAX_ISSUES_REPORTED || depth > 32 || node === null || typeof node !== "object") return;
    const inner = unwrap(nodeSchema);
    const def = defOf(inner);
    if (Array.isArray(node)) {
      const limit = maxItems(def?.type === "array" ? inner : undefined);
      if (node.length > limit) {
        found += 1;
        errors[path || "_"] = [`Send at most ${limit} items in this list (${node.length} were sent).`];
        return;
      }
      const element = def?.type === "array" ? def.element : undefined;
      for (let i = 0; i < node.length; i++)
        walk(node[i], element, path ? `${path}.${i}` : String(i), depth + 1);
      return;
    }
    const shape = def?.type === "object" ? def.shape : undefined;
    for (const key of Object.keys(node)) {
      walk((node as Record<string, unknown>)[key], shape?.[key], path ? `${path}.${key}` : key, depth + 1);
    }
  };
  walk(value, schema, "", 0);
  return found ? errors : null;
}

/** Longest error message an answer carries; a longer one is cut with an ellipsis. */
const MAX_MESSAGE_CHARS = 2000;

const cut = (text: string) =>
  text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;

/**
 * The error handler's last guard on what an error answer carries, whatever raised it: at most
 * MAX_ISSUES_REPORTED fields (the rest counted under `_`) and messages of bounded length.
 */
export function boundErrorAnswer(
  message: string,
  errors: TFieldErrors | undefined,
): { message: string; errors?: TFieldErrors } {
  if (!errors) return { message: cut(message) };
  // `_` (the general problems, where the count of omitted ones goes) is always kept.
  const entries = Object.entries(errors).filter(([field]) => field !== "_");
  const kept: TFieldErrors = {};
  for (const [field, messages] of entries.slice(0, MAX_ISSUES_REPORTED)) {
    kept[field] = messages.slice(0, MAX_ISSUES_REPORTED).map(cut);
  }
  if (errors._) kept._ = errors._.slice(0, MAX_ISSUES_REPORTED).map(cut);
  const omitted = entries.length - Math.min(entries.length, MAX_ISSUES_REPORTED);
  if (omitted > 0) {
    kept._ = [
      ...(kept._ ?? []),
      `${omitted} more ${omitted === 1 ? "field has" : "fields have"} problems not listed.`,
    ];
  }
  return { message: cut(message), errors: kept };
}
