// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { WhatsappTemplate } from "@atende/shared";
import i18n from "../../../lib/i18n";
import { fetchTicketTemplates, sendTicketTemplate } from "../api/templates";
import { TemplateSendDialog } from "../components/template-send-dialog";
import { messageFixture } from "./fixtures";

vi.mock("../api/templates", () => ({ ticketTemplatesKey: (id: number) => ["tickets", id, "templates"], fetchTicketTemplates: vi.fn(), sendTicketTemplate: vi.fn() }));
const fetchMock = vi.mocked(fetchTicketTemplates);
const sendMock = vi.mocked(sendTicketTemplate);

const template = (over: Partial<WhatsappTemplate>): WhatsappTemplate => ({
  id: 1,
  businessId: 1,
  templateId: "1",
  name: "t",
  language: "pt_BR",
  category: "MARKETING",
  status: "APPROVED",
  headerFormat: "",
  parameterFormat: "POSITIONAL",
  body: "",
  components: [],
  variableCount: 0,
  rejectedReason: "",
  updatedAt: "2026-11-01T10:00:00.000Z",
  ...over,
});
const tracking = template({
  id: 7,
  name: "rastreio",
  headerFormat: "TEXT",
  components: [
    { type: "HEADER", format: "TEXT", text: "Pedido {{1}}" },
    { type: "BODY", text: "Olá {{1}}, total {{2}}." },
    { type: "BUTTONS", buttons: [{ type: "URL", text: "Rastrear", url: "https://loja.test/r/{{1}}" }, { type: "COPY_CODE" }, { type: "QUICK_REPLY", text: "Sim" }] },
  ],
});
const welcome = template({
  id: 8,
  name: "boas_vindas",
  parameterFormat: "NAMED",
  components: [
    { type: "HEADER", format: "TEXT", text: "Olá {{first_name}}" },
    { type: "BODY", text: "{{first_name}}, pedido {{order_id}}." },
  ],
});

beforeAll(async () => {
  await i18n.changeLanguage("pt");
});
afterEach(() => {
  cleanup();
  fetchMock.mockReset();
  sendMock.mockReset();
});

function show(onSent = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <TemplateSendDialog ticketId={5} open onClose={() => undefined} onSent={onSent} />
    </QueryClientProvider>,
  );
  return onSent;
}

async function choose(name: string) {
  fireEvent.mouseDown(await screen.findByRole("combobox"));
  fireEvent.click(within(await screen.findByRole("listbox")).getByText(new RegExp(name)));
}
const type = (key: string, value: string) => fireEvent.change(screen.getByTestId(`template-field-${key}`), { target: { value } });
const sendButton = () => screen.getByTestId("template-send") as HTMLButtonElement;

describe("template send dialog", () => {
  it("asks for the header, body and button values, previews the text and sends Meta's parameters", async () => {
    fetchMock.mockResolvedValue([tracking, welcome]);
    sendMock.mockResolvedValue(messageFixture({ id: 99, ticketId: 5, createdAt: "2026-11-01T10:00:00.000Z" }));
    const onSent = show();
    await choose("rastreio");
    type("headerText", "4512");
    type("body.1", "Ana");
    type("body.2", "R$ 10");
    type("button.0", "ABC");
    expect(sendButton().disabled).toBe(true); // the coupon code is still empty
    type("button.1", "CUPOM10");
    expect(screen.getByTestId("template-preview").textContent).toBe("Pedido 4512\n\nOlá Ana, total R$ 10.\n\n[Rastrear] https://loja.test/r/ABC\n[Copiar código] CUPOM10\n[Sim]");
    expect(sendButton().disabled).toBe(false);
    fireEvent.click(sendButton());
    await waitFor(() => expect(onSent).toHaveBeenCalledTimes(1));
    expect(sendMock).toHaveBeenCalledWith(5, {
      templateId: 7,
      variables: ["Ana", "R$ 10"],
      namedVariables: {},
      headerText: "4512",
      buttons: [
        { index: 0, value: "ABC" },
        { index: 1, value: "CUPOM10" },
      ],
    });
  });

  it("asks once for a named variable used in header and body", async () => {
    fetchMock.mockResolvedValue([tracking, welcome]);
    show();
    await choose("boas_vindas");
    expect(screen.getAllByTestId(/^template-field-/).map((e) => e.getAttribute("data-testid"))).toEqual(["template-field-named.first_name", "template-field-named.order_id"]);
    type("named.first_name", "Ana");
    expect(sendButton().disabled).toBe(true);
    type("named.order_id", "77");
    expect(screen.getByTestId("template-preview").textContent).toBe("Olá Ana\n\nAna, pedido 77.");
    expect(sendButton().disabled).toBe(false);
  });
});
