import { useEffect, useRef } from "react";
import { getSocket } from "./socket";

/**
 * Subscribes to one socket event while the component is mounted. The latest `handler` is always the
 * one called, so callers need not memoise it. A null event subscribes to nothing.
 */
export function useSocketEvent<T = unknown>(event: string | null, handler: (data: T) => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!event) return;
    const socket = getSocket();
    const listener = (data: T) => latest.current(data);
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [event]);
}
