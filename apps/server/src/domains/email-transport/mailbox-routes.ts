import { sandboxMailPage, sandboxMailQuery, type SandboxMail } from "@atende/shared";
import type { Domain } from "../../core/domain.js";

const PAGE = 20;

interface MailRow {
  id: string;
  platform: boolean;
  from_address: string;
  to_address: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
  created_at: Date;
}

const present = (r: MailRow): SandboxMail => ({
  id: Number(r.id),
  from: r.from_address,
  to: r.to_address,
  subject: r.subject,
  html: r.html,
  text: r.text,
  headers: r.headers,
  platform: r.platform,
  created_at: r.created_at.toISOString(),
});

/**
 * GET /api/email/sandbox/: the sandbox mailbox (newest first, 20 a page, optional `to` filter): the
 * company's messages for its admins and supervisors; super admins also see the platform's own mail
 * (the platform company's: password reset and other mail sent without a company).
 */
export const emailSandboxRoutes: Domain = (api, ctx) => {
  api.get(
    "/email/sandbox/",
    { config: { gate: { minProfile: "supervisor" as const } }, schema: { querystring: sandboxMailQuery, response: { 200: sandboxMailPage } } },
    async (request) => {
      const { companyId } = request.actor;
      const superAdmin = request.actor.super === true;
      const from = "email_sandbox_messages m LEFT JOIN companies p ON p.id = m.company_id AND p.is_platform";
      const where = "(m.company_id = $1 OR ($2 AND p.id IS NOT NULL)) AND ($3::text IS NULL OR m.to_address ILIKE '%' || $3 || '%')";
      const params = [companyId, superAdmin, request.query.to ?? null];
      const [rows, total] = await Promise.all([
        ctx.sql.many<MailRow>(
          // newest first by the numeric id (the output's id is text, which would sort "99" after "100")
          `SELECT m.id::text, p.id IS NOT NULL AS platform, m.from_address, m.to_address, m.subject, m.html, m.text, m.headers, m.created_at
             FROM ${from} WHERE ${where} ORDER BY m.id DESC LIMIT ${PAGE} OFFSET $4`,
          [...params, (request.query.page - 1) * PAGE],
        ),
        ctx.sql.one<{ count: number }>(`SELECT count(*)::int AS count FROM ${from} WHERE ${where}`, params),
      ]);
      return { results: rows.map(present), count: total.count };
    },
  );
};
