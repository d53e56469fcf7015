import { useEffect } from "react";
import { Box, CircularProgress, Dialog } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import type { Whatsapp } from "@atende/shared";
import { toastError } from "../../../lib/toast-error";
import { connectionQuery } from "../api/connections";
import { ConnectionForm } from "./connection-form";

interface Props {
  open: boolean;
  /** The row being edited; null adds a connection. */
  connection: Whatsapp | null;
  onClose(): void;
  onCreated?(w: Whatsapp): void;
}

/**
 * Add or edit a connection. Editing reads the connection again (GET /whatsapp/{id}) because only that
 * answer carries the token hint; the form mounts once the data is there, so it always starts from it.
 */
export function ConnectionModal({ open, connection, onClose, onCreated }: Props) {
  const id = connection?.id ?? 0;
  const full = useQuery({ ...connectionQuery(id), enabled: open && id > 0 });
  useEffect(() => {
    if (open && full.isError) {
      toastError(full.error);
      onClose();
    }
  }, [open, full.isError, full.error, onClose]);

  const ready = !connection || full.isSuccess;
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth scroll="paper" aria-labelledby="connection-modal-title" data-testid="connection-modal">
      {open && ready ? (
        <ConnectionForm key={id} connection={connection ? full.data! : null} onClose={onClose} onCreated={onCreated} />
      ) : (
        <Box sx={{ display: "grid", placeItems: "center", minHeight: 320 }}>
          <CircularProgress />
        </Box>
      )}
    </Dialog>
  );
}
