import type { ComponentProps } from "react";
import type { TPublicUser } from "../../../db/contracts/auth";
import { Button } from "../ui/button";

// Shared by the header (the closed menu, from the first paint) and the lazily loaded menu (./user-menu).

function initials(user: TPublicUser): string {
  return `${user.name.charAt(0)}${user.surname.charAt(0)}`.toUpperCase() || "?";
}

/** The account button: the signed-in name and avatar. */
export function UserMenuButton({ user, ...props }: { user: TPublicUser } & ComponentProps<typeof Button>) {
  const fullName = `${user.name} ${user.surname}`.trim();
  return (
    // The name comes from the content (no aria-label): the visible name is part of it, as voice
    // control users say it; on a phone only the initials show and the name is read out.
    <Button variant="ghost" className="h-9 gap-2 px-2" {...props}>
      {user.image_url ? (
        <img src={user.image_url} alt="" className="size-7 rounded-full object-cover" />
      ) : (
        <span
          aria-hidden
          className="flex size-7 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
        >
          {initials(user)}
        </span>
      )}
      <span className="sr-only">Account menu for </span>
      <span className="sr-only max-w-40 truncate text-sm sm:not-sr-only">{fullName}</span>
    </Button>
  );
}
