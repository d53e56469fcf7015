/** Business constants and limits (spec 1-core §9, 2-administration §9, 3-bulk §9). */
export const APP_VERSION = "5.2.1";
export const LANGUAGES = ["pt", "en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "pt";

export const LIMITS = {
  subscriptionWarningDays: 5,
  attachmentMaxBytes: 10 * 1024 * 1024,
  audioMinBytes: 10000,
  audioBitrateKbps: 128,
  messagesPerPage: 20,
  ticketsPerPage: 40,
  listPageSize: 20,
  olderMessagesScrollPx: 50,
  listNextPageScrollPx: 100,
  searchDebounceMs: 500,
  transferUserSearchMinChars: 3,
  contactSearchMinChars: 3,
  ticketSyncDelayMs: 1000,
  dashboardInitialLoadMs: 1000,
  socketPingMs: 18000,
  userStatusIntervalMs: 300000,
  /** Open sockets per user across all server processes; the next one is refused (ERR_TOO_MANY_SOCKETS). */
  socketsPerUser: 10,
  connectionAlertDelayMs: 2000,
  connectionNameTagChars: 18,
  contactNameNarrowChars: 10,
  narrowScreenPx: 600,
  contactDrawerPx: 320,
  maxUseBotQueuesDefault: 3,
  expiresTicketDefault: 0,
  contactFormSubmitDelayMs: 400,
  offlineClosedTickets: 100,
  offlineMessagesPerTicket: 30,
  dashboardPeriods: [3, 7, 15, 30, 60, 90],
  hourlyBuckets: 24,
  toastCloseMs: 2000,
  loginElsewhereReloadMs: 1000,
  accessDeniedRedirectMs: 1000,
  importMaxBytes: 5 * 1024 * 1024,
  campaignCsvMaxBytes: 100 * 1024 * 1024,
  /**
   * One line of a campaign CSV, in characters: far above any real row (a phone, a CPF, an e-mail and
   * template variables), and what keeps one field from growing to the whole file (a quote never closed).
   */
  campaignCsvMaxLineChars: 64 * 1024,
  queueNameMin: 2,
  queueNameMax: 50,
  queueColorMin: 3,
  queueColorMax: 9,
  tagNameMin: 3,
  tagNameMax: 255,
  userNameMin: 2,
  userNameMax: 50,
  passwordMin: 5,
  passwordMax: 50,
  quickReplyPreviewChars: 35,
  messageInputMaxRows: 5,
  volumeDefault: 1,
  volumeStep: 0.1,
} as const;

export const SYSTEM_QUEUE_NAMES = ["BOT", "ARW", "ARO"] as const;
export const ACK_READ_MIN = 4;
export const ANNOUNCEMENT_PRIORITY_COLORS = { 1: "red", 2: "orange", 3: "grey" } as const;
