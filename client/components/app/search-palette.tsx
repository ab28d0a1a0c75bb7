import { useNavigate, useRouteContext } from "@tanstack/react-router";
import { BookUserIcon, FileBadgeIcon, PackageIcon, SearchIcon, ShipIcon } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useState } from "react";
import type { TSearchAnswer, TSearchHit, TSearchKind } from "../../../db/contracts/search";
import { cn } from "../../lib/utils";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "../ui/dialog";
import { Spinner } from "../ui/spinner";

const KIND_LABELS: Record<TSearchKind, string> = {
  contact: "Contacts",
  product: "Products",
  license: "Licences",
  shipment: "Shipments",
};
const KIND_ICONS = {
  contact: BookUserIcon,
  product: PackageIcon,
  license: FileBadgeIcon,
  shipment: ShipIcon,
};

/** How long typing pauses before the search runs. */
const SEARCH_DELAY_MS = 180;

/**
 * The global search: one field over contacts, products, licences and shipments (reference, tracking
 * number, counterpart). Keyboard first: type, ↑/↓ to move, Enter to open, Esc to close.
 */
export function SearchPalette({
  isOpen,
  onOpenChange,
}: {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { api } = useRouteContext({ from: "__root__" });
  const navigate = useNavigate();
  const [q, setQ] = useState("");
  const [answer, setAnswer] = useState<TSearchAnswer | null>(null);
  const [isLoading, setIsLoading] = useState(false);
  const [active, setActive] = useState(0);
  const listId = useId();

  useEffect(() => {
    const query = q.trim();
    if (query.length < 2) {
      setAnswer(null);
      setIsLoading(false);
      return;
    }
    let isCurrent = true;
    setIsLoading(true);
    const timer = setTimeout(() => {
      api
        .get<TSearchAnswer>(`/search?q=${encodeURIComponent(query)}`)
        .then((next) => {
          if (!isCurrent) return;
          setAnswer(next);
          setActive(0);
        })
        .catch(() => isCurrent && setAnswer({ q: query, hits: [] }))
        .finally(() => isCurrent && setIsLoading(false));
    }, SEARCH_DELAY_MS);
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [q, api]);

  const hits = answer?.hits ?? [];
  const open = (hit: TSearchHit) => {
    onOpenChange(false);
    setQ("");
    void navigate({ to: hit.path });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" && hits.length) {
      event.preventDefault();
      setActive((i) => (i + 1) % hits.length);
    } else if (event.key === "ArrowUp" && hits.length) {
      event.preventDefault();
      setActive((i) => (i - 1 + hits.length) % hits.length);
    } else if (event.key === "Enter" && hits[active]) {
      event.preventDefault();
      open(hits[active]);
    }
  };

  const optionId = (i: number) => `${listId}-option-${i}`;
  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogContent className="top-[15%] translate-y-0 gap-0 p-0 sm:max-w-xl" data-testid="search-palette">
        <DialogTitle className="sr-only">Search</DialogTitle>
        <DialogDescription className="sr-only">
          Contacts, products, licences and shipments. Use the arrow keys to choose and Enter to open.
        </DialogDescription>
        <div className="flex items-center gap-2 border-b px-3">
          <SearchIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          <input
            role="combobox"
            aria-label="Search contacts, products, licences and shipments"
            aria-expanded={hits.length > 0}
            aria-controls={listId}
            aria-activedescendant={hits.length ? optionId(active) : undefined}
            aria-autocomplete="list"
            className="h-12 w-full bg-transparent text-sm outline-none"
            placeholder="Company, product, licence, reference or tracking number…"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            onKeyDown={onKeyDown}
          />
          {isLoading && <Spinner />}
        </div>
        <div className="max-h-[60vh] overflow-y-auto p-2">
          {q.trim().length < 2 ? (
            <p className="px-2 py-6 text-center text-sm text-muted-foreground">Type at least 2 characters.</p>
          ) : answer && !hits.length && !isLoading ? (
            <p className="px-2 py-6 text-center text-sm text-muted-foreground" role="status">
              Nothing found for “{answer.q}”.
            </p>
          ) : null}
          <div
            id={listId}
            role="listbox"
            aria-label="Search results"
            className={cn(!hits.length && "hidden")}
          >
            {hits.map((hit, i) => {
              const Icon = KIND_ICONS[hit.kind];
              const isFirstOfKind = i === 0 || hits[i - 1].kind !== hit.kind;
              return (
                <div key={`${hit.kind}:${hit.id}`} role="presentation">
                  {isFirstOfKind && (
                    <div className="px-2 pt-2 pb-1 text-xs font-semibold text-muted-foreground" aria-hidden>
                      {KIND_LABELS[hit.kind]}
                    </div>
                  )}
                  <div
                    id={optionId(i)}
                    role="option"
                    aria-selected={i === active}
                    tabIndex={-1}
                    className={cn(
                      "flex cursor-pointer items-start gap-2 rounded-md px-2 py-1.5 text-sm",
                      i === active && "bg-accent text-accent-foreground",
                    )}
                    onMouseMove={() => setActive(i)}
                    onClick={() => open(hit)}
                    onKeyDown={(e) => e.key === "Enter" && open(hit)}
                  >
                    <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
                    <span className="min-w-0">
                      <span className="block truncate font-medium">{hit.title}</span>
                      {hit.detail && (
                        <span className="block truncate text-xs text-muted-foreground">{hit.detail}</span>
                      )}
                    </span>
                    <span className="sr-only">({KIND_LABELS[hit.kind]})</span>
                  </div>
                </div>
              );
            })}
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
