import { dateToZonedLocal } from "@atende/shared";
import type { PersonalDataDocument } from "./document.js";

/**
 * The readable part of the LGPD export (`dados-pessoais.html`): one self-contained page in Portuguese
 * for the person the data is about, with labels instead of column names and dates as dd/MM/yyyy HH:mm
 * on the company's clock. Every value is escaped; the page loads nothing from anywhere.
 */
const esc = (v: string) => v.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const TICKET_STATUS: Record<string, string> = { open: "Em atendimento", pending: "Aguardando atendimento", paused: "Pausado", closed: "Finalizado" };
const CHANNEL: Record<string, string> = { whatsapp: "WhatsApp", sms: "SMS", email: "E-mail" };
const STATE: Record<string, string> = {
  invalid: "Não enviado (inválido)",
  pending: "Aguardando envio",
  sending: "Enviando",
  sent: "Enviado",
  delivered: "Entregue",
  not_delivered: "Não entregue",
  unconfirmed: "Sem confirmação",
  read: "Lido",
  failed: "Falhou",
  expired: "Expirado",
  skipped: "Não enviado",
};
const SCHEDULE_STATUS: Record<string, string> = { PENDENTE: "Pendente", AGENDADA: "Agendada", ENVIADA: "Enviada", ERRO: "Erro" };
const OPT_OUT_SOURCE: Record<string, string> = { reply: "Resposta do titular", unsubscribe: "Descadastro pelo link", admin: "Registrado pela empresa" };
const MEDIA: Record<string, string> = {
  image: "Imagem",
  audio: "Áudio",
  video: "Vídeo",
  application: "Documento",
  locationMessage: "Localização",
  vcard: "Contato",
  call_log: "Chamada",
};

