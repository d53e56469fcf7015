import { useEffect, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ALERT_SESSION_STATUSES, channel, LIMITS, type SessionStatus } from "@atende/shared";
import { api } from "../../lib/api";
import { useSocketEvent } from "../../lib/use-socket-event";

interface ConnectionStatus {
  id: number;
  status: string;
}

type WhatsappEvent = { action?: string; whatsapp?: ConnectionStatus; whatsappId?: number };
type SessionEvent = { action?: string; session?: ConnectionStatus };

const connectionsKey = ["shell", "connections-status"] as const;

async function fetchConnections(): Promise<ConnectionStatus[]> {
  const data = await api<ConnectionStatus[] | { whatsapps?: ConnectionStatus[] }>("/whatsapp", { query: { session: 0 } });
  return Array.isArray(data) ? data : (data.whatsapps ?? []);
}

function upsert(list: ConnectionStatus[] | undefined, item: ConnectionStatus): ConnectionStatus[] {
  const current = list ?? [];
  return current.some((c) => c.id === item.id) ? current.map((c) => (c.id === item.id ? { ...c, ...item } : c)) : [item, ...current];
}

/**
 * True when any WhatsApp connection is in an alert status (qrcode, PAIRING, DISCONNECTED, TIMEOUT,
 * OPENING), evaluated 2 s after the list last changed (spec 1-core §2 Shell). Follows live updates.
 * A failing list (no connections API, no permission) simply means no alert.
 */
export function useConnectionsAlert(companyId: number): boolean {
  const queryClient = useQueryClient();
  const { data } = useQuery({ queryKey: connectionsKey, queryFn: fetchConnections, retry: false, staleTime: Infinity });

  useSocketEvent<WhatsappEvent>(channel.whatsapp(companyId), (ev) => {
    if (ev?.action === "update" && ev.whatsapp) {
      queryClient.setQueryData<ConnectionStatus[]>(connectionsKey, (old) => upsert(old, ev.whatsapp!));
    } else if (ev?.action === "delete") {
      const id = ev.whatsappId ?? ev.whatsapp?.id;
      queryClient.setQueryData<ConnectionStatus[]>(connectionsKey, (old) => (old ?? []).filter((c) => c.id !== id));
    }
  });
  useSocketEvent<SessionEvent>(channel.whatsappSession(companyId), (ev) => {
    if (ev?.action === "update" && ev.session) {
      queryClient.setQueryData<ConnectionStatus[]>(connectionsKey, (old) => upsert(old, ev.session!));
    }
  });

  const [alert, setAlert] = useState(false);
  useEffect(() => {
    const list = data ?? [];
    const timer = setTimeout(() => {
      setAlert(list.some((c) => (ALERT_SESSION_STATUSES as readonly string[]).includes(c.status as SessionStatus)));
    }, LIMITS.connectionAlertDelayMs);
    return () => clearTimeout(timer);
  }, [data]);
  return alert;
}
