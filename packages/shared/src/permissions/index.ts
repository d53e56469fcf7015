export * from "./roles.js";
export * from "./users.js";
export * from "./menu.js";
export * from "./tickets.js";
export * from "./messages.js";
export * from "./ticket-notes.js";
export * from "./quick-messages.js";
export * from "./reports.js";
