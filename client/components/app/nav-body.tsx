// The app's navigation as the sidebar and the phone menu both show it, and the header's menu button:
// shared by sidebar.tsx and the lazily loaded mobile-nav.tsx, so neither imports the other.
import { Link } from "@tanstack/react-router";
import {
  BookUserIcon,
  FileTextIcon,
  FolderOpenIcon,
  HeadsetIcon,
  LogInIcon,
  LogOutIcon,
  MenuIcon,
  PackageIcon,
  PieChartIcon,
  PlusCircleIcon,
  ScaleIcon,
  ShieldCheckIcon,
  ShipIcon,
  UserIcon,
} from "lucide-react";
import type { ComponentProps, ComponentType } from "react";
import { useRoles } from "../../lib/roles";
import { Button } from "../ui/button";
import { ALWAYS_LINKS, LOGGED_IN_LINKS, LOGGED_OUT_LINKS, PUBLIC_LINKS, type TNavLink } from "./nav";

const ICONS: Record<string, ComponentType<{ className?: string }>> = {
  "/shipments": ShipIcon,
  "/shipments/create-shipment": PlusCircleIcon,
  "/restricted-party-screening": ShieldCheckIcon,
  "/products": PackageIcon,
  "/contacts": BookUserIcon,
  "/licenses": ScaleIcon,
  "/my-shipping-documents": FileTextIcon,
  "/my-wiki": FolderOpenIcon,
  "/reports": PieChartIcon,
  "/auth/logout": LogOutIcon,
  "/talk-to-an-expert": HeadsetIcon,
  "/user/account": UserIcon,
  "/auth/login": LogInIcon,
};

export type TNavProps = { isPublic: boolean; isLoggedIn: boolean };

function navGroups(
  { isPublic, isLoggedIn }: TNavProps,
  can: (right: NonNullable<TNavLink["right"]>) => boolean,
): { label: string; links: TNavLink[] }[] {
  return isPublic
    ? [{ label: "Tradewinds", links: PUBLIC_LINKS }]
    : [
        {
          label: "Workspace",
          links: isLoggedIn
            ? LOGGED_IN_LINKS.filter((link) => !link.right || can(link.right))
            : LOGGED_OUT_LINKS,
        },
        { label: "Support", links: ALWAYS_LINKS },
      ];
}

/** The logo to /home, then the links for the visitor's state; shared by the sidebar and the phone menu. */
export function NavBody({
  isCollapsed,
  onNavigate,
  ...props
}: TNavProps & { isCollapsed: boolean; onNavigate?: () => void }) {
  const { can } = useRoles();
  return (
    <>
      <div className="flex h-14 items-center gap-2 border-b px-3">
        <Link
          to="/home"
          className="flex min-w-0 items-center gap-2 font-semibold"
          aria-label="Tradewinds home"
          onClick={onNavigate}
        >
          <img src="/logo.svg" alt="" width={28} height={28} className="size-7 shrink-0" />
          {!isCollapsed && <span className="truncate text-base tracking-tight">Tradewinds</span>}
        </Link>
      </div>
      <nav
        className="flex-1 overflow-y-auto p-2"
        aria-label={props.isPublic ? "Public navigation" : "Main navigation"}
      >
        {navGroups(props, can).map((group) => (
          <div key={group.label} className="mb-3">
            {!isCollapsed && (
              <p className="px-2 pb-1 text-xs font-medium uppercase tracking-wide text-muted-foreground">
                {group.label}
              </p>
            )}
            <ul className="space-y-0.5">
              {group.links.map((link) => {
                const Icon = ICONS[link.to] ?? FileTextIcon;
                return (
                  <li key={link.to}>
                    <Link
                      to={link.to}
                      title={isCollapsed ? link.label : undefined}
                      aria-label={isCollapsed ? link.label : undefined}
                      activeOptions={{ exact: link.to === "/shipments" }}
                      // Preloading runs a route's beforeLoad, and the logout route's logs out.
                      preload={link.to === "/auth/logout" ? false : undefined}
                      onClick={onNavigate}
                      className="flex items-center gap-3 rounded-md px-2 py-2 text-sm hover:bg-sidebar-accent hover:text-sidebar-accent-foreground data-[status=active]:bg-sidebar-accent data-[status=active]:font-medium"
                    >
                      <Icon className="size-4 shrink-0" />
                      {!isCollapsed && <span className="truncate">{link.label}</span>}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </nav>
    </>
  );
}

/** The header's menu button (below 1024 px). */
export function MenuButton(props: ComponentProps<typeof Button>) {
  return (
    <Button variant="ghost" size="icon" className="-ml-2 lg:hidden" aria-label="Open menu" {...props}>
      <MenuIcon />
    </Button>
  );
}
