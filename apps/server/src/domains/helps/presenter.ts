import type { Help } from "@atende/shared";
import type { HelpRow } from "./repository.js";

export function presentHelp(row: HelpRow): Help {
  return { id: row.id, title: row.title, description: row.description, video: row.video };
}
