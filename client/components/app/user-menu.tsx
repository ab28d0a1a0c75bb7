import { Link } from "@tanstack/react-router";
import { BuildingIcon, LogOutIcon, UserIcon, UsersIcon } from "lucide-react";
import type { TPublicUser } from "../../../db/contracts/auth";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../ui/dropdown-menu";
import { UserMenuButton } from "./user-menu-button";

/** The signed-in name and avatar, holding User Profile, Exporter Profile, Members (admins) and Logout. */
export function UserMenu({ user }: { user: TPublicUser }) {
  const fullName = `${user.name} ${user.surname}`.trim();
  // Mounted by the first click on the header's account button (./header), so it opens at once.
  return (
    <DropdownMenu modal={false} defaultOpen>
      <DropdownMenuTrigger asChild>
        <UserMenuButton user={user} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        <DropdownMenuLabel className="truncate font-normal">
          <span className="block truncate font-medium">{fullName}</span>
          <span className="block truncate text-xs text-muted-foreground">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/user/account">
            <UserIcon /> User Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/user/exporter-profile">
            <BuildingIcon /> Exporter Profile
          </Link>
        </DropdownMenuItem>
        {user.roles.includes("admin") && (
          <DropdownMenuItem asChild>
            <Link to="/workspace/members">
              <UsersIcon /> Members
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuItem asChild>
          <Link to="/auth/logout" preload={false}>
            <LogOutIcon /> Logout
          </Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
