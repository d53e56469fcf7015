import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import type { QueueRef, QuickReply, TagRef, UserRef, WhatsappRef } from "../types";

/** Small company-wide lists the workspace reads (queues, tags, users, connections, quick replies). */
export const lookupKeys = {
  queues: ["queues", "list"] as const,
  tags: ["tags", "list"] as const,
  users: ["users", "list"] as const,
  whatsapps: ["whatsapp", "list"] as const,
  quickMessages: (userId: number) => ["quick-messages", "list", userId] as const,
};

export const queuesQuery = () =>
  queryOptions({ queryKey: lookupKeys.queues, queryFn: () => api<QueueRef[]>("/queue"), staleTime: 60_000 });

export const tagsQuery = () =>
  queryOptions({ queryKey: lookupKeys.tags, queryFn: () => api<TagRef[]>("/tags/list"), staleTime: 60_000 });

export const usersQuery = () =>
  queryOptions({ queryKey: lookupKeys.users, queryFn: () => api<UserRef[]>("/users/list"), staleTime: 60_000 });

export const whatsappsQuery = () =>
  queryOptions({ queryKey: lookupKeys.whatsapps, queryFn: () => api<WhatsappRef[]>("/whatsapp", { query: { session: 0 } }), staleTime: 30_000 });

export const quickMessagesQuery = (companyId: number, userId: number) =>
  queryOptions({
    queryKey: lookupKeys.quickMessages(userId),
    queryFn: () => api<QuickReply[]>("/quick-messages/list", { query: { companyId, userId } }),
    staleTime: 60_000,
  });
