import { z } from "zod";
import { RECURRENCES } from "../enums.js";
import { isTimeZone } from "../time-zone.js";
import { emailField, hhmm, isoDate, MSG, requiredString } from "./common.js";
import { plan } from "./plans.js";
import { setting } from "./settings.js";

export const scheduleEntry = z.object({
  weekday: z.string().max(30),
  weekdayEn: z.string().max(30),
  startTime: hhmm.or(z.literal("")),
  endTime: hhmm.or(z.literal("")),
});
export type ScheduleEntry = z.infer<typeof scheduleEntry>;

export const companyInput = z.object({
  name: requiredString(2, 100),
  email: emailField,
  phone: z.string().max(30).optional().default(""),
  planId: z.coerce.number({ error: MSG.required }).int().positive(),
  status: z.boolean().default(true),
  campaignsEnabled: z.boolean().default(true),
  dueDate: isoDate.nullable().optional(),
  recurrence: z.enum(RECURRENCES).default("MENSAL"),
  biUrl: z.string().max(2000).optional().default(""),
  billingName: z.string().max(200).optional().default(""),
  document: z.string().max(30).optional().default(""),
  /** Used only on create: the company's first admin password. */
  password: z.string().min(5, MSG.tooShort).max(50, MSG.tooLong).optional(),
});
export type CompanyInput = z.infer<typeof companyInput>;

/** POST /companies: the first admin's password is required (no default password). */
export const companyCreateInput = companyInput.extend({
  password: z.string({ error: MSG.required }).min(1, MSG.required).min(5, MSG.tooShort).max(50, MSG.tooLong),
});
export type CompanyCreateInput = z.infer<typeof companyCreateInput>;

/** PUT /companies/{id}: absent fields keep their value; a password resets the company admin's. */
export const companyUpdateInput = z.object({
  name: requiredString(2, 100).optional(),
  email: emailField.optional(),
  phone: z.string().max(30).optional(),
  planId: z.coerce.number().int().positive().optional(),
  status: z.boolean().optional(),
  campaignsEnabled: z.boolean().optional(),
  dueDate: isoDate.nullable().optional(),
  recurrence: z.enum(RECURRENCES).optional(),
  biUrl: z.string().max(2000).optional(),
  billingName: z.string().max(200).optional(),
  document: z.string().max(30).optional(),
  password: z.string().min(5, MSG.tooShort).max(50, MSG.tooLong).or(z.literal("")).optional(),
});
export type CompanyUpdateInput = z.infer<typeof companyUpdateInput>;

export const company = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  planId: z.number(),
  status: z.boolean(),
  campaignsEnabled: z.boolean(),
  dueDate: z.string().nullable(),
  recurrence: z.string(),
  biUrl: z.string(),
  billingName: z.string(),
  document: z.string(),
  createdAt: z.string(),
  plan: plan.nullable(),
  schedules: z.array(scheduleEntry),
  /** IANA time zone of the company's opening hours and of the dates and times its users enter. */
  timeZone: z.string(),
  settings: z.array(setting).optional(),
});
export type Company = z.infer<typeof company>;

/** Public sign-up (2-administration §5); the server decides due date, status and recurrence. */
export const signupInput = z.object({
  name: requiredString(2, 50).describe("The company's name"),
  userName: requiredString(2, 50).describe("The name of the person signing up: the company's first administrator"),
  email: emailField,
  phone: requiredString(8, 30),
  password: z.string({ error: MSG.required }).min(1, MSG.required).min(5, MSG.tooShort).max(50, MSG.tooLong),
  planId: z.coerce.number({ error: MSG.required }).int().positive(),
});
export type SignupInput = z.infer<typeof signupInput>;

export const signupResponse = z.object({ id: z.number(), name: z.string(), email: z.string(), dueDate: z.string() });
export type SignupResponse = z.infer<typeof signupResponse>;

export const companyTimeZoneInput = z.object({
  timeZone: z
    .string({ error: MSG.required })
    .max(64)
    .refine(isTimeZone, "Fuso horário desconhecido")
    .describe("IANA time zone name, e.g. America/Sao_Paulo"),
});
export type CompanyTimeZoneInput = z.infer<typeof companyTimeZoneInput>;

export const companySchedulesInput = z.object({ schedules: z.array(scheduleEntry).max(7) });
export const companyIdParam = z.object({ companyId: z.coerce.number().int().positive() });
