import { Readable } from "node:stream";
import {
  gateForPath,
  reportBreakdown,
  reportBreakdownQuery,
  reportFilters,
  reportOptions,
  reportSummary,
  reportTickets,
  reportTicketsCsvQuery,
  reportTicketsQuery,
  reportVolume,
} from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { ticketsCsv } from "./csv.js";
import { options } from "./repository.js";
import { listScope, loadBreakdown, loadSummary, loadTickets, loadVolume } from "./service.js";
import { fileAnswer } from "../../core/openapi.js";

/**
 * Reports (`/reports`, supervisors and above: the page's own gate, the rule `reportsRefusal` in
 * @atende/shared). Definitions in docs/architecture.md, "Reports".
 */
export const reportsRoutes: Domain = (api, ctx) => {
  const config = { gate: gateForPath("/reports") };

  api.get("/reports/options", { config, schema: { response: { 200: reportOptions } } }, async (request) => options(ctx.sql, request.actor.companyId));

  api.get("/reports/summary", { config, schema: { querystring: reportFilters, response: { 200: reportSummary } } }, async (request) =>
    loadSummary(ctx, request.actor, request.query),
  );

  api.get("/reports/volume", { config, schema: { querystring: reportFilters, response: { 200: reportVolume } } }, async (request) =>
    loadVolume(ctx, request.actor, request.query),
  );

  api.get("/reports/breakdown", { config, schema: { querystring: reportBreakdownQuery, response: { 200: reportBreakdown } } }, async (request) =>
    loadBreakdown(ctx, request.actor, request.query),
  );

  api.get("/reports/tickets", { config, schema: { querystring: reportTicketsQuery, response: { 200: reportTickets } } }, async (request) =>
    loadTickets(ctx, request.actor, request.query),
  );

  api.get("/reports/tickets.csv", { config, schema: { querystring: reportTicketsCsvQuery, ...fileAnswer("text/csv") } }, async (request, reply) => {
    const q = request.query;
    const { scope, range } = await listScope(ctx, request.actor, q);
    const origin = ctx.config.publicUrl.replace(/\/$/, "");
    const source = Readable.from(ticketsCsv(ctx.sql, scope, { lang: q.lang, timeZone: range.timeZone, origin }));
    source.on("error", (err) => request.log.error({ err, companyId: request.actor.companyId }, "reports: CSV stream failed"));
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="tickets-${range.dateFrom}-${range.dateTo}.csv"`)
      .header("cache-control", "no-store")
      .send(source);
  });
};
