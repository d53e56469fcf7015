import { useMemo } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { channel, type WhatsappEvent, type WhatsappSessionEvent } from "@atende/shared";
import { lookupKeys, whatsappsQuery } from "../api/lookups";
import type { WhatsappRef } from "../types";
import { useChannel } from "./use-realtime";

/** The company's connections with live status (tickets show DESCONECTADO and hide the input from them). */
export function useConnections(companyId: number): { list: WhatsappRef[]; statusOf(id: number | null | undefined): string | undefined } {
  const qc = useQueryClient();
  const { data } = useQuery(whatsappsQuery());
  const patch = (fn: (list: WhatsappRef[]) => WhatsappRef[]) => qc.setQueryData<WhatsappRef[]>(lookupKeys.whatsapps, (old) => (old ? fn(old) : old));
  useChannel<WhatsappSessionEvent>(channel.whatsappSession(companyId), (d) => {
    const s = d.session;
    if (d.action === "update" && s) patch((l) => l.map((w) => (w.id === s.id ? { ...w, status: s.status } : w)));
  });
  useChannel<WhatsappEvent>(channel.whatsapp(companyId), (d) => {
    if (d.action === "update") {
      const w = d.whatsapp;
      patch((l) => (l.some((x) => x.id === w.id) ? l.map((x) => (x.id === w.id ? { ...x, ...w } : x)) : [...l, w]));
    }
    if (d.action === "delete") patch((l) => l.filter((x) => x.id !== d.whatsappId));
  });
  return useMemo(() => {
    const list = data ?? [];
    const map = new Map(list.map((w) => [w.id, w.status]));
    return { list, statusOf: (id) => (id == null ? undefined : map.get(id)) };
  }, [data]);
}
