import { help, helpInput, helpsPage, idParam, messageResponse, pageQuery } from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import * as helps from "./service.js";

const superOnly = { gate: { superOnly: true } };

export const helpsRoutes: Domain = (api, ctx) => {
  api.get("/helps", { schema: { querystring: pageQuery, response: { 200: helpsPage } } }, (request) => helps.listHelps(ctx, request.query));

  api.get("/helps/list", { schema: { response: { 200: z.array(help) } } }, () => helps.allHelps(ctx));

  api.get("/helps/:id", { schema: { params: idParam, response: { 200: help } } }, (request) => helps.showHelp(ctx, request.params.id));

  api.post("/helps", { config: superOnly, schema: { body: helpInput, response: { 200: help } } }, (request) =>
    helps.createHelp(ctx, request.body),
  );

  api.put("/helps/:id", { config: superOnly, schema: { params: idParam, body: helpInput, response: { 200: help } } }, (request) =>
    helps.updateHelp(ctx, request.params.id, request.body),
  );

  api.delete("/helps/:id", { config: superOnly, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await helps.deleteHelp(ctx, request.params.id);
    return { message: "Help deleted" };
  });
};
