import { queryOptions, useQuery } from "@tanstack/react-query";
import type { BiEmbed } from "@atende/shared";
import { api } from "../../../lib/api";

export const biQuery = () => queryOptions({ queryKey: ["bi"] as const, queryFn: ({ signal }) => api<BiEmbed>("/bi", { signal }) });

/** The company's biUrl and the server's extra BI hosts. */
export const useBiEmbed = () => useQuery(biQuery());
