// @vitest-environment happy-dom
import type { OfficialWhatsapp } from "@atende/shared";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { HealthBadges } from "../components/health-badges";

const row = (status: string): OfficialWhatsapp => ({
  id: 1,
  whatsappId: 7,
  name: "Loja Centro",
  status,
  phoneNumberId: "106540352242922",
  phoneNumber: "5511900000001",
  displayPhoneNumber: "+55 11 90000-0001",
  verifiedName: "Loja Centro",
  messagingLimit: "TIER_1K",
  phoneStatus: "ACTIVE",
  phoneStatusReason: "",
  businessId: 3,
  businessName: "Conta Oficial",
  accountStatus: "APPROVED",
  accountViolation: false,
  violationType: "",
  operatingStatus: "CONNECTED",
  qualityScore: "GREEN",
  canSendMessage: "AVAILABLE",
  healthErrors: [],
  active: true,
  transferQueueId: null,
  transferQueue: null,
  throughputPerSecond: 80,
  updatedAt: "2026-11-23T10:00:00.000Z",
});

beforeAll(async () => {
  await i18n.changeLanguage("pt");
});
afterEach(() => cleanup());

describe("official number health badges", () => {
  it("show that the connection needs re-authorisation when Meta refused its token, and nothing of it otherwise", () => {
    render(<HealthBadges row={row("REAUTH_REQUIRED")} />);
    expect(screen.getByTestId("reauth-required").textContent).toBe("Reautorização necessária: token expirado ou revogado");
    cleanup();
    render(<HealthBadges row={row("CONNECTED")} />);
    expect(screen.queryByTestId("reauth-required")).toBeNull();
  });
});
