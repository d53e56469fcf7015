import type { Tag, TagInput, TagsPage, TagUpdateInput } from "@atende/shared";
import { api } from "../../../lib/api";
import type { ListPage } from "../../../components/use-paged-list";

export const tagKeys = {
  all: ["tags"] as const,
  /** Every cached search of the list (the prefix live events patch). */
  lists: ["tags", "list"] as const,
  list: (search: string) => ["tags", "list", search] as const,
};

export async function fetchTagsPage(search: string, pageNumber: number, signal?: AbortSignal): Promise<ListPage<Tag>> {
  const res = await api<TagsPage>("/tags", { query: { searchParam: search, pageNumber }, signal });
  return { items: res.tags, hasMore: res.hasMore, count: res.count };
}

export function createTag(input: Partial<TagInput>): Promise<Tag> {
  return api<Tag>("/tags", { method: "POST", body: input });
}

export function updateTag(id: number, input: TagUpdateInput): Promise<Tag> {
  return api<Tag>(`/tags/${id}`, { method: "PUT", body: input });
}

export function deleteTag(id: number): Promise<unknown> {
  return api(`/tags/${id}`, { method: "DELETE" });
}
