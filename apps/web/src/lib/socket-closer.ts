let closer: (() => void) | null = null;

/**
 * Closes the app's socket if one was opened. Apart from lib/socket.ts so the session (and with it the
 * login page) does not load socket.io-client: the socket module registers itself when it loads.
 */
export function closeSocket(): void {
  closer?.();
}

export function registerSocketCloser(close: () => void): void {
  closer = close;
}
