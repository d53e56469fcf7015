import type { Page } from "@playwright/test";
import { db } from "../support/fixtures.js";

export interface SeededConnection {
  name: string;
  status: "qrcode" | "PAIRING" | "DISCONNECTED" | "TIMEOUT" | "OPENING" | "CONNECTED";
  provider?: "sandbox" | "baileys" | "official";
  number?: string;
  qrcode?: string;
  isDefault?: boolean;
  updatedAt?: string;
}

/** A connection row written straight into the database (no driver runs for it). */
export async function seedConnection(companyId: number, c: SeededConnection): Promise<number> {
  const row = await db().one<{ id: number }>(
    `INSERT INTO whatsapps (company_id, name, provider, status, qrcode, number, is_default, is_official, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9::timestamptz, now())) RETURNING id`,
    [
      companyId,
      c.name,
      c.provider ?? "sandbox",
      c.status,
      c.qrcode ?? "",
      c.number ?? "",
      c.isDefault ?? false,
      c.provider === "official",
      c.updatedAt ?? null,
    ],
  );
  if (c.status === "CONNECTED") await holdElsewhere(row.id);
  return row.id;
}

/**
 * A seeded CONNECTED row has no driver, and a server adopts connected sessions nobody runs (resuming
 * them would change their status and number). A lease held by a made-up live process keeps it as seeded.
 */
export async function holdElsewhere(whatsappId: number): Promise<void> {
  const leases = await db().one<{ t: string | null }>("SELECT to_regclass('connection_owners')::text AS t");
  if (!leases.t) return;
  await db().exec(
    `INSERT INTO connection_owners (company_id, whatsapp_id, owner_id, heartbeat_at)
     SELECT company_id, id, 'e2e-seed', now() + interval '1 hour' FROM whatsapps WHERE id = $1
     ON CONFLICT (company_id, whatsapp_id) DO UPDATE SET owner_id = 'e2e-seed', heartbeat_at = now() + interval '1 hour'`,
    [whatsappId],
  );
}

export const rowOf = (page: Page, name: string) => page.getByTestId("connection-row").filter({ hasText: name });

/** Switches the app to the dark theme (kept in local storage like the app's own toggle). */
export async function switchToDarkTheme(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.setItem("preferredTheme", "dark"));
  await page.reload();
}

/** Waits until the open dialog has faded in, so a screenshot shows it as the user sees it. */
export async function dialogShown(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const c = document.querySelector(".MuiDialog-container");
    return c !== null && getComputedStyle(c).opacity === "1";
  });
}
