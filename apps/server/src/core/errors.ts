import { ERROR_STATUS, type ErrorCode } from "@atende/shared";

/** An expected failure with a catalogue code; becomes `{ error, message, ...extra }`. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly extra: Record<string, unknown> = {},
    status?: number,
  ) {
    super(message ?? code);
    this.status = status ?? ERROR_STATUS[code];
  }
}

export const notFound = (code: ErrorCode = "ERR_NOT_FOUND") => new AppError(code);
export const forbidden = (code: ErrorCode = "ERR_NO_PERMISSION") => new AppError(code);
