import { createHmac } from "node:crypto";
import { E2E_GRAPH } from "../support/constants.js";
import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

/**
 * An agent answers on an official (Cloud API) number with an approved template: named body
 * variables, an image header, a URL button suffix and a copy code, sent as Meta documents them to the
 * e2e server's Graph API (a local fake that refuses anything else).
 */
test("an agent sends a template with named, header and button parameters from the ticket", async ({ page, request, baseURL }) => {
  const t = await createTenant();
  await login(page, t.admin.email);
  const api = async (method: string, url: string, body?: unknown) =>
    page.evaluate(
      async ({ method, url, body }) => {
        const res = await fetch(url, {
          method,
          headers: { authorization: `Bearer ${localStorage.getItem("token")}`, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: res.status, json: (await res.json()) as Record<string, unknown> };
      },
      { method, url, body },
    );

  const business = await api("POST", "/api/businesses", {
    name: "Loja Oficial",
    wabaId: E2E_GRAPH.wabaId,
    accessToken: E2E_GRAPH.accessToken,
    appSecret: E2E_GRAPH.appSecret,
    verifyToken: "verify-e2e-123",
  });
  expect(business.status).toBe(200);
  const businessId = business.json.id as number;
  expect((await api("POST", `/api/businesses/${businessId}/sync`)).status).toBe(200);

  // the customer writes first (Meta's signed webhook), so the ticket exists
  const customer = "5511987651234";
  const payload = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: E2E_GRAPH.wabaId,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: E2E_GRAPH.phoneDigits, phone_number_id: E2E_GRAPH.phoneNumberId },
              contacts: [{ profile: { name: "Joana Lima" }, wa_id: customer }],
              messages: [{ from: customer, id: "wamid.HBgNNTUxMTk4NzY1MTIzNBUCABIYIEU2RTJFMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAA", timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: "Oi, meu pedido saiu?" } }],
            },
          },
        ],
      },
    ],
  });
  const delivered = await request.post(`${baseURL}/api/webhooks/whatsapp/${businessId}`, {
    data: payload,
    headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${createHmac("sha256", E2E_GRAPH.appSecret).update(payload).digest("hex")}` },
  });
  expect(delivered.status()).toBe(200);
  const ticket = await expect
    .poll(
      () =>
        db().maybe<{ id: number; uuid: string }>(
          `SELECT t.id, t.uuid::text AS uuid FROM tickets t JOIN contacts c ON c.company_id = t.company_id AND c.id = t.contact_id
            WHERE t.company_id = $1 AND c.number = $2`,
          [t.companyId, customer],
        ),
      { timeout: 15_000 },
    )
    .not.toBeNull()
    .then(() =>
      db().one<{ id: number; uuid: string }>(
        "SELECT t.id, t.uuid::text AS uuid FROM tickets t JOIN contacts c ON c.company_id = t.company_id AND c.id = t.contact_id WHERE t.company_id = $1 AND c.number = $2",
        [t.companyId, customer],
      ),
    );
  expect((await api("PUT", `/api/tickets/${ticket.id}`, { status: "open", userId: t.admin.id })).status).toBe(200);

  await page.goto(`/tickets/${ticket.uuid}`);
  await expect(page.getByTestId("messages-list").getByText("Oi, meu pedido saiu?")).toBeVisible();
  await page.getByTestId("template-open").click();
  const dialog = page.getByRole("dialog");
  await dialog.getByTestId("template-select").locator("..").click();
  await page.getByRole("option", { name: /pedido_confirmado/ }).click();

  const send = dialog.getByTestId("template-send");
  await expect(send).toBeDisabled();
  await dialog.getByTestId("template-field-headerMedia").fill("https://loja.test/img/pedido.jpg");
  await dialog.getByTestId("template-field-named.first_name").fill("Joana");
  await dialog.getByTestId("template-field-named.order_id").fill("4512");
  await dialog.getByTestId("template-field-button.0").fill("4512");
  await expect(send).toBeDisabled(); // the copy code is still empty
  await dialog.getByTestId("template-field-button.1").fill("FRETE10");
  await expect(dialog.getByTestId("template-preview")).toContainText("Olá Joana, seu pedido 4512 foi confirmado.");
  await screenshot(page, { path: "test-results/template-send-dialog.png" });
  await send.click();

  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("messages-list").getByText("Olá Joana, seu pedido 4512 foi confirmado.")).toBeVisible();
  await screenshot(page, { path: "test-results/template-sent.png" });
  const stored = await db().one<{ body: string; provider_id: string | null; send_status: string | null }>(
    "SELECT body, provider_id, send_status FROM messages WHERE company_id = $1 AND ticket_id = $2 AND from_me ORDER BY id DESC LIMIT 1",
    [t.companyId, ticket.id],
  );
  expect(stored.body).toContain("Olá Joana, seu pedido 4512 foi confirmado.");
  expect(stored.provider_id).toMatch(/^wamid\./);
});
