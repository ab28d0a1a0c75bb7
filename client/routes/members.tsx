import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import type { TMember, TPendingInvitation } from "../../db/contracts/members";
import { rootRoute } from "./root";

// /workspace/members: the workspace's members, their roles and invitations, and the two-person
// release setting (the admin's). The screen (./members-screen) loads lazily.

export type TMembersData = {
  members: TMember[];
  invitations: TPendingInvitation[];
  settings: { two_person_release: boolean; compliance_members: number };
};

export const membersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/workspace/members",
  loader: async ({ context }): Promise<TMembersData> => {
    const [list, settings] = await Promise.all([
      context.api.get<{ data: TMember[]; invitations: TPendingInvitation[] }>("/workspace/members"),
      context.api.get<TMembersData["settings"]>("/workspace/settings"),
    ]);
    return { members: list.data, invitations: list.invitations, settings };
  },
  staticData: { title: "Members" },
  head: () => ({ meta: [{ title: "Members · Tradewinds" }] }),
  component: lazyRouteComponent(() => import("./members-screen"), "MembersScreen"),
});
