/** Stands for the app's socket (lib/socket): the test emits events as the server names them. */
type Handler = (data: unknown) => void;
const handlers = new Map<string, Set<Handler>>();

export const fakeSocket = {
  connected: true,
  on(event: string, fn: Handler) {
    if (!handlers.has(event)) handlers.set(event, new Set());
    handlers.get(event)!.add(fn);
  },
  off(event: string, fn: Handler) {
    handlers.get(event)?.delete(fn);
  },
  emit(event: string, data: unknown) {
    for (const fn of handlers.get(event) ?? []) fn(data);
  },
  reset() {
    handlers.clear();
  },
};
