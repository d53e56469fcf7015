import { use, type ReactNode } from "react";
import { loadAppTexts, loadFeatureTexts } from "../lib/i18n";

/** Signed-in pages render once the workspace's texts of the language in use are there (Suspense above). */
export function AppTexts({ children }: { children: ReactNode }) {
  use(loadAppTexts());
  return children;
}

/** A page renders once the texts of the features it shows are there too (`texts` of the route table). */
export function FeatureTexts({ features, children }: { features: readonly string[]; children: ReactNode }) {
  use(loadFeatureTexts(features));
  return children;
}
