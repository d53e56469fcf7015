import { z } from "zod";
import { LOCAL_DATE_TIME } from "../time-zone.js";
import { contactRef } from "./contacts.js";

/**
 * Schedule statuses: PENDENTE (saved, its send job not yet queued), AGENDADA (the send job is queued
 * for sendAt), ENVIADA (delivered through the connection; sentAt set), ERRO (the send failed; `error`
 * says why; shown as 'Erro de Envio').
 */
export const SCHEDULE_STATUSES = ["PENDENTE", "AGENDADA", "ENVIADA", "ERRO"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** Variables replaced in the body when it is sent (2-administration §3). */
export const SCHEDULE_VARIABLES = ["firstName", "name", "ms", "protocol", "hora"] as const;

/** Attachments: png, jpg or jpeg images only. */
export const SCHEDULE_MEDIA_EXTENSIONS = ["png", "jpg", "jpeg"] as const;

/**
 * When to send: a wall-clock time without offset ("2026-11-24T09:30") is read in the company's time
 * zone; an instant with an offset or Z ("2026-11-24T12:30:00Z") is taken as it is.
 */
const sendAt = z.preprocess(
  (v) => (v === null || v === "" ? undefined : v),
  z.union([z.string().regex(LOCAL_DATE_TIME, "Obrigatório"), z.coerce.date({ error: "Obrigatório" })], { error: "Obrigatório" }),
);

/** Schedule dialog (2-administration §5): body ≥ 5 'Mensagem muito curta'; contact and sendAt 'Obrigatório'. */
export const scheduleInput = z.object({
  body: z.string({ error: "Obrigatório" }).trim().min(1, { error: "Obrigatório", abort: true }).min(5, "Mensagem muito curta").max(65536, "Too Long!"),
  contactId: z.coerce.number({ error: "Obrigatório" }).int().positive("Obrigatório"),
  sendAt,
  whatsappId: z.coerce.number().int().positive().nullable().optional(),
});
export type ScheduleInput = z.input<typeof scheduleInput>;

export const scheduleUpdateInput = scheduleInput.partial();
export type ScheduleUpdateInput = z.input<typeof scheduleUpdateInput>;

export const schedulesQuery = z.object({
  searchParam: z.string().max(200).optional().default(""),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  contactId: z.coerce.number().int().positive().optional(),
});

export const schedule = z.object({
  id: z.number(),
  body: z.string(),
  contactId: z.number(),
  contact: contactRef,
  sendAt: z.string(),
  sentAt: z.string().nullable(),
  status: z.enum(SCHEDULE_STATUSES),
  /** Why the last send failed (status ERRO). */
  error: z.string().nullable(),
  /** API path (under /api) serving the attachment to users of the company, or null. */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  whatsappId: z.number().nullable(),
  ticketId: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Schedule = z.infer<typeof schedule>;

export const schedulesPage = z.object({ schedules: z.array(schedule), hasMore: z.boolean(), count: z.number() });
export type SchedulesPage = z.infer<typeof schedulesPage>;

/** Event on company-{id}-schedule. */
export type ScheduleEvent = { action: "create" | "update"; schedule: Schedule } | { action: "delete"; scheduleId: number };
