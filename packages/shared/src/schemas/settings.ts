import { z } from "zod";
import { normalizeHostName, parseLinkDomains } from "../link-domains.js";

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
  /** The company's own domains, comma-separated host names (docs/settings.md "Campaign links"). */
  linkDomains: "",
  /** The host name the company serves its campaign links from (a CNAME or reverse proxy to the platform); "" → PUBLIC_URL. */
  linkHost: "",
  shareContactHistory: "disabled",
  webhookRetentionDays: "3",
} as const;
/**
 * The days a raw Cloud API webhook delivery (its body names the customer and holds what they wrote) is
 * kept after it arrived; the webhooks' purge job deletes older ones (docs/settings.md).
 */
export const WEBHOOK_RETENTION_DAYS = ["1", "2", "3", "7", "14", "30"] as const;

export type SettingKey = keyof typeof SETTING_DEFAULTS;
export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as SettingKey[];

/** Allowed values per key of a fixed choice; any value not listed is refused with ERR_VALIDATION. */
export const SETTING_VALUES: Partial<Record<SettingKey, readonly string[]>> = {
  userCreation: ["enabled", "disabled"],
  requireTagBeforeClosing: ["enabled", "disabled"],
  restrictSystemQueuesVisibility: ["enabled", "disabled"],
  enableBlockList: ["enabled", "disabled"],
  sendGreetingAccepted: ["enabled", "disabled"],
  scheduleType: ["disabled", "company", "queue"],
  campaignsEnabled: ["true", "false"],
  userRating: ["enabled", "disabled"],
  signMessages: ["enabled", "disabled"],
  shareContactHistory: ["enabled", "disabled"],
  webhookRetentionDays: WEBHOOK_RETENTION_DAYS,
};

export const setting = z.object({ key: z.string(), value: z.string() });
export type Setting = z.infer<typeof setting>;

export const settingUpdate = z.object({ value: z.string().max(500) });

export const settingKeyParam = z.object({ key: z.string().max(100) });

export function isSettingKey(key: string): key is SettingKey {
  return Object.prototype.hasOwnProperty.call(SETTING_DEFAULTS, key);
}

/**
 * The value stored for `key` (a free-form one normalized: host names lower-cased, each once), or a
 * refusal naming what is allowed. The server stores only an accepted value; the web checks its form with it.
 */
export function settingValue(key: SettingKey, value: string): { value: string } | { refusal: string } {
  if (key === "linkDomains") {
    const hosts = parseLinkDomains(value);
    return hosts ? { value: hosts.join(", ") } : { refusal: "Host names separated by commas (e.g. loja.com.br), at most 10" };
  }
  if (key === "linkHost") {
    if (!value.trim()) return { value: "" };
    const host = normalizeHostName(value);
    return host ? { value: host } : { refusal: "A host name (e.g. links.loja.com.br), without https:// or a path" };
  }
  const allowed = SETTING_VALUES[key] ?? [];
  return allowed.includes(value) ? { value } : { refusal: `One of: ${allowed.join(", ")}` };
}
