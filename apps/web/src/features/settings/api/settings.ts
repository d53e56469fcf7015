import type { Setting } from "@atende/shared";
import { api } from "../../../lib/api";

export const settingKeys = { all: ["settings"] as const };

export function fetchSettings(): Promise<Setting[]> {
  return api<Setting[]>("/settings");
}

export function updateSetting(key: string, value: string): Promise<Setting> {
  return api<Setting>(`/settings/${encodeURIComponent(key)}`, { method: "PUT", body: { value } });
}
