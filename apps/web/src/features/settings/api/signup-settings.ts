import type { SignupSettings } from "@atende/shared";
import { api } from "../../../lib/api";

export const signupSettingsKeys = { all: ["billing", "signup-settings"] as const };

/** Super administrators: the trial a self-registered company gets and the plan sign-up selects first. */
export function fetchSignupSettings(signal?: AbortSignal): Promise<SignupSettings> {
  return api<SignupSettings>("/billing/signup-settings", { signal });
}

export function saveSignupSettings(s: SignupSettings): Promise<SignupSettings> {
  return api<SignupSettings>("/billing/signup-settings", { method: "PUT", body: s });
}
