export * from "./common.js";
export * from "./plans.js";
export * from "./settings.js";
export * from "./companies.js";
export * from "./users.js";
export * from "./auth.js";
