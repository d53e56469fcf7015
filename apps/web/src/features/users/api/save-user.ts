import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { User, UserCreateInput, UserUpdateInput } from "@atende/shared";
import { api } from "../../../lib/api";
import { toastError } from "../../../lib/toast-error";
import { usersKeys } from "./users-keys";

export const createUser = (input: Omit<UserCreateInput, "companyId">) => api<User>("/users", { method: "POST", body: input });

export const updateUser = (id: number, input: UserUpdateInput) => api<User>(`/users/${id}`, { method: "PUT", body: input });

type SaveVars = { id?: undefined; input: Omit<UserCreateInput, "companyId"> } | { id: number; input: UserUpdateInput };

/** Creates (no id) or updates a user; failures are toasted, the lists refreshed on success. */
export function useSaveUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (vars: SaveVars) => (vars.id === undefined ? createUser(vars.input) : updateUser(vars.id, vars.input)),
    onError: toastError,
    onSuccess: () => qc.invalidateQueries({ queryKey: usersKeys.lists() }),
  });
}
