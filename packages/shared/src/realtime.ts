/** Real-time channel names (spec 1-core §7, 2-administration §7): one source for server and web. */
export const channel = {
  whatsapp: (companyId: number) => `company-${companyId}-whatsapp`,
  whatsappSession: (companyId: number) => `company-${companyId}-whatsappSession`,
  user: (companyId: number) => `company-${companyId}-user`,
  chat: (companyId: number) => `company-${companyId}-chat`,
  ticket: (companyId: number) => `company-${companyId}-ticket`,
  appMessage: (companyId: number) => `company-${companyId}-appMessage`,
  auth: (companyId: number) => `company-${companyId}-auth`,
  contact: (companyId: number) => `company-${companyId}-contact`,
  queue: (companyId: number) => `company-${companyId}-queue`,
  settings: (companyId: number) => `company-${companyId}-settings`,
  payment: (companyId: number) => `company-${companyId}-payment`,
  quickMessage: (companyId: number) => `company-${companyId}-quickmessage`,
  schedule: (companyId: number) => `company-${companyId}-schedule`,
  tag: (companyId: number) => `company-${companyId}-tag`,
  /** WhatsApp campaigns (spec 3 §7 real-time events): supervisors and above of the company. */
  campaignCreated: (companyId: number) => `company-${companyId}-campaign-created`,
  /** WhatsApp campaign progress (status and counters), for supervisors and admins: `{ action: "update", campaign }`. */
  campaignUpdated: (companyId: number) => `company-${companyId}-campaign-updated`,
  /** SMS campaigns (list and report rows, `SmsCampaignEvent`), for supervisors and admins. */
  smsCampaignCreated: (companyId: number) => `company-${companyId}-sms-campaign-created`,
  smsCampaignUpdated: (companyId: number) => `company-${companyId}-sms-campaign-updated`,
  /** E-mail campaigns (created and progress): `{ action: "create" | "update", campaign }`, supervisors and admins. */
  emailCampaign: (companyId: number) => `company-${companyId}-email-campaign`,
  announcement: () => "company-announcement",
  /** AI prompts (spec 3 §7): the company's sockets, `{ action, prompt }` or `{ action: "delete", promptId }`. */
  prompt: (companyId: number) => `company-${companyId}-prompt`,
  /** Queue integrations (spec 3 §7): `{ action, queueIntegration }` or `{ action: "delete", integrationId }`. */
  queueIntegration: (companyId: number) => `company-${companyId}-queueIntegration`,
} as const;

export type RealtimeAction = "create" | "update" | "delete" | "updateUnread" | "new-message";

/** Events the client sends. */
export const CLIENT_EVENTS = {
  joinNotification: "joinNotification",
  joinTickets: "joinTickets",
  leaveTickets: "leaveTickets",
  joinChatBox: "joinChatBox",
  /** The contacts page is open: new contacts are sent live to it (and leaveContacts when it closes). */
  joinContacts: "joinContacts",
  leaveContacts: "leaveContacts",
  leaveChatBox: "leaveChatBox",
  userStatus: "userStatus",
  /**
   * The client's refreshed access token, sent after each refresh: `(token, ack)`; the ack gets
   * `{ ok: true }` or `{ error: code }`. A socket whose token expires without one is closed.
   */
  authToken: "authToken",
} as const;
