import { useCallback, useMemo, type UIEvent } from "react";
import { useInfiniteQuery, type InfiniteData, type QueryClient, type QueryKey } from "@tanstack/react-query";
import { LIMITS } from "@atende/shared";

/** One page of a searchable list (`{ <items>, hasMore }` answers, normalised). */
export interface ListPage<T> {
  items: T[];
  hasMore: boolean;
  /** Total matching rows, when the server tells (first page). */
  count?: number;
}

interface Options<T> {
  queryKey: QueryKey;
  fetchPage(pageNumber: number, signal: AbortSignal): Promise<ListPage<T>>;
  enabled?: boolean;
}

/**
 * Infinite scroll over a paged list: pages 1, 2, ... while the server says hasMore; `onScroll` on the
 * scrolling container loads the next page within 100 px of the bottom (spec §9).
 */
export function usePagedList<T extends { id: number }>({ queryKey, fetchPage, enabled = true }: Options<T>) {
  const query = useInfiniteQuery({
    queryKey,
    enabled,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    getNextPageParam: (last, all) => (last.hasMore ? all.length + 1 : undefined),
  });
  // A row added live at the top may come again in a later page: keep its first appearance.
  const items = useMemo(() => {
    const seen = new Set<number>();
    return (query.data?.pages.flatMap((p) => p.items) ?? []).filter((item) => !seen.has(item.id) && seen.add(item.id));
  }, [query.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const onScroll = useCallback(
    (e: UIEvent<HTMLElement>) => {
      const el = e.currentTarget;
      if (el.scrollHeight - (el.scrollTop + el.clientHeight) < LIMITS.listNextPageScrollPx && hasNextPage && !isFetchingNextPage) {
        void fetchNextPage();
      }
    },
    [hasNextPage, isFetchingNextPage, fetchNextPage],
  );
  return { ...query, items, onScroll };
}

type Paged<T> = InfiniteData<ListPage<T>, number>;

/** Only infinite lists are patched, whatever else shares the key prefix. */
function isPaged<T>(data: Paged<T> | undefined): data is Paged<T> {
  return Array.isArray(data?.pages) && data.pages.every((p) => Array.isArray(p?.items));
}

/** Live updates: replaces a row in every cached page of the list, or adds it at the top when new. */
export function upsertPagedItem<T extends { id: number }>(client: QueryClient, keyPrefix: QueryKey, item: T): void {
  client.setQueriesData<Paged<T>>({ queryKey: keyPrefix }, (data) => {
    if (!isPaged(data)) return data;
    const exists = data.pages.some((p) => p.items.some((i) => i.id === item.id));
    const pages = data.pages.map((p, index) => {
      if (exists) return { ...p, items: p.items.map((i) => (i.id === item.id ? { ...i, ...item } : i)) };
      return index === 0 ? { ...p, items: [item, ...p.items], count: p.count === undefined ? undefined : p.count + 1 } : p;
    });
    return { ...data, pages };
  });
}

/** Live updates: removes a row from every cached page of the list. */
export function removePagedItem<T extends { id: number }>(client: QueryClient, keyPrefix: QueryKey, id: number): void {
  client.setQueriesData<Paged<T>>({ queryKey: keyPrefix }, (data) => {
    if (!isPaged(data) || !data.pages.some((p) => p.items.some((i) => i.id === id))) return data;
    const pages = data.pages.map((p) => ({ ...p, items: p.items.filter((i) => i.id !== id) }));
    const first = pages[0];
    if (first?.count !== undefined) pages[0] = { ...first, count: Math.max(0, first.count - 1) };
    return { ...data, pages };
  });
}

/**
 * Applies a `{ action, <entity> | <entity>Id }` real-time payload to a cached list; anything it cannot
 * read makes the list refetch.
 */
export function applyLiveEvent<T extends { id: number }>(
  client: QueryClient,
  keyPrefix: QueryKey,
  payload: unknown,
  entityKey: string,
): void {
  const p = (payload ?? {}) as Record<string, unknown>;
  const action = p.action;
  const entity = p[entityKey] as T | undefined;
  if ((action === "create" || action === "update") && entity && typeof entity.id === "number") {
    upsertPagedItem(client, keyPrefix, entity);
    return;
  }
  if (action === "delete") {
    const raw = p[`${entityKey}Id`] ?? p.id ?? (entity as { id?: unknown } | undefined)?.id;
    const id = Number(raw);
    if (Number.isFinite(id) && id > 0) {
      removePagedItem(client, keyPrefix, id);
      return;
    }
  }
  void client.invalidateQueries({ queryKey: keyPrefix });
}
