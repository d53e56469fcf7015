import { logFailure } from "./log-failure";

/** Local browser storage keys (spec 1-core §3). */
export const STORAGE_KEYS = {
  token: "token",
  companyId: "companyId",
  userId: "userId",
  companyDueDate: "companyDueDate",
  settings: "settings",
  volume: "volume",
  campaignVisibility: "cshow",
  signOption: "signOption",
  theme: "preferredTheme",
  language: "language",
  tasks: "tasks",
} as const;

/**
 * This tab's note that its session was ended by a login elsewhere (sessionStorage: one tab, survives
 * the reload that follows), so the login page it lands on says why.
 */
export const ENDED_ELSEWHERE_KEY = "endedElsewhere";

export function readJson<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch (err) {
    logFailure("reading local storage failed", err, { key });
    return fallback;
  }
}

export function writeJson(key: string, value: unknown): void {
  localStorage.setItem(key, JSON.stringify(value));
}

/** Clears the session's local data (kept: theme, language, volume). */
export function clearSessionData(): void {
  for (const key of [STORAGE_KEYS.token, STORAGE_KEYS.companyId, STORAGE_KEYS.userId, STORAGE_KEYS.companyDueDate, STORAGE_KEYS.settings]) {
    localStorage.removeItem(key);
  }
}
