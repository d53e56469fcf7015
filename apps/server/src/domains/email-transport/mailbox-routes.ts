import { sandboxMailPage, sandboxMailQuery, type SandboxMail } from "@atende/shared";
import type { Domain } from "../../core/domain.js";

const PAGE = 20;

interface MailRow {
  id: string;
  company_id: number | null;
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
  platform: r.company_id === null,
  created_at: r.created_at.toISOString(),
});

/**
 * GET /api/email/sandbox/: the sandbox mailbox (newest first, 20 a page, optional `to` filter): the
 * company's messages for its admins and supervisors; super admins also see the platform's own mail
 * (company null: password reset and other mail sent without a company).
 */
export const emailSandboxRoutes: Domain = (api, ctx) => {
  api.get(
    "/email/sandbox/",
    { config: { gate: { minProfile: "supervisor" as const } }, schema: { querystring: sandboxMailQuery, response: { 200: sandboxMailPage } } },
    async (request) => {
      const { companyId } = request.actor;
      const platform = request.actor.super === true;
      const where = "(company_id = $1 OR ($2 AND company_id IS NULL)) AND ($3::text IS NULL OR to_address ILIKE '%' || $3 || '%')";
      const params = [companyId, platform, request.query.to ?? null];
      const [rows, total] = await Promise.all([
        ctx.sql.many<MailRow>(
          // newest first by the numeric id (the output's id is text, which would sort "99" after "100")
          `SELECT id::text, company_id, from_address, to_address, subject, html, text, headers, created_at FROM email_sandbox_messages m
            WHERE ${where} ORDER BY m.id DESC LIMIT ${PAGE} OFFSET $4`,
          [...params, (request.query.page - 1) * PAGE],
        ),
        ctx.sql.one<{ count: number }>(`SELECT count(*)::int AS count FROM email_sandbox_messages WHERE ${where}`, params),
      ]);
      return { results: rows.map(present), count: total.count };
    },
  );
};
