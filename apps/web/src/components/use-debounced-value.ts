import { useEffect, useState } from "react";
import { LIMITS } from "@atende/shared";

/** The value after it stopped changing for `delay` ms (search boxes: 500 ms, spec §9). */
export function useDebouncedValue<T>(value: T, delay: number = LIMITS.searchDebounceMs): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(id);
  }, [value, delay]);
  return debounced;
}
