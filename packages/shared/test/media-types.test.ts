import { describe, expect, it } from "vitest";
import { cleanMediaType, isInlineMediaType } from "../src/media-types.js";

describe("cleanMediaType", () => {
  it("keeps a well-formed type and its well-formed parameters", () => {
    expect(cleanMediaType("Audio/OGG; codecs=opus")).toBe("audio/ogg; codecs=opus");
    expect(cleanMediaType("image/svg+xml")).toBe("image/svg+xml");
  });
  it("turns a malformed type into octet-stream and drops malformed parameters", () => {
    expect(cleanMediaType("text/html\r\nSet-Cookie: a=b")).toBe("application/octet-stream");
    expect(cleanMediaType("")).toBe("application/octet-stream");
    expect(cleanMediaType(null)).toBe("application/octet-stream");
    expect(cleanMediaType('text/plain; charset="x\r\nX: 1"')).toBe("text/plain");
  });
});

describe("isInlineMediaType", () => {
  it("allows raster images, audio, video and PDF only", () => {
    for (const t of ["image/png", "image/jpeg", "image/gif", "image/webp", "audio/ogg; codecs=opus", "video/mp4", "application/pdf"]) expect(isInlineMediaType(t)).toBe(true);
    for (const t of ["image/svg+xml", "text/html", "application/xhtml+xml", "text/xml", "application/xml", "text/javascript", "application/octet-stream", "image/bmp"])
      expect(isInlineMediaType(t)).toBe(false);
  });
});
