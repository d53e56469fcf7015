import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

describe("Graph API base URL (WHATSAPP_GRAPH_URL + WHATSAPP_GRAPH_VERSION)", () => {
  it("defaults to Meta's host with a current version", () => {
    expect(loadConfig({}).whatsappGraphUrl).toBe("https://graph.facebook.com/v23.0");
  });

  it("puts the configured version after the configured host", () => {
    expect(loadConfig({ WHATSAPP_GRAPH_URL: "http://127.0.0.1:9999/", WHATSAPP_GRAPH_VERSION: "v24.0" }).whatsappGraphUrl).toBe("http://127.0.0.1:9999/v24.0");
    expect(loadConfig({ WHATSAPP_GRAPH_VERSION: "v22.0" }).whatsappGraphUrl).toBe("https://graph.facebook.com/v22.0");
  });

  it("keeps the version of an older URL that still carries one, and refuses two different versions or a malformed one", () => {
    expect(loadConfig({ WHATSAPP_GRAPH_URL: "https://graph.facebook.com/v21.0" }).whatsappGraphUrl).toBe("https://graph.facebook.com/v21.0");
    expect(loadConfig({ WHATSAPP_GRAPH_URL: "https://graph.facebook.com/v23.0", WHATSAPP_GRAPH_VERSION: "v23.0" }).whatsappGraphUrl).toBe(
      "https://graph.facebook.com/v23.0",
    );
    expect(() => loadConfig({ WHATSAPP_GRAPH_URL: "https://graph.facebook.com/v21.0", WHATSAPP_GRAPH_VERSION: "v23.0" })).toThrow(ConfigError);
    expect(() => loadConfig({ WHATSAPP_GRAPH_VERSION: "23" })).toThrow(ConfigError);
  });
});
