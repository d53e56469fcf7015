import { use, type ReactNode } from "react";
import { loadAppTexts } from "../lib/i18n";

/** Signed-in pages render once every feature's texts of the language in use are there (Suspense above). */
export function AppTexts({ children }: { children: ReactNode }) {
  use(loadAppTexts());
  return children;
}
