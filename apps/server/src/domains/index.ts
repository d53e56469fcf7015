import type { Domain } from "../core/domain.js";
import { authRoutes } from "./auth/routes.js";
import { companiesRoutes } from "./companies/routes.js";
import { dashboardRoutes } from "./dashboard/routes.js";
import { reportsRoutes } from "./reports/routes.js";
import { biRoutes } from "./bi/routes.js";
import { contactsImportRoutes } from "./contacts-import/routes.js";
import { healthRoutes } from "./health/routes.js";
import { helpsRoutes } from "./helps/routes.js";
import { announcementsRoutes } from "./announcements/routes.js";
import { chatsRoutes } from "./chats/routes.js";
import { keywordsRoutes } from "./keywords/routes.js";
import { promptsRoutes } from "./prompts/routes.js";
import { kanbanRoutes } from "./kanban/routes.js";
import { passwordResetRoutes } from "./password-reset/routes.js";
import { plansRoutes } from "./plans/routes.js";
import { queuesRoutes } from "./queues/routes.js";
import { uploadsRoutes } from "./uploads/routes.js";
import { schedulesRoutes } from "./schedules/routes.js";
import { settingsRoutes } from "./settings/routes.js";
import { usersRoutes } from "./users/routes.js";
import { contactsRoutes } from "./contacts/routes.js";
import { contactDataRoutes } from "./contact-data/routes.js";
import { auditLogRoutes } from "./audit-log/routes.js";
import { messagesRoutes } from "./messages/routes.js";
import { quickMessagesRoutes } from "./quick-messages/routes.js";
import { sandboxRoutes } from "./sandbox/routes.js";
import { tagsRoutes } from "./tags/routes.js";
import { ticketNotesRoutes } from "./ticket-notes/routes.js";
import { ticketsRoutes } from "./tickets/routes.js";
import { whatsappRoutes } from "./whatsapp/routes.js";
import { businessesRoutes } from "./businesses/routes.js";
import { officialWhatsappRoutes } from "./official-whatsapp/routes.js";
import { webhooksRoutes } from "./webhooks/routes.js";
import { costCentersRoutes } from "./cost-centers/routes.js";
import { optOutsRoutes } from "./opt-outs/routes.js";
import { campaignTemplatesRoutes } from "./campaign-templates/routes.js";
import { baileysChannel } from "../channels/baileys/index.js";
import { externalApiRoutes } from "./external-api/routes.js";
import { channelRouting } from "../channels/routing/index.js";
import { campaignsRoutes } from "./campaigns/routes.js";
import { campaignDispatchRoutes } from "./campaign-dispatch/routes.js";
import { queueIntegrationsRoutes } from "./queue-integrations/routes.js";
import { messageTemplatesRoutes } from "./message-templates/routes.js";
import { emailToolRoutes } from "./email-tool/routes.js";
import { billingRoutes } from "./billing/routes.js";
import { smsCampaignsRoutes } from "./sms-campaigns/routes.js";
import { smsProviderRoutes } from "./sms-provider/routes.js";
import { emailSendersRoutes } from "./email-senders/routes.js";
import { emailCampaignsRoutes } from "./email-campaigns/routes.js";
import { emailSandboxRoutes } from "./email-transport/mailbox-routes.js";
import { emailBouncesDomain } from "./email-bounces/routes.js";
import { databaseUpkeep } from "../db/upkeep.js";

/**
 * Every domain's routes, registered under /api in this order, each with its OpenAPI tag (the domain's
 * folder name; a channel's jobs and socket handlers go with the domain they serve).
 */
export const domains: [tag: string, domain: Domain][] = [
  ["health", healthRoutes],
  ["health", databaseUpkeep],
  ["auth", authRoutes],
  ["users", usersRoutes],
  ["companies", companiesRoutes],
  ["plans", plansRoutes],
  ["settings", settingsRoutes],
  ["helps", helpsRoutes],
  ["announcements", announcementsRoutes],
  ["chats", chatsRoutes],
  ["keywords", keywordsRoutes],
  ["prompts", promptsRoutes],
  ["queues", queuesRoutes],
  ["uploads", uploadsRoutes],
  ["schedules", schedulesRoutes],
  ["password-reset", passwordResetRoutes],
  ["contacts-import", contactsImportRoutes],
  ["kanban", kanbanRoutes],
  ["dashboard", dashboardRoutes],
  ["reports", reportsRoutes],
  ["bi", biRoutes],
  ["whatsapp", baileysChannel],
  ["tickets", channelRouting],
  ["whatsapp", whatsappRoutes],
  ["sandbox", sandboxRoutes],
  ["contacts", contactsRoutes],
  ["contact-data", contactDataRoutes],
  ["audit-log", auditLogRoutes],
  ["tags", tagsRoutes],
  ["quick-messages", quickMessagesRoutes],
  ["tickets", ticketsRoutes],
  ["messages", messagesRoutes],
  ["external-api", externalApiRoutes],
  ["ticket-notes", ticketNotesRoutes],
  ["businesses", businessesRoutes],
  ["official-whatsapp", officialWhatsappRoutes],
  ["webhooks", webhooksRoutes],
  ["campaigns", campaignsRoutes],
  ["cost-centers", costCentersRoutes],
  ["opt-outs", optOutsRoutes],
  ["campaign-templates", campaignTemplatesRoutes],
  ["campaign-dispatch", campaignDispatchRoutes],
  ["queue-integrations", queueIntegrationsRoutes],
  ["message-templates", messageTemplatesRoutes],
  ["email-tool", emailToolRoutes],
  ["billing", billingRoutes],
  ["sms-campaigns", smsCampaignsRoutes],
  ["sms-provider", smsProviderRoutes],
  ["email-senders", emailSendersRoutes],
  ["email-campaigns", emailCampaignsRoutes],
  ["email-transport", emailSandboxRoutes],
  ["email-bounces", emailBouncesDomain],
];
