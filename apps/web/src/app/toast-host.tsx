import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { registerToastHost } from "../lib/toast";

const AppToastContainer = lazy(() => import("./toast-container"));

/** Mounts the toasts' container when the first toast is asked for (lib/toast.ts). */
export function ToastHost() {
  const [wanted, setWanted] = useState(false);
  const mounted = useRef<(() => void) | null>(null);
  useEffect(() => {
    registerToastHost(
      () =>
        new Promise<void>((resolve) => {
          mounted.current = resolve;
          setWanted(true);
        }),
    );
  }, []);
  const onMounted = useCallback(() => mounted.current?.(), []);
  return wanted ? (
    <Suspense fallback={null}>
      <AppToastContainer onMounted={onMounted} />
    </Suspense>
  ) : null;
}
