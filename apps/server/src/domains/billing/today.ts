/** Today's date (YYYY-MM-DD, UTC), the day billing compares due dates with (as core/company-state does). */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}
