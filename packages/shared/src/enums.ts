export const PROFILES = ["admin", "supervisor", "user"] as const;
export type Profile = (typeof PROFILES)[number];

export const PLAN_FLAGS = [
  "useCampaigns",
  "useSchedules",
  "useInternalChat",
  "useExternalApi",
  "useKanban",
  "useOpenAi",
  "useIntegrations",
] as const;
export type PlanFlag = (typeof PLAN_FLAGS)[number];
export type PlanFlags = Record<PlanFlag, boolean>;

export const RECURRENCES = ["MENSAL", "BIMESTRAL", "TRIMESTRAL", "SEMESTRAL", "ANUAL"] as const;
export type Recurrence = (typeof RECURRENCES)[number];
export const RECURRENCE_MONTHS: Record<Recurrence, number> = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
};

export const TICKET_STATUSES = ["pending", "open", "paused", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** REAUTH_REQUIRED: a Cloud API connection whose token Meta refused (error 190, expired or revoked). */
export const SESSION_STATUSES = ["qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING", "CONNECTED", "REAUTH_REQUIRED"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export const ALERT_SESSION_STATUSES: readonly SessionStatus[] = ["qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING", "REAUTH_REQUIRED"];

export const MEDIA_TYPES = ["chat", "image", "audio", "video", "application", "locationMessage", "vcard", "call_log"] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export const WEEKDAYS = [
  { weekday: "Segunda-feira", weekdayEn: "monday" },
  { weekday: "Terça-feira", weekdayEn: "tuesday" },
  { weekday: "Quarta-feira", weekdayEn: "wednesday" },
  { weekday: "Quinta-feira", weekdayEn: "thursday" },
  { weekday: "Sexta-feira", weekdayEn: "friday" },
  { weekday: "Sábado", weekdayEn: "saturday" },
  { weekday: "Domingo", weekdayEn: "sunday" },
] as const;
