import { dateFieldInput, typeDate } from "../support/date-fields.js";
import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

// The browser is in New York with an American locale: what the pickers show must follow the interface
// language, and what a time means must follow the company's time zone, never the browser's.
test.use({ locale: "en-US", timezoneId: "America/New_York" });

/** Two days from now as dd/MM/yyyy digits and as yyyy-MM-dd, in Manaus. */
function dayAfterTomorrow(): { digits: string; iso: string } {
  const iso = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Manaus" }).format(new Date(Date.now() + 2 * 86_400_000));
  const [y, m, d] = iso.split("-") as [string, string, string];
  return { digits: `${d}${m}${y}`, iso };
}

test("the company's time zone is chosen in settings and every time entered is read in it, in the interface language's format", async ({ page }) => {
  const t = await createTenant();
  await db().exec("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Zeca Fuso', '5592988887777')", [t.companyId]);
  await login(page, t.admin.email);

  await page.goto("/settings");
  const zone = page.getByTestId("time-zone");
  await expect(zone).toHaveValue("America/Sao Paulo (GMT-03:00)");
  await zone.click();
  await zone.fill("Manaus");
  await page.getByRole("option", { name: "America/Manaus (GMT-04:00)" }).click();
  await expect(page.getByText("Fuso horário atualizado.")).toBeVisible();
  await expect(zone).toHaveValue("America/Manaus (GMT-04:00)");
  const stored = await db().one<{ time_zone: string }>("SELECT time_zone FROM companies WHERE id = $1", [t.companyId]);
  expect(stored.time_zone).toBe("America/Manaus");
  await screenshot(page, { path: "/tmp/time-zone-settings.png" });

  // Opening hours show the zone they are read in.
  await page.getByTestId("schedule-type").locator("..").click();
  await page.getByRole("option", { name: "Gerenciamento por empresa" }).click();
  await page.getByRole("tab", { name: "Horários" }).click();
  await expect(page.getByTestId("time-zone-hint")).toContainText("America/Manaus (GMT-04:00)");

  // A schedule entered at 10:30 two days ahead is sent at 10:30 in Manaus (14:30 UTC), whatever the browser's zone.
  await page.goto("/schedules");
  await page.getByRole("button", { name: "Novo agendamento" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("time-zone-hint")).toContainText("America/Manaus (GMT-04:00)");
  await dialog.getByRole("combobox", { name: "Contato", exact: true }).fill("Zeca");
  await page.getByRole("option", { name: /Zeca Fuso/ }).click();
  await dialog.getByLabel("Mensagem").fill("Lembrete da sua consulta amanhã.");
  const day = dayAfterTomorrow();
  await typeDate(page, dialog, "Data de envio", `${day.digits}1030`);
  await expect(dateFieldInput(dialog, "sendAt")).toHaveValue(`${day.digits.slice(0, 2)}/${day.digits.slice(2, 4)}/${day.digits.slice(4)} 10:30`);
  await screenshot(page, { path: "/tmp/time-zone-schedule.png" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Agendamento salvo com sucesso!")).toBeVisible();
  const saved = await db().one<{ at: string }>(
    "SELECT to_char(send_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS at FROM schedules WHERE company_id = $1",
    [t.companyId],
  );
  expect(saved.at).toBe(`${day.iso} 14:30`);
  await expect(page.getByTestId("schedule-row")).toContainText(`${day.digits.slice(0, 2)}/${day.digits.slice(2, 4)}/${day.digits.slice(4)} 10:30`);

  // Reopened, it shows the same wall-clock time.
  await page.getByTestId("schedule-row").click();
  await expect(dateFieldInput(page.getByRole("dialog"), "sendAt")).toHaveValue(/ 10:30$/);
});
