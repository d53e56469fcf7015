import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { usersKeys } from "./users-keys";
import { logFailure } from "../../../lib/log-failure";

export interface QueueOption {
  id: number;
  name: string;
  color: string;
}

/** GET /queue: the company's queues, for the filter and the user dialog. */
export const getQueues = async (): Promise<QueueOption[]> => {
  const data = await api<QueueOption[] | { queues?: QueueOption[] }>("/queue");
  return Array.isArray(data) ? data : (data.queues ?? []);
};

// A missing or failing queues API leaves the lists empty rather than breaking the page.
export const queuesQuery = () => queryOptions({ queryKey: usersKeys.queues(), queryFn: () =>
      getQueues().catch((err: unknown) => {
        logFailure("loading the queues for the user form failed; offering none", err);
        return [];
      }), staleTime: 60_000 });

export const useQueues = () => useQuery(queuesQuery());
