import { z } from "zod";

/** Contact import messages (2-administration §5), verbatim. */
export const CONTACT_IMPORT_MESSAGES = {
  noFile: "Por favor, selecione um arquivo.",
  tooBig: "O arquivo nao pode exceder 5MB.",
  badLayout: "Layout do arquivo invalido. Esperado: nome, numero, telefone, cpf.",
  parseError: "Erro ao processar o arquivo.",
  success: "Contatos importados com sucesso.",
} as const;

/** Header columns every import file must have (semicolon separated); the export writes the same. */
export const CONTACT_IMPORT_COLUMNS = ["nome", "telefone", "cpf", "email"] as const;

/** Files with fewer data rows are imported during the request; larger ones by a background job. */
export const CONTACT_IMPORT_SYNC_MAX_ROWS = 2000;
/** At most this many rejected rows are listed (the count covers all of them). */
export const CONTACT_IMPORT_MAX_ERRORS = 100;

export const CONTACT_IMPORT_STATUSES = ["queued", "running", "done", "failed"] as const;
export type ContactImportStatus = (typeof CONTACT_IMPORT_STATUSES)[number];

export const contactImportRowError = z.object({ line: z.number(), reason: z.string() });

/**
 * POST /contacts/import answers 200 with status done (small file, imported during the request) or 202
 * with status queued (large file: follow GET /contacts/import/{jobId} or the import-progress events).
 */
export const contactImport = z.object({
  jobId: z.string(),
  status: z.enum(CONTACT_IMPORT_STATUSES),
  fileName: z.string(),
  /** Data rows in the file (header excluded). */
  total: z.number(),
  processed: z.number(),
  imported: z.number(),
  updated: z.number(),
  rejected: z.number(),
  /** The first 100 rejected rows: file line number and reason. */
  errors: z.array(contactImportRowError),
  /** Why a background import failed (status failed). */
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ContactImport = z.infer<typeof contactImport>;

export const contactImportIdParam = z.object({ jobId: z.uuid() });

/** Event on company-{id}-contact while an import runs (and once when it ends). */
export interface ContactImportProgressEvent {
  action: "import-progress";
  jobId: string;
  status: ContactImportStatus;
  processed: number;
  total: number;
  imported: number;
  updated: number;
  rejected: number;
}
