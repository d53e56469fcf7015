// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { StatusIcon } from "../components/status-icon";

afterEach(() => cleanup());

describe("connection status icon", () => {
  it("names a Cloud API connection whose token Meta refused as needing re-authorisation, in each language", async () => {
    const expected = {
      pt: "Reautorização necessária (token expirado ou revogado)",
      en: "Re-authorisation needed (token expired or revoked)",
      es: "Reautorización necesaria (token caducado o revocado)",
    };
    for (const [lang, text] of Object.entries(expected)) {
      await i18n.changeLanguage(lang);
      render(<StatusIcon status="REAUTH_REQUIRED" />);
      const icon = screen.getByTestId("connection-status");
      expect(icon.getAttribute("data-status")).toBe("REAUTH_REQUIRED");
      expect(icon.getAttribute("aria-label")).toBe(text);
      expect(icon.querySelector("svg")).not.toBeNull();
      cleanup();
    }
  });
});
