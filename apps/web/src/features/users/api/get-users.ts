import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from "@tanstack/react-query";
import type { User } from "@atende/shared";
import { api } from "../../../lib/api";
import { usersKeys, type UsersFilter } from "./users-keys";

export interface UsersPage {
  users: User[];
  hasMore: boolean;
  count: number;
}
export type UsersData = InfiniteData<UsersPage, number>;

/** GET /users: one page of the company's users matching the search and queue filter. */
export const getUsers = (filter: UsersFilter, pageNumber: number, signal?: AbortSignal) =>
  api<UsersPage>("/users", {
    query: { searchParam: filter.searchParam, pageNumber, queueIds: filter.queueIds.length ? filter.queueIds : undefined },
    signal,
  });

export const usersQuery = (filter: UsersFilter) =>
  infiniteQueryOptions({
    queryKey: usersKeys.list(filter),
    queryFn: ({ pageParam, signal }) => getUsers(filter, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
  });

export const useUsers = (filter: UsersFilter) => useInfiniteQuery(usersQuery(filter));
