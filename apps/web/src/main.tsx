import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ToastContainer } from "react-toastify";
import "react-toastify/dist/ReactToastify.css";
import { i18nReady } from "./lib/i18n";
import { App } from "./app/app";
import { AppThemeProvider } from "./app/theme";
import { SessionProvider, type ClearUserData } from "./lib/session";
import { ApiError } from "./lib/api";

// loaded only when needed: the tickets' offline cache (IndexedDB) is no part of the login page
const clearUserData: ClearUserData = (user) => import("./features/tickets/offline/db").then((m) => m.clearOfflineCache(user.companyId, user.id));

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
    },
  },
});

const root = createRoot(document.getElementById("root")!);
// the first paint waits for the interface language's texts (one small chunk), so no key flashes
void i18nReady.then(() =>
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AppThemeProvider>
          <SessionProvider clearUserData={clearUserData}>
            <App />
            <ToastContainer position="top-right" autoClose={2000} newestOnTop />
          </SessionProvider>
        </AppThemeProvider>
      </QueryClientProvider>
    </StrictMode>,
  ),
);
