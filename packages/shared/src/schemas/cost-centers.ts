import { z } from "zod";
import { requiredString } from "./common.js";

/** Cost centers (spec 3 §2, §3): one list shared by the campaigns of every channel and their filters. */

/** The SMS service's page size for `GET /sms/cost-center/`. */
export const COST_CENTER_PAGE_SIZE = 40;

/** 1-64 characters, with the spec's form messages ('Too Short!', 'Too Long!', 'Required'). */
export const costCenterName = requiredString(1, 64);

/** POST and PUT /sms/cost-center/{id}/. */
export const costCenterInput = z.object({ name: costCenterName.describe("The cost center's name, 1-64 characters") });
export type CostCenterInput = z.input<typeof costCenterInput>;

export const costCenter = z.object({ id: z.number(), name: z.string() });
export type CostCenter = z.infer<typeof costCenter>;

/** GET /sms/cost-center/: `name` contains (case-insensitive), `page` from 1, 40 a page. */
export const costCenterQuery = z.object({
  name: z.string().max(200).optional().describe("Part of the name, case-insensitive"),
  page: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
export type CostCenterQuery = z.input<typeof costCenterQuery>;

/** The SMS service's page shape: `results` of this page and the total `count`. */
export const costCenterPage = z.object({ results: z.array(costCenter), count: z.number() });
export type CostCenterPage = z.infer<typeof costCenterPage>;
