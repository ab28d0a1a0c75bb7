import { PanelLeftCloseIcon, PanelLeftOpenIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import { MenuButton, NavBody, type TNavProps } from "./nav-body";

type TSidebarProps = TNavProps & { isCollapsed: boolean; onToggle: () => void };

/** The app's collapsible sidebar, from 1024 px up; narrower screens use the header's menu button. */
export function Sidebar({ isCollapsed, onToggle, ...props }: TSidebarProps) {
  return (
    <aside
      data-print-hide
      data-collapsed={isCollapsed}
      aria-label="Sidebar"
      className={cn(
        "sticky top-0 hidden h-dvh shrink-0 flex-col border-r bg-sidebar text-sidebar-foreground lg:flex",
        isCollapsed ? "w-16" : "w-64",
      )}
    >
      <NavBody isCollapsed={isCollapsed} {...props} />
      <div className="border-t p-2">
        <Button
          variant="ghost"
          size="sm"
          className="w-full justify-start"
          onClick={onToggle}
          aria-expanded={!isCollapsed}
          aria-label={isCollapsed ? "Expand sidebar" : "Collapse sidebar"}
        >
          {isCollapsed ? <PanelLeftOpenIcon /> : <PanelLeftCloseIcon />}
          {!isCollapsed && <span>Collapse</span>}
        </Button>
      </div>
    </aside>
  );
}

const loadMobileSheet = () => import("./mobile-nav");
const MobileSheet = lazy(() => loadMobileSheet().then(({ MobileSheet }) => ({ default: MobileSheet })));

/**
 * Below 1024 px: a menu button in the header opens the same links as an off-canvas sheet. The sheet
 * (Radix dialog, focus trap, scroll lock) loads on the first open, not with every screen.
 */
export function MobileNav(props: TNavProps) {
  const [isOpen, setIsOpen] = useState(false);
  const [isWanted, setIsWanted] = useState(false);
  const closed = (
    <MenuButton
      aria-haspopup="dialog"
      aria-expanded={false}
      onPointerEnter={() => void loadMobileSheet()}
      onClick={() => {
        setIsWanted(true);
        setIsOpen(true);
      }}
    />
  );
  if (!isWanted) return closed;
  return (
    <Suspense fallback={closed}>
      <MobileSheet isOpen={isOpen} onOpenChange={setIsOpen} {...props} />
    </Suspense>
  );
}
