// @vitest-environment happy-dom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { WhatsAppText } from "../whatsapp-text";

afterEach(cleanup);

describe("WhatsAppText", () => {
  it("renders the styles as elements and never parses markup", () => {
    const { container } = render(<WhatsAppText text={"*Oi* _você_ ~x~ <img src=x onerror=alert(1)> *_ambos_*"} />);
    expect(container.querySelector("strong")?.textContent).toBe("Oi");
    expect(container.querySelector("em")?.textContent).toBe("você");
    expect(container.querySelector("s")?.textContent).toBe("x");
    expect(container.querySelector("img")).toBeNull();
    expect(container.textContent).toBe("Oi você x <img src=x onerror=alert(1)> ambos");
    expect(container.querySelector("strong em")?.textContent).toBe("ambos");
  });

  it("opens links in a new tab without giving the page a handle", () => {
    const { container } = render(<WhatsAppText text="veja https://exemplo.com/a_b." />);
    const a = container.querySelector("a");
    expect(a?.getAttribute("href")).toBe("https://exemplo.com/a_b");
    expect(a?.getAttribute("target")).toBe("_blank");
    expect(a?.getAttribute("rel")).toBe("noopener noreferrer");
  });

  it("cuts at the visible length when asked", () => {
    const { container } = render(<WhatsAppText text="*Bom dia*, tudo bem?" maxChars={7} />);
    expect(container.textContent).toBe("Bom dia...");
    expect(container.querySelector("strong")?.textContent).toBe("Bom dia");
  });
});
