export * from "./roles.js";
export * from "./users.js";
export * from "./menu.js";
