import { LIMITS } from "./limits.js";

/**
 * Who is online, one rule for every screen that shows presence (the dashboard's attendants, the users
 * page): the user has the app open now. The socket layer sets `users.online` when a socket connects
 * and clears it when the user's last socket (on any process) closes; each connect and each
 * `userStatus` (the web sends one every `LIMITS.userStatusIntervalMs`, 5 minutes) records
 * `last_seen_at`. So a user is online while the flag is set and was confirmed within two intervals
 * (10 minutes): a user who closes the app is offline at once (not "seen in the last 5 minutes"), and a
 * flag a crashed process never cleared fades after 10 minutes.
 */
export const PRESENCE_STALE_AFTER_MS = 2 * LIMITS.userStatusIntervalMs;

export interface PresenceState {
  /** the socket flag (users.online) */
  online: boolean;
  /** the last connect or userStatus (users.last_seen_at) */
  lastSeenAt: Date | null;
}

export function isOnline(p: PresenceState, now: Date): boolean {
  return p.online && p.lastSeenAt !== null && now.getTime() - p.lastSeenAt.getTime() < PRESENCE_STALE_AFTER_MS;
}
