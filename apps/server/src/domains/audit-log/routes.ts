import { auditLogPage, auditLogQuery } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import * as service from "./service.js";

/** The company's audit log (logins, profile changes, contact data exports and erasures): administrators only. */
export const auditLogRoutes: Domain = (api, ctx) => {
  api.get("/audit-log", { config: { gate: { minProfile: "admin" } }, schema: { querystring: auditLogQuery, response: { 200: auditLogPage } } }, async (request) =>
    service.pageAuditLog(ctx, request.actor.companyId, request.query),
  );
};
