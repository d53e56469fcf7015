import { Box, IconButton, TableCell, TableRow, Tooltip, Typography } from "@mui/material";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import EditIcon from "@mui/icons-material/Edit";
import PhoneIphoneIcon from "@mui/icons-material/PhoneIphone";
import StarRoundedIcon from "@mui/icons-material/StarRounded";
import type { Whatsapp } from "@atende/shared";
import { format, parseISO } from "date-fns";
import { useTranslation } from "react-i18next";
import { ProviderLabel } from "./provider-label";
import { SessionButtons } from "./session-buttons";
import { StatusIcon } from "./status-icon";

export interface ConnectionRowProps {
  connection: Whatsapp;
  mayAct: boolean;
  mayEdit: boolean;
  /** The sandbox test phone is for admins (ROUTE_GATES "/sandbox"). */
  mayUsePhone: boolean;
  onShowQr(w: Whatsapp): void;
  onEdit(w: Whatsapp): void;
  onDelete(w: Whatsapp): void;
}

/** One connection of the table (spec 1-core §2): name, kind, number, status, session buttons, last update, default, actions. */
export function ConnectionRow({ connection: w, mayAct, mayEdit, mayUsePhone, onShowQr, onEdit, onDelete }: ConnectionRowProps) {
  const { t } = useTranslation();
  return (
    <TableRow hover data-testid="connection-row" data-connection-id={w.id}>
      <TableCell>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {w.name}
        </Typography>
      </TableCell>
      <TableCell>
        <ProviderLabel provider={w.provider} />
      </TableCell>
      <TableCell data-testid="connection-number" sx={{ whiteSpace: "nowrap" }}>{w.phoneNumberStr || w.number || "—"}</TableCell>
      <TableCell align="center">
        <StatusIcon status={w.status} />
      </TableCell>
      {mayAct && (
        <TableCell align="center">
          <SessionButtons connection={w} onShowQr={onShowQr} />
        </TableCell>
      )}
      <TableCell align="center" data-testid="connection-updated-at" sx={{ whiteSpace: "nowrap" }}>
        {format(parseISO(w.updatedAt), "dd/MM/yy HH:mm")}
      </TableCell>
      <TableCell align="center">
        {w.isDefault && (
          <Tooltip title={t("connections.defaultTooltip")}>
            <StarRoundedIcon sx={{ color: "warning.main", verticalAlign: "middle" }} aria-label={t("connections.defaultTooltip")} data-testid="default-mark" />
          </Tooltip>
        )}
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
        <ConnectionActions connection={w} mayEdit={mayEdit} mayUsePhone={mayUsePhone} onEdit={onEdit} onDelete={onDelete} />
      </TableCell>
    </TableRow>
  );
}

/** The row's icon actions: the sandbox test phone, edit and delete. */
export function ConnectionActions({ connection: w, mayEdit, mayUsePhone, onEdit, onDelete }: Pick<ConnectionRowProps, "connection" | "mayEdit" | "mayUsePhone" | "onEdit" | "onDelete">) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "inline-flex" }}>
      {w.provider === "sandbox" && mayUsePhone && (
        <Tooltip title={t("connections.openPhone")}>
          <IconButton size="small" component="a" href={`/sandbox/${w.id}`} target="_blank" rel="noopener" aria-label={t("connections.openPhone")} data-testid="open-phone">
            <PhoneIphoneIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {mayEdit && (
        <>
          <Tooltip title={t("common.edit")}>
            <IconButton size="small" onClick={() => onEdit(w)} aria-label={t("common.edit")} data-testid="edit-connection">
              <EditIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={t("common.delete")}>
            <IconButton size="small" onClick={() => onDelete(w)} aria-label={t("common.delete")} data-testid="delete-connection">
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </>
      )}
    </Box>
  );
}
