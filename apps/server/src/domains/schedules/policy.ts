import { atLeast, type Actor } from "@atende/shared";

/**
 * Everyone in the company sees every schedule; a plain user changes or deletes only the schedules
 * they wrote, supervisors and administrators any of the company's.
 */
export function canChangeSchedule(actor: Pick<Actor, "id" | "profile" | "super">, schedule: { user_id: number | null }): boolean {
  return atLeast(actor, "supervisor") || schedule.user_id === actor.id;
}
