import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { i18nReady } from "./lib/i18n";
import { App } from "./app/app";
import { ColorModeProvider } from "./app/color-mode";
import "./app/base.css";
import { ToastHost } from "./app/toast-host";
import { SessionProvider, type ClearUserData } from "./lib/session";

// loaded only when needed: the tickets' offline cache (IndexedDB) is no part of the login page
const clearUserData: ClearUserData = (user) => import("./features/tickets/offline/db").then((m) => m.clearOfflineCache(user.companyId, user.id));


const root = createRoot(document.getElementById("root")!);
// the first paint waits for the interface language's texts (one small chunk), so no key flashes
void i18nReady.then(() =>
  root.render(
    <StrictMode>
      <ColorModeProvider>
          <SessionProvider clearUserData={clearUserData}>
            <App />
            <ToastHost />
          </SessionProvider>
      </ColorModeProvider>
    </StrictMode>,
  ),
);
