import { SearchIcon } from "lucide-react";
import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import type { TPublicUser } from "../../../db/contracts/auth";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import { UserMenuButton } from "./user-menu-button";

/** The header style changes once the page has scrolled past this many pixels (spec section 9). */
export const HEADER_SCROLL_THRESHOLD = 77;

/** Sticky top bar; gains a shadowed "scrolled" style after 77 px of scrolling. */
export function AppHeader({
  title,
  menu,
  user,
}: {
  title: string;
  /** The phone menu button (hidden from 1024 px up). */
  menu?: ReactNode;
  user?: TPublicUser | null;
}) {
  const [isScrolled, setIsScrolled] = useState(false);
  useEffect(() => {
    const update = () => setIsScrolled(window.scrollY > HEADER_SCROLL_THRESHOLD);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);
  return (
    <header
      data-print-hide
      data-scrolled={isScrolled}
      className={cn(
        "sticky top-0 z-20 flex h-14 items-center gap-2 border-b bg-background/95 px-4 transition-shadow sm:px-6",
        isScrolled && "shadow-md backdrop-blur supports-[backdrop-filter]:bg-background/80",
      )}
    >
      {menu}
      <span className="min-w-0 flex-1 truncate text-sm font-medium text-muted-foreground">{title}</span>
      {user && <GlobalSearch />}
      {user && <UserMenu user={user} />}
    </header>
  );
}

const loadSearch = () => import("./search-palette");
const SearchPalette = lazy(() => loadSearch().then(({ SearchPalette }) => ({ default: SearchPalette })));

/**
 * The header's search field, and Ctrl/⌘-K from anywhere: it opens the search palette, whose code
 * loads on the first open (or when the pointer comes near), not with every screen.
 */
function GlobalSearch() {
  const [isOpen, setIsOpen] = useState(false);
  const [isWanted, setIsWanted] = useState(false);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") {
        event.preventDefault();
        setIsWanted(true);
        setIsOpen(true);
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
  return (
    <>
      <Button
        variant="outline"
        className="h-9 gap-2 px-2 text-muted-foreground sm:w-56 sm:justify-start sm:px-3"
        aria-keyshortcuts="Control+K Meta+K"
        onPointerEnter={() => void loadSearch()}
        onClick={() => {
          setIsWanted(true);
          setIsOpen(true);
        }}
      >
        <SearchIcon aria-hidden />
        <span className="sr-only sm:not-sr-only">Search</span>
        <kbd className="ml-auto hidden rounded border px-1 text-xs sm:inline" aria-hidden>
          Ctrl K
        </kbd>
      </Button>
      {isWanted && (
        <Suspense fallback={null}>
          <SearchPalette isOpen={isOpen} onOpenChange={setIsOpen} />
        </Suspense>
      )}
    </>
  );
}

const loadUserMenu = () => import("./user-menu");
const RealUserMenu = lazy(() => loadUserMenu().then(({ UserMenu }) => ({ default: UserMenu })));

/**
 * The signed-in name and avatar, holding User Profile and Logout. The menu (Radix dropdown) loads on
 * the first open, not with every screen; the button is there, and works, from the first paint.
 */
function UserMenu({ user }: { user: TPublicUser }) {
  const [isWanted, setIsWanted] = useState(false);
  const closed = (
    <UserMenuButton
      user={user}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void loadUserMenu()}
      onClick={() => setIsWanted(true)}
    />
  );
  if (!isWanted) return closed;
  return (
    <Suspense fallback={closed}>
      <RealUserMenu user={user} />
    </Suspense>
  );
}
