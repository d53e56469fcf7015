import type { FakePhone } from "./server.js";
import type { FakeTemplate } from "./template-send.js";

let phoneSeq = 0;
/** A phone number as Meta lists it (display number formatted, status CONNECTED, quality GREEN). */
export function fakePhone(o: Partial<FakePhone> & { digits: string }): FakePhone {
  const d = o.digits;
  return {
    id: o.id ?? String(109000000000000 + Date.now() % 1e9 + ++phoneSeq),
    display_phone_number: o.display_phone_number ?? `+${d.slice(0, 2)} ${d.slice(2, 4)} ${d.slice(4, 9)}-${d.slice(9)}`,
    verified_name: o.verified_name ?? "Loja Exemplo",
    quality_rating: o.quality_rating ?? "GREEN",
    messaging_limit_tier: o.messaging_limit_tier ?? "TIER_1K",
    status: o.status ?? "CONNECTED",
    name_status: "APPROVED",
    code_verification_status: "VERIFIED",
    health_status: o.health_status ?? { can_send_message: "AVAILABLE", entities: [] },
  };
}

export function fakeTemplate(name: string, o: Partial<FakeTemplate> = {}): FakeTemplate {
  return {
    id: o.id ?? String(800000000000 + ++phoneSeq),
    name,
    language: o.language ?? "pt_BR",
    category: o.category ?? "MARKETING",
    status: o.status ?? "APPROVED",
    ...(o.parameter_format ? { parameter_format: o.parameter_format } : {}),
    components: o.components ?? [{ type: "BODY", text: "Olá {{1}}, seu pedido {{2}} saiu para entrega." }],
    ...(o.rejected_reason ? { rejected_reason: o.rejected_reason } : {}),
  };
}
