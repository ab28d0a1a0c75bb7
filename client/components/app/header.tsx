import { useEffect, useState } from "react";
import { cn } from "../../lib/utils";

/** The header style changes once the page has scrolled past this many pixels (spec section 9). */
export const HEADER_SCROLL_THRESHOLD = 77;

/** Sticky top bar; gains a shadowed "scrolled" style after 77 px of scrolling. */
export function AppHeader({ title }: { title: string }) {
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
        "sticky top-0 z-20 flex h-14 items-center border-b bg-background/95 px-6 transition-shadow",
        isScrolled && "shadow-md backdrop-blur supports-[backdrop-filter]:bg-background/80",
      )}
    >
      <span className="text-sm font-medium text-muted-foreground">{title}</span>
    </header>
  );
}
