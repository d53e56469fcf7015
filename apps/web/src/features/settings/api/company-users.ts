import type { User, UserListItem, UserUpdateInput } from "@atende/shared";
import { api } from "../../../lib/api";

export const companyUserKeys = {
  list: (companyId: number) => ["companies", companyId, "users"] as const,
  one: (userId: number) => ["company-users", userId] as const,
};

/** Users of any company (super only: GET /users/list with companyId). */
export function fetchCompanyUsers(companyId: number): Promise<UserListItem[]> {
  return api<UserListItem[]>("/users/list", { query: { companyId } });
}

/** One user of any company (a super administrator reads across companies). */
export function fetchCompanyUser(id: number): Promise<User> {
  return api<User>(`/users/${id}`);
}

export function updateCompanyUser(id: number, input: UserUpdateInput): Promise<User> {
  return api<User>(`/users/${id}`, { method: "PUT", body: input });
}
