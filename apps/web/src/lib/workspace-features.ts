/**
 * Features whose texts load with the signed-in app (lib/i18n.ts): the ticket workspace and what the shell
 * shows (announcements, chats, the contact forms' messages). Read by vite.config.ts too, which puts their
 * texts in one chunk per language.
 */
export const WORKSPACE_FEATURES: readonly string[] = ["tickets", "announcements", "chats", "contacts"];