export function renderHtml(doc: PersonalDataDocument): string {
  const tz = doc.company.timeZone;
  const when = (isoDate: string | null) => {
    if (!isoDate) return "—";
    const [day, time] = dateToZonedLocal(new Date(isoDate), tz).split("T") as [string, string];
    const [y, m, d] = day.split("-");
    return `${d}/${m}/${y} ${time}`;
  };
  const text = (v: string | null | undefined) => (v ? esc(v) : "—");
  const table = (head: string[], rows: string[][], empty: string) =>
    rows.length
      ? `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("")}</tbody></table>`
      : `<p class="empty">${empty}</p>`;
  const c = doc.contact;
  const fields: [string, string][] = [
    ["Nome", text(c.name)],
    ["Número de WhatsApp", text(c.number)],
    ["E-mail", text(c.email)],
    ["CPF/CNPJ", text(c.document)],
    ...c.extraInfo.map((e): [string, string] => [esc(e.name), text(e.value)]),
    ["Cadastrado em", when(c.createdAt)],
    ...(c.erasedAt ? [["Dados apagados a pedido do titular em", when(c.erasedAt)] as [string, string]] : []),
  ];

  const tickets = doc.tickets.map((t, i) => {
    const messages = table(
      ["Data", "De", "Mensagem"],
      t.messages.map((m) => {
        const who = m.from === "contact" ? "Você" : `Atendente${m.agent ? ` (${esc(m.agent)})` : ""}`;
        const parts: string[] = [];
        if (m.erased) parts.push("<em>Mensagem apagada a pedido do titular</em>");
        else {
          if (m.attachment) parts.push(`<span class="tag">${MEDIA[m.attachment.type] ?? esc(m.attachment.type)}${m.attachment.name ? `: ${esc(m.attachment.name)}` : ""}</span>`);
          if (m.text) parts.push(`<span class="msg">${esc(m.text)}</span>`);
          if (m.deleted) parts.push("<em>(apagada no WhatsApp)</em>");
          if (m.edited) parts.push("<em>(editada)</em>");
        }
        return [when(m.at), who, parts.join(" ") || "—"];
      }),
      "Nenhuma mensagem.",
    );
    const notes = t.notes.length
      ? `<h4>Anotações internas</h4>${table(["Data", "Autor", "Anotação"], t.notes.map((n) => [when(n.at), text(n.author), esc(n.text)]), "")}`
      : "";
    const facts: [string, string][] = [
      ["Situação", TICKET_STATUS[t.status] ?? esc(t.status)],
      ["Aberto em", when(t.openedAt)],
      ["Finalizado em", when(t.closedAt)],
      ["Fila", text(t.queue)],
      ["Atendente", text(t.agent)],
      ["Conexão", text(t.connection)],
      ["Etiquetas", t.tags.length ? t.tags.map(esc).join(", ") : "—"],
      ["Avaliação", t.rating === null ? "—" : `${t.rating} de 5`],
    ];
    return `<section class="ticket"><h3>Atendimento ${i + 1}</h3>${dl(facts)}<h4>Mensagens</h4>${messages}${notes}</section>`;
  });

  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dados pessoais de ${esc(c.name)}</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2933; max-width: 960px; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .25rem; } h2 { border-bottom: 2px solid #d9e2ec; padding-bottom: .25rem; margin-top: 2rem; }
.lead { color: #52606d; } dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; } dt { font-weight: 600; } dd { margin: 0; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-size: .95rem; } th, td { border: 1px solid #d9e2ec; padding: .35rem .5rem; text-align: left; vertical-align: top; }
th { background: #f0f4f8; } td:first-child { white-space: nowrap; } .msg { white-space: pre-wrap; } .tag { background: #e3f8ff; border-radius: 4px; padding: 0 .3rem; }
.ticket { border: 1px solid #d9e2ec; border-radius: 8px; padding: .5rem 1rem; margin: 1rem 0; } .empty { color: #7b8794; font-style: italic; }
</style>
</head>
<body>
<h1>Dados pessoais de ${esc(c.name)}</h1>
<p class="lead">Tudo o que ${esc(doc.company.name)} guarda sobre você no Atende, gerado em ${when(doc.exportedAt)} (horário de ${esc(tz)}),
conforme a Lei Geral de Proteção de Dados (Lei 13.709/2018, art. 18). O arquivo <code>dados-pessoais.json</code>, ao lado deste, traz o mesmo conteúdo em formato legível por máquina.</p>
<h2>Cadastro</h2>
${dl(fields)}
<h2>Atendimentos</h2>
${tickets.length ? tickets.join("\n") : '<p class="empty">Nenhum atendimento.</p>'}
<h2>Agendamentos de mensagens</h2>
${table(
  ["Envio previsto", "Situação", "Mensagem", "Anexo", "Enviada em"],
  doc.schedules.map((s) => [when(s.sendAt), SCHEDULE_STATUS[s.status] ?? esc(s.status), `<span class="msg">${esc(s.text)}</span>`, text(s.attachment), when(s.sentAt)]),
  "Nenhum agendamento.",
)}
<h2>Campanhas</h2>
${table(
  ["Canal", "Campanha", "Endereço", "Situação", "Enviada em", "Entregue em", "Lida/aberta em"],
  doc.campaigns.map((r) => [CHANNEL[r.channel] ?? esc(r.channel), esc(r.campaign), text(r.address), STATE[r.state] ?? esc(r.state), when(r.sentAt), when(r.deliveredAt), when(r.readAt)]),
  "Nenhuma campanha.",
)}
<h2>Pedidos para não receber mensagens</h2>
${table(
  ["Canal", "Endereço", "Origem", "Desde"],
  doc.optOuts.map((o) => [CHANNEL[o.channel] ?? esc(o.channel), esc(o.address), OPT_OUT_SOURCE[o.source] ?? esc(o.source), when(o.at)]),
  "Nenhum.",
)}
</body>
</html>
`;
}

function dl(rows: [string, string][]): string {
  return `<dl>${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("")}</dl>`;
}
