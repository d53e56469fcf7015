import type { Business, BusinessInput, BusinessSyncResult, BusinessUpdateInput, SandboxBusinessResult } from "@atende/shared";
import { api } from "../../../lib/api";

export const businessKeys = { all: ["businesses"] as const };

export function fetchBusinesses(): Promise<Business[]> {
  return api<Business[]>("/businesses");
}

export function createBusiness(input: BusinessInput): Promise<Business> {
  return api<Business>("/businesses", { method: "POST", body: input });
}

export function updateBusiness(id: number, input: BusinessUpdateInput): Promise<Business> {
  return api<Business>(`/businesses/${id}`, { method: "PUT", body: input });
}

export function syncBusiness(id: number): Promise<BusinessSyncResult> {
  return api<BusinessSyncResult>(`/businesses/${id}/sync`, { method: "POST" });
}

/** The built-in test business (two sandbox numbers, approved templates); creating it twice is harmless. */
export function createSandboxBusiness(): Promise<SandboxBusinessResult> {
  return api<SandboxBusinessResult>("/businesses/sandbox", { method: "POST" });
}

/** The sandbox business's simulated failure rate (0-1) for campaign sends. */
export function setSandboxFailureRate(id: number, failureRate: number): Promise<unknown> {
  return api(`/sandbox-businesses/${id}/failure-rate`, { method: "PUT", body: { failureRate } });
}
