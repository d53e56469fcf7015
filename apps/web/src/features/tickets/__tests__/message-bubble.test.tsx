// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import i18n from "../../../lib/i18n";
import { fetchMediaBlob } from "../api/messages";
import { MessageBubble } from "../components/message-bubble";
import type { Message } from "../types";
import { messageFixture } from "./fixtures";

vi.mock("../api/messages", () => ({ fetchMediaBlob: vi.fn(() => new Promise(() => undefined)) }));
const fetchMock = vi.mocked(fetchMediaBlob);

const msg = (over: Partial<Message>) => messageFixture({ id: 1, ticketId: 5, createdAt: "2026-11-01T10:00:00.000Z", ...over });
const show = (m: Message) =>
  render(<MessageBubble message={m} isGroup={false} contactName="Cliente" canDelete={false} onReply={() => undefined} onDelete={() => undefined} />);

beforeAll(async () => {
  await i18n.changeLanguage("pt");
});
afterEach(() => {
  cleanup();
  fetchMock.mockClear();
});

describe("message bubble: what the official channel delivers", () => {
  it("shows a document's caption beside its file name", () => {
    show(msg({ mediaType: "application", mediaUrl: "/messages/media/1", mediaName: "boleto.pdf", body: "Segue o boleto de novembro" }));
    expect(screen.getByTestId("message-body").textContent).toBe("Segue o boleto de novembro");
    expect(screen.getByText("boleto.pdf")).toBeTruthy();
  });

  it("does not repeat a document's file name as its caption", () => {
    show(msg({ mediaType: "application", mediaUrl: "/messages/media/1", mediaName: "boleto.pdf", body: "boleto.pdf" }));
    expect(screen.queryByTestId("message-body")).toBeNull();
  });

  it("shows every contact card of a message", () => {
    const body = "BEGIN:VCARD\nVERSION:3.0\nFN:Ana Lima\nTEL;type=CELL;waid=5511955550001:+55 11 95555-0001\nEND:VCARD\nBEGIN:VCARD\nVERSION:3.0\nFN:Beto Reis\nTEL;type=CELL:+55 21 94444-0002\nEND:VCARD";
    show(msg({ mediaType: "vcard", body }));
    const cards = screen.getAllByTestId("message-vcard");
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByText("Ana Lima")).toBeTruthy();
    expect(within(cards[0]!).getByText("+55 11 95555-0001")).toBeTruthy();
    expect(within(cards[1]!).getByText("Beto Reis")).toBeTruthy();
  });

  it("shows the contact's reactions on the message, and the edited and deleted marks", () => {
    show(msg({ body: "Chega amanhã", fromMe: true, isEdited: true, reactions: [{ from: "5511900000001", emoji: "👍" }] }));
    expect(screen.getByTestId("message-reactions").textContent).toBe("👍");
    expect(screen.getByTestId("message-edited").textContent).toBe("Editada");
    cleanup();
    show(msg({ body: "apagada", isDeleted: true }));
    expect(screen.getByTestId("message-deleted").textContent).toBe("Esta mensagem foi apagada");
    expect(screen.queryByTestId("message-reactions")).toBeNull();
  });

  it("a file the provider never delivered: the 'media unavailable' line and the caption, without a download", () => {
    show(msg({ mediaType: "image", mediaUrl: null, mediaUnavailable: true, body: "Foto do defeito" }));
    expect(screen.getByTestId("message-media-unavailable").textContent).toBe("Mídia indisponível");
    expect(screen.getByTestId("message-body").textContent).toBe("Foto do defeito");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("a message erased at the contact's request (LGPD): a placeholder, and its file is never asked for, in each language", async () => {
    const expected = {
      pt: ["Mídia apagada a pedido do titular", "Mensagem apagada a pedido do titular"],
      en: ["Media erased at the data subject's request", "Message erased at the data subject's request"],
      es: ["Medio borrado a pedido del titular", "Mensaje borrado a pedido del titular"],
    };
    for (const [lang, [media, text]] of Object.entries(expected)) {
      await i18n.changeLanguage(lang);
      for (const mediaType of ["image", "audio", "video", "application"] as const) {
        show(msg({ mediaType, mediaUrl: null, mediaName: null, body: "", erased: true }));
        expect(screen.getByTestId("message-erased").textContent).toBe(media);
        cleanup();
      }
      show(msg({ mediaType: "chat", body: "", erased: true }));
      expect(screen.getByTestId("message-erased").textContent).toBe(text);
      cleanup();
    }
    await i18n.changeLanguage("pt");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("an unsupported message reads 'not supported' (never an empty bubble), in each language", async () => {
    const expected = { pt: "Tipo de mensagem não suportado", en: "Message type not supported", es: "Tipo de mensaje no compatible" };
    for (const [lang, text] of Object.entries(expected)) {
      await i18n.changeLanguage(lang);
      show(msg({ body: "", unsupported: true }));
      expect(screen.getByTestId("message-unsupported").textContent).toBe(text);
      cleanup();
    }
    await i18n.changeLanguage("en");
    show(msg({ mediaType: "audio", mediaUnavailable: true, body: "" }));
    expect(screen.getByTestId("message-media-unavailable").textContent).toBe("Media unavailable");
    await i18n.changeLanguage("pt");
  });

  it("a message waiting for another attempt shows the pending clock (not the error icon), with 'trying again' in each language", async () => {
    const expected = { pt: "Nova tentativa em instantes", en: "Trying again in a moment", es: "Nuevo intento en instantes" };
    for (const [lang, text] of Object.entries(expected)) {
      await i18n.changeLanguage(lang);
      const { container } = show(msg({ fromMe: true, ack: 0, sendError: null, retry: { attempts: 2, nextAttemptAt: "2026-11-01T10:00:08.000Z" } }));
      expect(container.querySelector('[data-ack="failed"]')).toBeNull();
      expect(container.querySelector('[data-ack="retrying"]')?.getAttribute("aria-label")).toBe(text);
      cleanup();
    }
    await i18n.changeLanguage("pt");
    const { container } = show(msg({ fromMe: true, ack: 0, sendError: null, retry: null }));
    expect(container.querySelector('[data-ack="pending"]')).not.toBeNull();
  });

  it("shows the ad a conversation came from", () => {
    show(msg({ body: "Vi o anúncio", referral: { sourceUrl: "https://fb.me/3cr4Wqqkv", sourceType: "ad", sourceId: "1", headline: "Chat with us", body: null } }));
    const ad = screen.getByTestId("message-referral");
    expect(within(ad).getByText("Veio de um anúncio")).toBeTruthy();
    expect(within(ad).getByText("Chat with us").getAttribute("href")).toBe("https://fb.me/3cr4Wqqkv");
  });
});
