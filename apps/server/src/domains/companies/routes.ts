import {
  company,
  companyCreateInput,
  companyIdParam,
  companySchedulesInput,
  companyTimeZoneInput,
  companyUpdateInput,
  idParam,
  messageResponse,
  signupInput,
  signupResponse,
} from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import * as companies from "./service.js";
import { signup } from "./signup.js";

const superOnly = { gate: { superOnly: true } };

export const companiesRoutes: Domain = (api, ctx) => {
  api.post(
    "/companies/cadastro",
    {
      // Counted on request, so invalid attempts count too.
      config: { public: true, rateLimit: { max: 5, timeWindow: "1 minute", hook: "onRequest" } },
      schema: { body: signupInput, response: { 200: signupResponse } },
    },
    (request) => signup(ctx, request.body, request.ip),
  );

  // Super administrators: every company; everyone else: an array with their own company.
  api.get("/companies", { schema: { response: { 200: z.array(company) } } }, (request) => companies.listCompanies(ctx, request.actor));

  api.get("/companies/list", { config: superOnly, schema: { response: { 200: z.array(company) } } }, (request) =>
    companies.listCompanies(ctx, request.actor),
  );

  api.get("/companies/listPlan/:companyId", { schema: { params: companyIdParam, response: { 200: company } } }, (request) =>
    companies.companyPlan(ctx, request.actor, request.params.companyId),
  );

  api.get("/companies/:id", { schema: { params: idParam, response: { 200: company } } }, (request) =>
    companies.showCompany(ctx, request.actor, request.params.id),
  );

  api.post("/companies", { config: superOnly, schema: { body: companyCreateInput, response: { 200: company } } }, (request) =>
    companies.createCompany(ctx, request.body),
  );

  api.put("/companies/:id", { config: superOnly, schema: { params: idParam, body: companyUpdateInput, response: { 200: company } } }, (request) =>
    companies.updateCompany(ctx, request.actor, request.params.id, request.body),
  );

  api.delete("/companies/:id", { config: superOnly, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await companies.deleteCompany(ctx, request.params.id);
    return { message: "Company deleted" };
  });

  api.put(
    "/companies/:id/schedules",
    { config: { gate: { minProfile: "admin" } }, schema: { params: idParam, body: companySchedulesInput, response: { 200: company } } },
    (request) => companies.updateSchedules(ctx, request.actor, request.params.id, request.body.schedules),
  );

  api.put(
    "/companies/:id/time-zone",
    { config: { gate: { minProfile: "admin" } }, schema: { params: idParam, body: companyTimeZoneInput, response: { 200: company } } },
    (request) => companies.updateTimeZone(ctx, request.actor, request.params.id, request.body.timeZone),
  );
};
