import type { Domain } from "../core/domain.js";
import { authRoutes } from "./auth/routes.js";
import { healthRoutes } from "./health/routes.js";

/** Every domain's routes, registered under /api in this order. */
export const domains: Domain[] = [
  healthRoutes,
  authRoutes,
];
