import { useEffect } from "react";
import { getSocket } from "./socket";

/**
 * Asks the server to put this socket in a room while the component is mounted (`join`, again after
 * each reconnection, as the server forgets a closed socket's rooms) and to take it out (`leave`) on
 * unmount.
 */
export function useSocketRoom(join: string, leave: string): void {
  useEffect(() => {
    const socket = getSocket();
    const enter = () => socket.emit(join);
    if (socket.connected) enter();
    socket.on("connect", enter);
    return () => {
      socket.off("connect", enter);
      socket.emit(leave);
    };
  }, [join, leave]);
}
