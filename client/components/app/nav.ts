import type { TWriteRight } from "../../../db/contracts/members";

/** Sidebar links exactly as spec section 2 lists them; `right` hides a link from a member without it. */
export type TNavLink = { to: string; label: string; right?: TWriteRight };

export const LOGGED_IN_LINKS: TNavLink[] = [
  { to: "/shipments", label: "My Shipments" },
  { to: "/shipments/create-shipment", label: "Create Int’l Shipment", right: "shipper" },
  { to: "/restricted-party-screening", label: "Restricted Party Screening" },
  { to: "/products", label: "My Products" },
  { to: "/contacts", label: "My Address Book" },
  { to: "/licenses", label: "My Licenses" },
  { to: "/my-shipping-documents", label: "My Shipping Documents" },
  { to: "/my-wiki", label: "My Wiki" },
  { to: "/reports", label: "Reports" },
  { to: "/auth/logout", label: "Logout" },
];

export const ALWAYS_LINKS: TNavLink[] = [
  { to: "/talk-to-an-expert", label: "Talk to an Expert" },
  { to: "/user/account", label: "User Profile" },
];

export const LOGGED_OUT_LINKS: TNavLink[] = [{ to: "/auth/login", label: "Login" }];

/** Public paths (auth and legal) get their own, smaller sidebar. */
export const PUBLIC_LINKS: TNavLink[] = [
  { to: "/auth/login", label: "Login" },
  { to: "/auth/register", label: "Register" },
  { to: "/legal/terms", label: "Terms" },
  { to: "/legal/help", label: "Help" },
  { to: "/legal/privacy", label: "Privacy" },
];

/** Spec section 6: paths starting with auth or legal are public. */
export function isPublicPath(pathname: string): boolean {
  return /^\/(auth|legal)(\/|$)/.test(pathname);
}
