import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ToastContainer } from "react-toastify";
import "react-toastify/dist/ReactToastify.css";
import "./lib/i18n";
import { App } from "./app/app";
import { AppThemeProvider } from "./app/theme";
import { SessionProvider, type ClearUserData } from "./lib/session";
import { clearOfflineCache } from "./features/tickets/offline/db";
import { ApiError } from "./lib/api";

const clearUserData: ClearUserData = (user) => clearOfflineCache(user.companyId, user.id);

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
    },
  },
});

createRoot(document.getElementById("root")!).render(
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
);
