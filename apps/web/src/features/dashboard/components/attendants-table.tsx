import { Box, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tooltip, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { DashboardAttendant } from "@atende/shared";
import { TableRowsSkeleton } from "../../../components/table-rows-skeleton";
import { EmptyTableRow } from "../../../components/empty-state";
import { formatMinutes } from "../filter";

/** Read by screen readers, not shown. */
const visuallyHidden = { position: "absolute", width: 1, height: 1, overflow: "hidden", clip: "rect(0 0 0 0)", whiteSpace: "nowrap" } as const;

function OnlineDot({ online }: { online: boolean }) {
  const { t } = useTranslation();
  const label = t(online ? "dashboard.attendants.online" : "dashboard.attendants.offline");
  return (
    <Tooltip title={label}>
      <Box
        role="img"
        aria-label={label}
        data-online={online}
        sx={{ width: 12, height: 12, borderRadius: "50%", mx: "auto", bgcolor: online ? "success.main" : "action.disabled" }}
      />
    </Tooltip>
  );
}

/** The attendants (spec §2): online status (a dot before the name, so it stays in view on a phone), name, total, ativo, receptivo, average support time. */
export function AttendantsTable({ attendants }: { attendants: DashboardAttendant[] | undefined }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ minWidth: 0 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, px: 2, pt: 1.5 }}>
        {t("dashboard.attendants.title")}
      </Typography>
      <TableContainer>
        <Table size="small" aria-label={t("dashboard.attendants.title")} sx={{ "& td, & th": { px: { xs: 0.75, sm: 2 } } }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 12, position: "relative" }}>
                <Box component="span" sx={visuallyHidden}>
                  {t("dashboard.attendants.status")}
                </Box>
              </TableCell>
              <TableCell>{t("dashboard.attendants.name")}</TableCell>
              <TableCell align="center">{t("dashboard.attendants.tickets")}</TableCell>
              <TableCell align="center">{t("dashboard.attendants.ativo")}</TableCell>
              <TableCell align="center">{t("dashboard.attendants.receptivo")}</TableCell>
              <TableCell align="center">{t("dashboard.attendants.avgSupportTime")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {attendants === undefined && <TableRowsSkeleton columns={6} />}
            {attendants?.length === 0 && <EmptyTableRow colSpan={6}>{t("dashboard.attendants.empty")}</EmptyTableRow>}
            {attendants?.map((a) => (
              <TableRow key={a.id} data-testid="attendant-row" hover>
                <TableCell>
                  <OnlineDot online={a.online} />
                </TableCell>
                <TableCell sx={{ maxWidth: 220, overflowWrap: "anywhere" }}>{a.name}</TableCell>
                <TableCell align="center">{a.tickets}</TableCell>
                <TableCell align="center">{a.count_ativo}</TableCell>
                <TableCell align="center">{a.count_receptivo}</TableCell>
                <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                  {formatMinutes(a.avgSupportTime)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
