import { describe, expect, it } from "vitest";
import { canVisit, can, userDeleteRefusal, userEditRefusal, visibleMenu, type Actor, type PlanFlags } from "../src/index.js";

const allFlags: PlanFlags = {
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
};
const actor = (profile: Actor["profile"], isSuper = false, id = 1): Actor => ({ id, companyId: 1, profile, super: isSuper });
const paths = (a: Actor, plan = allFlags) => visibleMenu(a, plan).map((i) => i.path);

describe("menu and route gates", () => {
  it("a plain user sees tickets but no dashboard, reports, users or admin items", () => {
    const p = paths(actor("user"));
    expect(p).toContain("/tickets");
    expect(p).toContain("/connections");
    for (const hidden of ["/", "/reports", "/users", "/tags", "/queues", "/settings", "/campaigns", "/announcements", "/financeiro"]) {
      expect(p).not.toContain(hidden);
    }
  });

  it("a supervisor gets reports and the bulk-sending block, not administration", () => {
    const p = paths(actor("supervisor"));
    expect(p).toEqual(expect.arrayContaining(["/reports", "/campaigns", "/templates", "/connectionsMeta", "/cost-centers", "/keywords"]));
    expect(p).not.toContain("/users");
    expect(p).not.toContain("/");
  });

  it("an admin gets the dashboard and administration but no super-only items", () => {
    const p = paths(actor("admin"));
    expect(p).toEqual(expect.arrayContaining(["/", "/users", "/tags", "/queues", "/settings"]));
    for (const hidden of ["/announcements", "/financeiro", "/prompts", "/queue-integration", "/messages-api"]) expect(p).not.toContain(hidden);
  });

  it("super items need the flag and, for prompts/integrations/API, the plan flag", () => {
    const p = paths(actor("admin", true));
    expect(p).toEqual(expect.arrayContaining(["/announcements", "/financeiro", "/prompts", "/queue-integration", "/messages-api"]));
    const noAi = paths(actor("admin", true), { ...allFlags, useOpenAi: false, useKanban: false });
    expect(noAi).not.toContain("/prompts");
    expect(noAi).not.toContain("/kanban");
  });

  it("gates apply to sub-paths", () => {
    expect(canVisit(actor("user"), allFlags, "/tickets/abc")).toBe(true);
    expect(canVisit(actor("user"), allFlags, "/users")).toBe(false);
    expect(canVisit(actor("user"), { ...allFlags, useInternalChat: false }, "/chats/xyz")).toBe(false);
  });

  it("named permission rules follow the profiles of spec §6", () => {
    expect(can(actor("supervisor"), "tickets-manager:showall")).toBe(true);
    expect(can(actor("user"), "tickets-manager:showall")).toBe(false);
    expect(can(actor("supervisor"), "contacts-page:deleteContact")).toBe(false);
    expect(can(actor("admin"), "user-modal:editProfile")).toBe(true);
  });
});

describe("user protections", () => {
  const target = (profile: Actor["profile"], isSuper = false, id = 2) => ({ id, companyId: 1, profile, super: isSuper });

  it("nobody but a super edits the super user", () => {
    expect(userEditRefusal(actor("admin"), target("admin", true), {})).toBe("ERR_CANNOT_EDIT_SUPER_USER");
  });

  it("the super user cannot be demoted", () => {
    expect(userEditRefusal(actor("admin", true, 9), target("admin", true), { profile: "user" })).toBe("ERR_CANNOT_CHANGE_SUPER_ADMIN_PROFILE_TO_USER");
    expect(userEditRefusal(actor("admin", true, 9), target("admin", true), { profile: "supervisor" })).toBe(
      "ERR_CANNOT_CHANGE_SUPER_ADMIN_PROFILE_TO_SUPERVISOR",
    );
  });

  it("admins cannot edit other admins; nobody demotes their own account", () => {
    expect(userEditRefusal(actor("admin"), target("admin"), {})).toBe("ERR_CANNOT_EDIT_USER_CANNOT_EDIT_ADMIN");
    expect(userEditRefusal(actor("admin"), target("admin", false, 1), { profile: "user" })).toBe("ERR_CANNOT_EDIT_OR_DEMOTE_OWN_ACCOUNT");
    expect(userEditRefusal(actor("admin"), target("user"), { profile: "supervisor" })).toBeNull();
  });

  it("only super users delete, never themselves nor a super", () => {
    expect(userDeleteRefusal(actor("admin"), target("user"))).toBe("ERR_NO_USER_DELETE");
    expect(userDeleteRefusal(actor("admin", true), target("user"))).toBeNull();
    expect(userDeleteRefusal(actor("admin", true), target("admin", true))).toBe("ERR_CANNOT_EDIT_SUPER_USER");
    expect(userDeleteRefusal(actor("admin", true, 2), target("admin", false, 2))).toBe("ERR_CANNOT_EDIT_OR_DELETE_OWN_ADMIN_ACCOUNT");
  });
});
