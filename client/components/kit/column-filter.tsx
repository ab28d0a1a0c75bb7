import { FilterIcon } from "lucide-react";
import { type KeyboardEvent, useState } from "react";
import type { TDictionary } from "../../../db/contracts/dictionary";
import { isDateFilter } from "../../lib/list-search";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { NativeSelect, NativeSelectOption } from "../ui/native-select";
import { Popover, PopoverContent, PopoverTrigger } from "../ui/popover";
import type { TColumn } from "./entity-config";

/**
 * A column's filter drop-down. Text: Apply needs a non-empty value, Escape clears. Boolean:
 * True = 1, False = 0. Apply and Clear close it.
 */
export function ColumnFilter<T>({
  column,
  dictionaries,
  value,
  onApply,
}: {
  column: TColumn<T>;
  dictionaries: TDictionary;
  value: string | undefined;
  onApply: (value: string | undefined) => void;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const [draft, setDraft] = useState(value ?? "");
  const apply = (next: string | undefined) => {
    onApply(next);
    setIsOpen(false);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      setDraft("");
      apply(undefined);
    }
  };
  const id = `filter-${column.key}`;
  return (
    <Popover
      open={isOpen}
      onOpenChange={(open) => {
        setIsOpen(open);
        if (open) setDraft(value ?? "");
      }}
    >
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className={cn("size-7", value !== undefined && "text-primary")}
          aria-label={`Filter by ${column.header}`}
          data-active={value !== undefined}
        >
          <FilterIcon className={value !== undefined ? "fill-current" : undefined} />
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-64 space-y-3" onKeyDown={onKeyDown} align="start">
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (isApplicable(column, draft)) apply(draft.trim());
          }}
        >
          {column.filter === "date" ? (
            <DateRangeInputs id={id} header={column.header} value={draft} onChange={setDraft} />
          ) : column.filter === "choice" ? (
            <div className="space-y-1">
              <Label htmlFor={id}>Filter {column.header}</Label>
              <NativeSelect
                id={id}
                wrapperClassName="w-full"
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
              >
                <NativeSelectOption value="">Choose…</NativeSelectOption>
                {(column.filterOptions?.(dictionaries) ?? []).map((o) => (
                  <NativeSelectOption key={o.value} value={o.value}>
                    {o.label}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </div>
          ) : column.filter === "boolean" ? (
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">{column.header}</legend>
              {[
                ["1", "True"],
                ["0", "False"],
              ].map(([v, label]) => (
                <label key={v} className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name={id}
                    value={v}
                    checked={draft === v}
                    onChange={() => setDraft(v)}
                  />
                  {label}
                </label>
              ))}
            </fieldset>
          ) : (
            <div className="space-y-1">
              <Label htmlFor={id}>Filter {column.header}</Label>
              <Input id={id} value={draft} onChange={(e) => setDraft(e.target.value)} autoFocus />
            </div>
          )}
          <div className="flex justify-end gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => {
                setDraft("");
                apply(undefined);
              }}
            >
              Clear
            </Button>
            <Button type="submit" size="sm" disabled={!isApplicable(column, draft)}>
              Apply
            </Button>
          </div>
        </form>
      </PopoverContent>
    </Popover>
  );
}

/** Apply needs a value: non-empty text, a choice, or at least one end of a date range. */
function isApplicable<T>(column: TColumn<T>, draft: string): boolean {
  return column.filter === "date" ? isDateFilter(draft.trim()) : draft.trim() !== "";
}

/** From and To days of a date filter, kept as "from..to" (either end may be empty). */
function DateRangeInputs({
  id,
  header,
  value,
  onChange,
}: {
  id: string;
  header: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const [from = "", to = ""] = value.includes("..") ? value.split("..") : [value, value];
  const set = (nextFrom: string, nextTo: string) =>
    onChange(nextFrom || nextTo ? `${nextFrom}..${nextTo}` : "");
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{header}</legend>
      <div className="space-y-1">
        <Label htmlFor={`${id}-from`}>From</Label>
        <Input
          id={`${id}-from`}
          type="date"
          value={from}
          onChange={(e) => set(e.target.value, to)}
          autoFocus
        />
      </div>
      <div className="space-y-1">
        <Label htmlFor={`${id}-to`}>To</Label>
        <Input id={`${id}-to`} type="date" value={to} onChange={(e) => set(from, e.target.value)} />
      </div>
    </fieldset>
  );
}
