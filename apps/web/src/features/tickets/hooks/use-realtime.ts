import { useEffect, useLayoutEffect, useRef } from "react";
import { getSocket } from "../../../lib/socket";

/** Listens to one socket channel while mounted; the latest handler is always the one called. */
export function useChannel<T>(channelName: string | null, handler: (data: T) => void): void {
  const ref = useRef(handler);
  useLayoutEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (!channelName) return;
    const socket = getSocket();
    const fn = (data: T) => ref.current(data);
    socket.on(channelName, fn);
    return () => {
      socket.off(channelName, fn);
    };
  }, [channelName]);
}

/** Runs `fn` each time the socket (re)connects, e.g. to refetch what may have been missed. */
export function useSocketReconnect(fn: () => void): void {
  const ref = useRef(fn);
  useLayoutEffect(() => {
    ref.current = fn;
  });
  useEffect(() => {
    const socket = getSocket();
    let first = true;
    const onConnect = () => {
      if (first) {
        first = false;
        return;
      }
      ref.current();
    };
    if (socket.connected) first = false;
    socket.on("connect", onConnect);
    return () => {
      socket.off("connect", onConnect);
    };
  }, []);
}
