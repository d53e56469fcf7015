import type { Help } from "@atende/shared";
import { api } from "../../../lib/api";

export const helpKeys = { all: ["helps"] as const };

export function fetchHelps(): Promise<Help[]> {
  return api<Help[]>("/helps/list");
}
