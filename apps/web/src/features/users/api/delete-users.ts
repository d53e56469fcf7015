import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { toastError } from "../../../lib/toast-error";
import { usersKeys } from "./users-keys";

export const deleteUser = (id: number) => api<unknown>(`/users/${id}`, { method: "DELETE" });

/** Bulk delete (super only): POST /users/bulk-delete with the ids; answers the ids deleted. */
export const deleteUsers = (ids: number[]) => api<{ deleted: number[] }>("/users/bulk-delete", { method: "POST", body: { ids } });

/** Deletes one user or several; failures are toasted, the lists refreshed on success. */
export function useDeleteUsers() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => (ids.length === 1 ? deleteUser(ids[0]!) : deleteUsers(ids)),
    onError: toastError,
    onSuccess: () => qc.invalidateQueries({ queryKey: usersKeys.lists() }),
  });
}
