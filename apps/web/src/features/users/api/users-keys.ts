export interface UsersFilter {
  searchParam: string;
  queueIds: number[];
}

/** Query keys of the users feature; every list key starts with `usersKeys.lists()`. */
export const usersKeys = {
  all: ["users"] as const,
  lists: () => [...usersKeys.all, "list"] as const,
  list: (filter: UsersFilter) => [...usersKeys.lists(), filter] as const,
  queues: () => [...usersKeys.all, "queues"] as const,
  connections: () => [...usersKeys.all, "connections"] as const,
};
