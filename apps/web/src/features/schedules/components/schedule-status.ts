import type { ScheduleStatus } from "@atende/shared";

export const STATUS_COLORS: Record<ScheduleStatus, "default" | "info" | "success" | "error"> = {
  PENDENTE: "default",
  AGENDADA: "info",
  ENVIADA: "success",
  ERRO: "error",
};
