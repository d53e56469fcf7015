import { useLayoutEffect, useState, type RefObject } from "react";

/** The height from an element's top to the bottom of the window (minus its parent's bottom padding). */
export function useFillHeight(ref: RefObject<HTMLElement | null>, min = 360): number | undefined {
  const [height, setHeight] = useState<number>();
  useLayoutEffect(() => {
    const update = () => {
      const el = ref.current;
      if (!el) return;
      const parent = el.parentElement;
      const pad = parent ? parseFloat(getComputedStyle(parent).paddingBottom) || 0 : 0;
      setHeight(Math.max(min, Math.floor(window.innerHeight - el.getBoundingClientRect().top - window.scrollY - pad)));
    };
    update();
    window.addEventListener("resize", update);
    const ro = new ResizeObserver(update);
    if (ref.current?.parentElement) ro.observe(ref.current.parentElement);
    return () => {
      window.removeEventListener("resize", update);
      ro.disconnect();
    };
  }, [ref, min]);
  return height;
}
