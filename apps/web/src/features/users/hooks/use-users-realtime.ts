import { useQueryClient } from "@tanstack/react-query";
import { channel, type User } from "@atende/shared";
import { useSocketEvent } from "../../../lib/use-socket-event";
import type { UsersData } from "../api/get-users";
import { usersKeys, type UsersFilter } from "../api/users-keys";

type UserEvent = { action?: string; user?: User; userId?: number };

function withoutUser(data: UsersData, id: number): UsersData {
  return { ...data, pages: data.pages.map((p) => ({ ...p, users: p.users.filter((u) => u.id !== id) })) };
}

/**
 * Live `company-{id}-user` events patch the loaded lists (2-administration §4): an update replaces the
 * row, a delete removes it, a new user is added on top of an unfiltered list (a filtered one is refetched).
 */
export function useUsersRealtime(companyId: number): void {
  const qc = useQueryClient();
  useSocketEvent<UserEvent>(channel.user(companyId), (ev) => {
    const id = ev?.user?.id ?? ev?.userId;
    if (!id) return;
    for (const [key, data] of qc.getQueriesData<UsersData>({ queryKey: usersKeys.lists() })) {
      if (!data) continue;
      const filter = key[2] as UsersFilter | undefined;
      if (ev.action === "delete") {
        qc.setQueryData<UsersData>(key, withoutUser(data, id));
        continue;
      }
      const incoming = ev.user;
      if (!incoming || (ev.action !== "update" && ev.action !== "create")) continue;
      const present = data.pages.some((p) => p.users.some((u) => u.id === id));
      if (present) {
        qc.setQueryData<UsersData>(key, {
          ...data,
          pages: data.pages.map((p) => ({ ...p, users: p.users.map((u) => (u.id === id ? { ...u, ...incoming } : u)) })),
        });
      } else if (!filter?.searchParam && !filter?.queueIds.length && data.pages[0]) {
        const [first, ...rest] = data.pages;
        qc.setQueryData<UsersData>(key, { ...data, pages: [{ ...first, users: [incoming, ...first.users], count: first.count + 1 }, ...rest] });
      } else {
        void qc.invalidateQueries({ queryKey: key, exact: true });
      }
    }
  });
}
