import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api";

/** The app's one query cache; loaded with the first page that fetches (not with the login page). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
    },
  },
});

