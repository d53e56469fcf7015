import { z } from "zod";
import { LIMITS } from "../limits.js";
import { WEEKDAYS } from "../enums.js";
import { hhmm, MSG } from "./common.js";

/** One day of a queue's (or company's) opening hours; empty times mean "closed that day". */
export const queueScheduleEntry = z.object({
  weekday: z.string().max(30),
  weekdayEn: z.enum(WEEKDAYS.map((d) => d.weekdayEn) as [string, ...string[]]),
  startTime: hhmm.or(z.literal("")),
  endTime: hhmm.or(z.literal("")),
});
export type QueueScheduleEntry = z.infer<typeof queueScheduleEntry>;

/** Default opening hours (2-administration §9): Mon-Fri 08:00-18:00, Sat 08:00-12:00, Sun closed (00:00-00:00). */
export const DEFAULT_QUEUE_SCHEDULES: QueueScheduleEntry[] = WEEKDAYS.map((d) => ({
  weekday: d.weekday,
  weekdayEn: d.weekdayEn,
  startTime: d.weekdayEn === "sunday" ? "00:00" : "08:00",
  endTime: d.weekdayEn === "sunday" ? "00:00" : d.weekdayEn === "saturday" ? "12:00" : "18:00",
}));

/** Required text: an empty value reports only "Required" (the length checks stop there). */
const requiredText = (min: number, max: number) =>
  z.string({ error: MSG.required }).trim().min(1, { error: MSG.required, abort: true }).min(min, MSG.tooShort).max(max, MSG.tooLong);

const optionalId = z.coerce.number().int().positive().nullable();

const queueFields = {
  name: requiredText(LIMITS.queueNameMin, LIMITS.queueNameMax),
  color: requiredText(LIMITS.queueColorMin, LIMITS.queueColorMax),
  greetingMessage: z.string().max(10000, MSG.tooLong),
  outOfHoursMessage: z.string().max(10000, MSG.tooLong),
  orderQueue: z.coerce.number().int().min(0).max(100000).nullable(),
  /** Omitted on create: the default hours; omitted on update: unchanged. */
  schedules: z.array(queueScheduleEntry).max(7),
  promptId: optionalId,
  integrationId: optionalId,
};

/** Queue dialog (2-administration §5): name 2-50, colour 3-9, both required. */
export const queueInput = z.object({
  ...queueFields,
  greetingMessage: queueFields.greetingMessage.optional().default(""),
  outOfHoursMessage: queueFields.outOfHoursMessage.optional().default(""),
  orderQueue: queueFields.orderQueue.optional(),
  schedules: queueFields.schedules.optional(),
  promptId: optionalId.optional(),
  integrationId: optionalId.optional(),
});
export type QueueInput = z.input<typeof queueInput>;
/** PUT /queue/{id}: the payload plus schedules, promptId and integrationId; omitted fields keep their values. */
export const queueUpdateInput = z.object(queueFields).partial();
export type QueueUpdateInput = z.input<typeof queueUpdateInput>;

export const queue = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  greetingMessage: z.string(),
  outOfHoursMessage: z.string(),
  orderQueue: z.number().nullable(),
  schedules: z.array(queueScheduleEntry),
  promptId: z.number().nullable(),
  integrationId: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Queue = z.infer<typeof queue>;

/** Event on company-{id}-queue. */
export type QueueEvent = { action: "create" | "update"; queue: Queue } | { action: "delete"; queueId: number };
