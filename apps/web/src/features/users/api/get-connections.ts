import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { usersKeys } from "./users-keys";
import { logFailure } from "../../../lib/log-failure";

export interface ConnectionOption {
  id: number;
  name: string;
}

/** GET /whatsapp: the company's connections, offered as a user's default connection. */
export const getConnections = async (): Promise<ConnectionOption[]> => {
  const data = await api<ConnectionOption[] | { whatsapps?: ConnectionOption[] }>("/whatsapp", { query: { session: 0 } });
  return Array.isArray(data) ? data : (data.whatsapps ?? []);
};

// Without a connections API the select simply offers none.
export const connectionsQuery = () =>
  queryOptions({ queryKey: usersKeys.connections(), queryFn: () =>
      getConnections().catch((err: unknown) => {
        logFailure("loading the connections for the user form failed; offering none", err);
        return [];
      }), staleTime: 60_000 });

export const useConnections = () => useQuery(connectionsQuery());
