import { describe, expect, it } from "vitest";
import { AppError } from "../../core/errors.js";
import { assertCloudLimits, cloudMediaType } from "./limits.js";

const codeOf = (fn: () => void): string | null => {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof AppError ? err.code : "not an AppError";
  }
};

describe("Meta's supported media types", () => {
  it("gives each accepted file its Cloud API type and refuses the rest", () => {
    expect(cloudMediaType("audio/ogg; codecs=opus")).toBe("audio");
    expect(cloudMediaType("audio/ogg")).toBe("audio");
    expect(cloudMediaType("audio/ogg; codecs=vorbis")).toBeNull();
    expect(cloudMediaType("audio/mpeg")).toBe("audio");
    expect(cloudMediaType("video/3gpp")).toBe("video");
    expect(cloudMediaType("image/webp")).toBe("sticker");
    expect(cloudMediaType("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")).toBe("document");
    expect(cloudMediaType("image/gif")).toBeNull();
    expect(cloudMediaType("application/zip")).toBeNull();
  });

  it("checks the size of each type at its limit", () => {
    const file = (mimetype: string, bytes: number) => ({ body: "", media: { data: Buffer.alloc(bytes), mimetype } });
    expect(codeOf(() => assertCloudLimits(file("audio/mpeg", 16 * 1024 * 1024)))).toBeNull();
    expect(codeOf(() => assertCloudLimits(file("audio/mpeg", 16 * 1024 * 1024 + 1)))).toBe("ERR_WAPP_MEDIA_TOO_LARGE");
    expect(codeOf(() => assertCloudLimits(file("video/mp4", 16 * 1024 * 1024 + 1)))).toBe("ERR_WAPP_MEDIA_TOO_LARGE");
    expect(codeOf(() => assertCloudLimits(file("application/pdf", 100 * 1024 * 1024)))).toBeNull();
    expect(codeOf(() => assertCloudLimits(file("image/jpeg", 5 * 1024 * 1024 + 1)))).toBe("ERR_WAPP_MEDIA_TOO_LARGE");
    expect(codeOf(() => assertCloudLimits(file("image/webp", 100 * 1024)))).toBeNull();
  });

  it("counts characters, not UTF-16 units", () => {
    expect(codeOf(() => assertCloudLimits({ body: "🙂".repeat(4096) }))).toBeNull();
    expect(codeOf(() => assertCloudLimits({ body: "🙂".repeat(4097) }))).toBe("ERR_WAPP_TEXT_TOO_LONG");
  });
});
