import { TICKET_ORIGIN_LABELS, TICKET_STATUS_LABELS, type ReportTicketsCsvQuery, type TicketStatus } from "@atende/shared";
import type { Sql } from "../../db/sql.js";
import { ticketBatch, type ListScope, type TicketRow } from "./repository.js";

/** Rows read per query while streaming (keyset pages: memory stays flat whatever the range). */
export const CSV_BATCH = 500;

const HEADERS: Record<ReportTicketsCsvQuery["lang"], string[]> = {
  pt: ["Ticket", "Link", "Contato", "Número", "Status", "Fila", "Atendente", "Conexão", "Origem", "Entrada", "Primeira resposta", "Finalizado", "Primeira resposta (s)", "Resolução (s)", "Avaliação", "Mensagens", "Tempo com o atendente (s)"],
  en: ["Ticket", "Link", "Contact", "Number", "Status", "Queue", "Agent", "Connection", "Origin", "Entered", "First response", "Finished", "First response (s)", "Resolution (s)", "Rating", "Messages", "Time held (s)"],
  es: ["Ticket", "Enlace", "Contacto", "Número", "Estado", "Cola", "Agente", "Conexión", "Origen", "Entrada", "Primera respuesta", "Finalizado", "Primera respuesta (s)", "Resolución (s)", "Evaluación", "Mensajes", "Tiempo con el agente (s)"],
};

/**
 * One CSV field: quoted when it holds the separator, a quote or a line break; a text starting with
 * = + - @ (a formula to Excel) gets a leading apostrophe, since contact names come from customers.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  let s = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[;"\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One formatter per zone: building an Intl.DateTimeFormat costs more than formatting a date with it. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** yyyy-MM-dd HH:mm:ss on the company's clock. */
function local(d: Date | null, timeZone: string): string | null {
  if (!d) return null;
  const parts = formatterOf(timeZone).formatToParts(d);
  const p = (type: string) => parts.find((x) => x.type === type)?.value ?? "";
  return `${p("year")}-${p("month")}-${p("day")} ${p("hour")}:${p("minute")}:${p("second")}`;
}

type Lang = ReportTicketsCsvQuery["lang"];

/** The status and origin in the export's language, as the reports screen names them (never `open`, `pending`). */
const statusLabel = (status: string, lang: Lang) => TICKET_STATUS_LABELS[lang][status as TicketStatus] ?? status;

function line(r: TicketRow, timeZone: string, origin: string, lang: Lang): string {
  return [
    r.ticket_id, origin + `/tickets/${r.uuid}`, r.contact_name, r.contact_number, statusLabel(r.status, lang), r.queue_name, r.user_name, r.connection_name,
    TICKET_ORIGIN_LABELS[lang][r.origin_from_me ? "ativo" : "receptivo"], local(r.queued_at, timeZone), local(r.first_response_at, timeZone), local(r.finished_at, timeZone),
    r.first_response_seconds, r.resolution_seconds, r.rating, r.messages, r.held_seconds,
  ].map(csvField).join(";") + "\r\n";
}

/**
 * The CSV of a ticket list, produced batch by batch: a UTF-8 BOM (Excel in Brazil reads the file
 * as UTF-8 only with it), `;` separators (the decimal comma makes `,` Excel's list separator there),
 * the header, then one line per cycle, newest event first.
 */
export async function* ticketsCsv(sql: Sql, scope: ListScope, opts: { lang: Lang; timeZone: string; origin: string }) {
  yield "\uFEFF" + HEADERS[opts.lang].map(csvField).join(";") + "\r\n";
  let after: { at: string; id: number } | null = null;
  for (;;) {
    const rows = await ticketBatch(sql, scope, CSV_BATCH, after);
    if (rows.length) yield rows.map((r) => line(r, opts.timeZone, opts.origin, opts.lang)).join("");
    if (rows.length < CSV_BATCH) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.cursor_at, id: last.cycle_id };
  }
}
