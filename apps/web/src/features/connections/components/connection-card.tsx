import { Box, Paper, Tooltip, Typography } from "@mui/material";
import StarRoundedIcon from "@mui/icons-material/StarRounded";
import { format, parseISO } from "date-fns";
import { useTranslation } from "react-i18next";
import { ConnectionActions, type ConnectionRowProps } from "./connection-row";
import { ProviderLabel } from "./provider-label";
import { SessionButtons } from "./session-buttons";
import { StatusIcon } from "./status-icon";

/** One connection at phone width: the table row's fields as a card, status and actions always in view. */
export function ConnectionCard({ connection: w, mayAct, mayEdit, mayUsePhone, onShowQr, onEdit, onDelete }: ConnectionRowProps) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 1.5, display: "grid", gap: 1 }} data-testid="connection-row" data-connection-id={w.id}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <StatusIcon status={w.status} />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="body2" noWrap sx={{ fontWeight: 600, display: "flex", alignItems: "center", gap: 0.5 }}>
            {w.name}
            {w.isDefault && (
              <Tooltip title={t("connections.defaultTooltip")}>
                <StarRoundedIcon fontSize="small" sx={{ color: "warning.main" }} aria-label={t("connections.defaultTooltip")} data-testid="default-mark" />
              </Tooltip>
            )}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="div" noWrap>
            <span data-testid="connection-number">{w.phoneNumberStr || w.number || "—"}</span> · <ProviderLabel provider={w.provider} />
          </Typography>
        </Box>
        <ConnectionActions connection={w} mayEdit={mayEdit} mayUsePhone={mayUsePhone} onEdit={onEdit} onDelete={onDelete} />
      </Box>
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between", gap: 1, flexWrap: "wrap" }}>
        <Box>
          <Typography variant="body2" data-testid="connection-status-text">
            {t(`connections.status.${w.status}`)}
          </Typography>
          <Typography variant="caption" color="text.secondary" data-testid="connection-updated-at">
            {format(parseISO(w.updatedAt), "dd/MM/yy HH:mm")}
          </Typography>
        </Box>
        {mayAct && <SessionButtons connection={w} onShowQr={onShowQr} />}
      </Box>
    </Paper>
  );
}
