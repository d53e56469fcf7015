import type { Company, CompanyCreateInput, CompanyUpdateInput, ScheduleEntry } from "@atende/shared";
import { api } from "../../../lib/api";

export const companyKeys = {
  all: ["companies"] as const,
  one: (id: number) => ["companies", id] as const,
};

export function fetchCompanies(): Promise<Company[]> {
  return api<Company[]>("/companies");
}

export function fetchCompany(id: number): Promise<Company> {
  return api<Company>(`/companies/${id}`);
}

export function createCompany(input: CompanyCreateInput): Promise<Company> {
  return api<Company>("/companies", { method: "POST", body: input });
}

export function updateCompany(id: number, input: CompanyUpdateInput): Promise<Company> {
  return api<Company>(`/companies/${id}`, { method: "PUT", body: input });
}

export function deleteCompany(id: number): Promise<unknown> {
  return api(`/companies/${id}`, { method: "DELETE" });
}

export function updateCompanySchedules(id: number, schedules: ScheduleEntry[]): Promise<Company> {
  return api<Company>(`/companies/${id}/schedules`, { method: "PUT", body: { schedules } });
}

export function updateCompanyTimeZone(id: number, timeZone: string): Promise<Company> {
  return api<Company>(`/companies/${id}/time-zone`, { method: "PUT", body: { timeZone } });
}
