import { useRouteContext } from "@tanstack/react-router";
import { holdsRight, type TRole, type TWriteRight } from "../../db/contracts/members";

/**
 * The signed-in member's roles from the page data, and `can(right)`: whether the screens should offer
 * what that right allows (the server refuses it anyway). Signed out, nothing is offered.
 */
export function useRoles(): { roles: readonly TRole[]; can: (right: TWriteRight) => boolean } {
  const { user } = useRouteContext({ from: "__root__" });
  const roles = user?.roles ?? [];
  return { roles, can: (right) => Boolean(user) && holdsRight(roles, right) };
}
