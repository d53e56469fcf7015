import { lazy, Suspense, useMemo, useState, type ReactNode } from "react";
import type { ContactRef } from "@atende/shared";
import { AppDialogsContext, type AppDialogs } from "../lib/app-dialogs";
import { FeatureTexts } from "./app-texts";

// loaded when first opened, not with the shell
const ScheduleDialog = lazy(() => import("../features/schedules/components/schedule-dialog").then((m) => ({ default: m.ScheduleDialog })));

/** Renders the dialogs features open in each other (see lib/app-dialogs.tsx). */
export function AppDialogsProvider({ children }: { children: ReactNode }) {
  const [scheduleFor, setScheduleFor] = useState<ContactRef | null>(null);
  const dialogs = useMemo<AppDialogs>(() => ({ openSchedule: setScheduleFor }), []);
  return (
    <AppDialogsContext.Provider value={dialogs}>
      {children}
      {scheduleFor && (
        <Suspense fallback={null}>
          {/* the schedules feature's texts load with its dialog (texts load per page: lib/i18n.ts) */}
          <FeatureTexts features={["schedules"]}>
            <ScheduleDialog open schedule={null} initialContact={scheduleFor} onClose={() => setScheduleFor(null)} onSaved={() => setScheduleFor(null)} />
          </FeatureTexts>
        </Suspense>
      )}
    </AppDialogsContext.Provider>
  );
}
