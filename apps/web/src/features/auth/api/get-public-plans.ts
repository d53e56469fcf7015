import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Plan } from "@atende/shared";
import { api } from "../../../lib/api";

export type PublicPlan = Pick<Plan, "id" | "name" | "users" | "connections" | "queues" | "value">;

/** The plans offered on sign-up (public GET /plans/list). */
export const getPublicPlans = () => api<PublicPlan[]>("/plans/list");

export const publicPlansQuery = () => queryOptions({ queryKey: ["plans", "public-list"], queryFn: getPublicPlans, staleTime: 60_000 });

export const usePublicPlans = () => useQuery(publicPlansQuery());
