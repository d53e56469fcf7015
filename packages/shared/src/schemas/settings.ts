import { z } from "zod";

/**
 * Company settings: key → value. Defaults apply when a company has no row for a key
 * (documented in docs/settings.md).
 */
export const SETTING_DEFAULTS = {
  userCreation: "enabled",
  requireTagBeforeClosing: "disabled",
  restrictSystemQueuesVisibility: "disabled",
  enableBlockList: "disabled",
  sendGreetingAccepted: "disabled",
  scheduleType: "disabled",
  campaignsEnabled: "true",
  userRating: "disabled",
  signMessages: "enabled",
} as const;
export type SettingKey = keyof typeof SETTING_DEFAULTS;
export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as SettingKey[];

/** Allowed values per key; any value not listed is refused with ERR_VALIDATION. */
export const SETTING_VALUES: Record<SettingKey, readonly string[]> = {
  userCreation: ["enabled", "disabled"],
  requireTagBeforeClosing: ["enabled", "disabled"],
  restrictSystemQueuesVisibility: ["enabled", "disabled"],
  enableBlockList: ["enabled", "disabled"],
  sendGreetingAccepted: ["enabled", "disabled"],
  scheduleType: ["disabled", "company", "queue"],
  campaignsEnabled: ["true", "false"],
  userRating: ["enabled", "disabled"],
  signMessages: ["enabled", "disabled"],
};

export const setting = z.object({ key: z.string(), value: z.string() });
export type Setting = z.infer<typeof setting>;

export const settingUpdate = z.object({ value: z.string().max(500) });

export const settingKeyParam = z.object({ key: z.string().max(100) });

export function isSettingKey(key: string): key is SettingKey {
  return Object.prototype.hasOwnProperty.call(SETTING_DEFAULTS, key);
}
