import { createContext, useContext, type ReactNode } from "react";
import type { SessionUser } from "@atende/shared";
import { useConnections } from "../hooks/use-connections";
import { useNarrow } from "../hooks/use-narrow";
import type { WhatsappRef } from "../types";

interface Workspace {
  me: SessionUser;
  narrow: boolean;
  connections: WhatsappRef[];
  statusOf(id: number | null | undefined): string | undefined;
}

const Ctx = createContext<Workspace | null>(null);

/** What every part of the ticket workspace reads: the user, the screen width and live connection states. */
export function WorkspaceProvider({ me, children }: { me: SessionUser; children: ReactNode }) {
  const narrow = useNarrow();
  const { list, statusOf } = useConnections(me.companyId);
  return <Ctx.Provider value={{ me, narrow, connections: list, statusOf }}>{children}</Ctx.Provider>;
}

export function useWorkspace(): Workspace {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error("useWorkspace outside WorkspaceProvider");
  return ctx;
}
