import { LIMITS } from "@atende/shared";
import { STORAGE_KEYS } from "./storage";

/** Notification volume, 0 to 1 (spec 1-core §9: stored locally, default 1). */
export function getVolume(): number {
  const raw = localStorage.getItem(STORAGE_KEYS.volume);
  const n = raw === null ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : LIMITS.volumeDefault;
}

export function setVolume(value: number): void {
  const clamped = Math.min(1, Math.max(0, Math.round(value * 10) / 10));
  localStorage.setItem(STORAGE_KEYS.volume, String(clamped));
}
