export * from "./errors.js";
export * from "./limits.js";
export * from "./media-types.js";
export * from "./enums.js";
export * from "./realtime.js";
export * from "./permissions/index.js";
export * from "./schemas/index.js";
export * from "./whatsapp-template.js";
