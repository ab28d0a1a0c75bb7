import { BookUserIcon, SearchIcon, XIcon } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import type { TContact } from "../../../db/contracts/contacts";
import type { TDictionaryOption } from "../../../db/contracts/dictionary";
import type { TShipmentParty } from "../../../db/contracts/shipments";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import type { TApi } from "../../lib/api";
import { cn } from "../../lib/utils";

/** How long typing pauses before the address book is searched. */
const SEARCH_DEBOUNCE_MS = 250;
const RESULT_LIMIT = 20;

export type TPickedParty = { id: number; company: string; city: string; country: string | null };

/**
 * Picks a contact from the address book. The search runs on the server (the contacts list with a
 * company filter, 20 results, debounced), so an address book of thousands stays fast. A combobox:
 * type to search, arrows to move, Enter to pick, Escape to close.
 */
export function PartyPicker({
  api,
  label,
  value,
  party,
  countries,
  onChange,
}: {
  api: TApi;
  label: string;
  value: number | null;
  /** What is known about the chosen contact (from the shipment or the last pick). */
  party: TShipmentParty | TPickedParty | null;
  /** To show a result's country by name. */
  countries: TDictionaryOption[];
  onChange: (party: TPickedParty | null) => void;
}) {
  const id = useId();
  const [query, setQuery] = useState("");
  const [isOpen, setIsOpen] = useState(false);
  const [results, setResults] = useState<TPickedParty[]>([]);
  const [isLoading, setIsLoading] = useState(false);
  const [isError, setIsError] = useState(false);
  const [active, setActive] = useState(0);
  const request = useRef(0);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!isOpen) return;
    const seq = ++request.current;
    setIsLoading(true);
    const timer = setTimeout(async () => {
      const params = new URLSearchParams({ page: "1", per_page: String(RESULT_LIMIT), sort_company: "asc" });
      if (query.trim()) params.set("filters[company]", query.trim());
      try {
        const page = await api.get<{ data: TContact[] }>(`/contacts?${params}`);
        if (seq !== request.current) return;
        setResults(
          page.data.map((c) => ({
            id: c.id,
            company: c.company,
            city: c.city,
            country: countries.find((o) => o.id === c.country_id)?.label ?? null,
          })),
        );
        setIsError(false);
        setActive(0);
      } catch {
        if (seq === request.current) setIsError(true);
      } finally {
        if (seq === request.current) setIsLoading(false);
      }
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [api, query, isOpen, countries]);

  const pick = (next: TPickedParty) => {
    onChange(next);
    setIsOpen(false);
    setQuery("");
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setIsOpen(true);
      setActive((a) => Math.min(a + 1, Math.max(results.length - 1, 0)));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (event.key === "Enter") {
      if (isOpen && results[active]) {
        event.preventDefault();
        pick(results[active]);
      }
    } else if (event.key === "Escape" && isOpen) {
      event.preventDefault();
      setIsOpen(false);
    }
  };
  const listId = `${id}-list`;
  const inputId = `${id}-input`;
  const chosen = value
    ? (party ?? { id: value, company: `Contact #${value}`, city: "", country: null })
    : null;

  return (
    <div className="space-y-2">
      <Label htmlFor={inputId}>{label}</Label>
      {chosen && (
        <div
          className="flex items-center gap-2 rounded-md border bg-muted/30 px-3 py-2 text-sm"
          data-party={label}
        >
          {/* Neutral: the chip says who was chosen; the screening card below says whether they passed. */}
          <BookUserIcon className="size-4 text-muted-foreground" aria-hidden />
          <span className="min-w-0 flex-1">
            <span className="font-medium">{chosen.company}</span>
            {(chosen.city || chosen.country) && (
              <span className="text-muted-foreground">
                {" "}
                — {[chosen.city, chosen.country].filter(Boolean).join(", ")}
              </span>
            )}
          </span>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="size-7"
            aria-label={`Clear ${label}`}
            onClick={() => onChange(null)}
          >
            <XIcon />
          </Button>
        </div>
      )}
      <div className="relative">
        <SearchIcon
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden
        />
        <Input
          ref={input}
          id={inputId}
          role="combobox"
          aria-expanded={isOpen}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={isOpen && results[active] ? `${id}-opt-${results[active].id}` : undefined}
          autoComplete="off"
          className="pl-9"
          placeholder={chosen ? "Search to change…" : "Search the address book…"}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setIsOpen(true);
          }}
          onFocus={() => setIsOpen(true)}
          onBlur={() => setTimeout(() => setIsOpen(false), 150)}
          onKeyDown={onKeyDown}
        />
        {isOpen && (
          <div className="absolute z-30 mt-1 w-full rounded-md border bg-popover text-popover-foreground shadow-md">
            {isLoading && results.length === 0 ? (
              <p className="flex items-center gap-2 p-3 text-sm text-muted-foreground">
                <Spinner /> Searching…
              </p>
            ) : isError ? (
              <p className="p-3 text-sm text-destructive">Could not search the address book.</p>
            ) : results.length === 0 ? (
              <p className="p-3 text-sm text-muted-foreground">No contacts match.</p>
            ) : null}
            <div
              id={listId}
              role="listbox"
              aria-label={`${label} results`}
              className="max-h-64 overflow-auto py-1"
            >
              {results.map((r, index) => (
                <div
                  key={r.id}
                  tabIndex={-1}
                  id={`${id}-opt-${r.id}`}
                  role="option"
                  aria-selected={index === active}
                  className={cn(
                    "cursor-pointer px-3 py-2 text-sm",
                    index === active && "bg-accent text-accent-foreground",
                  )}
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => pick(r)}
                  onMouseEnter={() => setActive(index)}
                  onKeyDown={() => undefined}
                >
                  <span className="font-medium">{r.company}</span>
                  {(r.city || r.country) && (
                    <span className="text-muted-foreground">
                      {" "}
                      — {[r.city, r.country].filter(Boolean).join(", ")}
                    </span>
                  )}
                </div>
              ))}
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
