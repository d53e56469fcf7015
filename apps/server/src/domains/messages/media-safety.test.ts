import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox, inbound } from "../../channels/testing.js";

let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let wa: number;
let seq = 0;
const newNumber = () => `5531${String(910000000 + ++seq * 7919).slice(0, 9)}`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-media-"));
  app = await createTestApp({ dataDir });
  t = await buildTenant(app);
  wa = await connectedSandbox(app, t.admin.token);
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const b64 = (s: string) => Buffer.from(s).toString("base64");
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>';

async function customerSends(mimetype: string, mediaName: string, content: string) {
  const { messageId } = await inbound(app, t.admin.token, wa, { number: newNumber(), body: "", mediaBase64: b64(content), mimetype, mediaName });
  return app.api("GET", `/api/messages/media/${messageId}`, { token: t.admin.token });
}

describe("stored media never run as a page of the app", () => {
  it("serves a customer's SVG as a sandboxed, non-sniffable download", async () => {
    const res = await customerSends("image/svg+xml", "logo.svg", SVG);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/svg+xml");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="logo.svg"');
    expect(res.headers["content-security-policy"]).toBe("sandbox");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.body).toBe(SVG);
  });

  it("serves HTML, XML and scripts as downloads", async () => {
    for (const [mimetype, name] of [
      ["text/html", "pagina.html"],
      ["application/xhtml+xml", "pagina.xhtml"],
      ["text/xml", "dados.xml"],
      ["application/javascript", "app.js"],
    ]) {
      const res = await customerSends(mimetype!, name!, "<html><script>alert(1)</script></html>");
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-disposition"]).toMatch(/^attachment;/);
      expect(res.headers["content-security-policy"]).toBe("sandbox");
    }
  });

  it("shows raster images, audio, video and PDF inline (still sandboxed)", async () => {
    for (const mimetype of ["image/png", "image/jpeg", "image/gif", "image/webp", "audio/ogg; codecs=opus", "video/mp4", "application/pdf"]) {
      const res = await customerSends(mimetype, "arquivo", "x");
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-disposition"]).toBe('inline; filename="arquivo"');
      expect(res.headers["content-security-policy"]).toBe("sandbox");
    }
  });

  it("a media type with a CRLF is cleaned on the way in (no header injection, no 500)", async () => {
    const res = await customerSends("text/plain\r\nX-Injected: 1", "nota.txt", "oi");
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-injected"]).toBeUndefined();
    expect(res.headers["content-type"]).toBe("application/octet-stream");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="nota.txt"');
  });

  it("a CRLF media type already stored is cleaned on the way out", async () => {
    const { messageId } = await inbound(app, t.admin.token, wa, { number: newNumber(), body: "", mediaBase64: b64("<b>x</b>"), mimetype: "text/plain", mediaName: "a.txt" });
    await app.sql.exec("UPDATE messages SET mimetype = $1 WHERE id = $2", ["text/html\r\nSet-Cookie: a=b", messageId]);
    const res = await app.api("GET", `/api/messages/media/${messageId}`, { token: t.admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers["set-cookie"]).toBeUndefined();
    expect(res.headers["content-type"]).toBe("application/octet-stream");
    expect(res.headers["content-disposition"]).toMatch(/^attachment;/);
  });

  it("an agent's SVG upload and a quick message's SVG are downloads too", async () => {
    const { ticketId } = await inbound(app, t.admin.token, wa, { number: newNumber(), body: "oi" });
    expect((await app.api("PUT", `/api/tickets/${ticketId}`, { token: t.admin.token, body: { action: "accept" } })).statusCode).toBe(200);
    const form = new FormData();
    form.append("body", "");
    form.append("medias", new Blob([SVG], { type: "image/svg+xml" }), "desenho.svg");
    const req = new Request("http://x", { method: "POST", body: form });
    const sent = await app.app.inject({
      method: "POST",
      url: `/api/messages/${ticketId}`,
      headers: { authorization: `Bearer ${t.admin.token}`, "content-type": req.headers.get("content-type")! },
      payload: Buffer.from(await req.arrayBuffer()),
    });
    expect(sent.statusCode).toBe(200);
    const file = await app.api("GET", `/api/messages/media/${sent.json().messages[0].id}`, { token: t.admin.token });
    expect(file.headers["content-disposition"]).toBe('attachment; filename="desenho.svg"');
    expect(file.headers["content-security-policy"]).toBe("sandbox");

    const qm = await app.api("POST", "/api/quick-messages", { token: t.admin.token, body: { shortcode: "svg", message: "veja" } });
    expect(qm.statusCode).toBe(200);
    const upForm = new FormData();
    upForm.append("file", new Blob([SVG], { type: "image/svg+xml" }), "logo.svg");
    const upReq = new Request("http://x", { method: "POST", body: upForm });
    const up = await app.app.inject({
      method: "POST",
      url: `/api/quick-messages/${qm.json().id}/media-upload`,
      headers: { authorization: `Bearer ${t.admin.token}`, "content-type": upReq.headers.get("content-type")! },
      payload: Buffer.from(await upReq.arrayBuffer()),
    });
    expect(up.statusCode).toBe(200);
    const qmFile = await app.api("GET", `/api/quick-messages/${qm.json().id}/media`, { token: t.admin.token });
    expect(qmFile.statusCode).toBe(200);
    expect(qmFile.headers["content-disposition"]).toBe('attachment; filename="logo.svg"');
    expect(qmFile.headers["x-content-type-options"]).toBe("nosniff");
  });
});
