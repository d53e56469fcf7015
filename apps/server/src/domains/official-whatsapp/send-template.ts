import { fillTemplate, type Message, type officialTemplateSendInput, type WhatsappTemplate } from "@atende/shared";
import type { z } from "zod";
import * as whatsappRepo from "../whatsapp/repository.js";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { presentMessage } from "../messages/presenter.js";
import { sendOutgoing } from "../messages/send-message.js";
import { assertMaySend } from "../messages/service.js";
import { loadVisibleTicket } from "../tickets/visibility.js";
import { presentTemplate, templateParameterFormat, type TemplateRow } from "./presenter.js";

type Input = z.output<typeof officialTemplateSendInput>;

/**
 * GET /officialWhatsapp/ticket/{ticketId}/templates: the APPROVED templates of the ticket connection's
 * business, for anyone who may write on the ticket (the company-wide list is for supervisors).
 */
export async function listTicketTemplates(ctx: AppContext, actor: RequestActor, ticketId: number): Promise<WhatsappTemplate[]> {
  const ticket = await loadVisibleTicket(ctx, actor, ticketId);
  assertMaySend(actor, ticket);
  const rows = await ctx.sql.many<TemplateRow>(
    `SELECT t.id, t.business_id, t.template_id, t.name, t.language, t.category, t.status, t.header_format, t.components, t.parameter_format,
            t.variable_count, t.rejected_reason, t.updated_at
       FROM whatsapp_templates t
       JOIN official_numbers o ON o.company_id = t.company_id AND o.business_id = t.business_id AND o.whatsapp_id = $2
      WHERE t.company_id = $1 AND upper(t.status) = 'APPROVED'
      ORDER BY t.name, t.language, t.id`,
    [actor.companyId, ticket.whatsapp_id],
  );
  return rows.map(presentTemplate);
}

/**
 * POST /officialWhatsapp/ticket/{ticketId}/template: sends an APPROVED template of the connection's
 * business on an official ticket, also outside the 24-hour window, and records it as the agent's
 * message (its body is the rendered template text). Stored before it is sent, like any message: a
 * refusal Meta may lift (rate limits, temporary errors) leaves it waiting for another attempt, any
 * other refusal leaves it failed with Meta's text and answers the error.
 */
export async function sendTemplateOnTicket(ctx: AppContext, actor: RequestActor, ticketId: number, input: Input): Promise<Message> {
  const ticket = await loadVisibleTicket(ctx, actor, ticketId);
  assertMaySend(actor, ticket);
  // read from the database, not from a driver of this process: the send goes through the process that runs
  // the connection (sendOutgoing queues it there when it is another one)
  if (ticket.whatsapp_id === null) throw new AppError("ERR_NO_WAPP_FOUND");
  const connection = await whatsappRepo.findWhatsapp(ctx.sql, actor.companyId, ticket.whatsapp_id);
  if (!connection) throw new AppError("ERR_NO_WAPP_FOUND");
  if (connection.status !== "CONNECTED") throw new AppError("ERR_WAPP_NOT_INITIALIZED", "A conexão não está conectada");
  if (connection.provider !== "official") throw new AppError("ERR_VALIDATION", "Templates só podem ser enviados por conexões oficiais");
  const template = await ctx.sql.maybe<TemplateRow>(
    `SELECT t.id, t.business_id, t.template_id, t.name, t.language, t.category, t.status, t.header_format, t.components, t.parameter_format,
            t.variable_count, t.rejected_reason, t.updated_at
       FROM whatsapp_templates t
       JOIN official_numbers o ON o.company_id = t.company_id AND o.business_id = t.business_id AND o.whatsapp_id = $3
      WHERE t.company_id = $1 AND t.id = $2`,
    [actor.companyId, input.templateId, ticket.whatsapp_id],
  );
  if (!template) throw new AppError("ERR_NOT_FOUND", "Template não encontrado para esta conexão");
  if (template.status.toUpperCase() !== "APPROVED") throw new AppError("ERR_VALIDATION", "O template não está aprovado");
  const filled = fillTemplate(template.components, templateParameterFormat(template), input);
  if (filled.missing.length) {
    throw new AppError("ERR_TEMPLATE_VARIABLES_MISSING", `Variáveis não preenchidas: ${filled.missing.join(", ")}`, {
      fields: Object.fromEntries(filled.missing.map((slot) => [slot, "Required"])),
    });
  }
  if (filled.invalid.length) {
    throw new AppError("ERR_VALIDATION", `Valores não aceitos pelo template: ${filled.invalid.join(", ")}`, {
      fields: Object.fromEntries(filled.invalid.map((slot) => [slot, "Invalid"])),
    });
  }

  // stored first and sent like any message: refused for now, it waits for another attempt (shown as pending)
  const row = await sendOutgoing(ctx, {
    ticket,
    body: filled.text || template.name,
    userId: actor.id,
    template: { name: template.name, language: template.language, components: filled.components },
  });
  return presentMessage(row);
}
