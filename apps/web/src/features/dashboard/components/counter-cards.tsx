import type { ReactNode } from "react";
import { Box, Paper, Skeleton, Typography } from "@mui/material";
import HourglassEmptyIcon from "@mui/icons-material/HourglassEmpty";
import SupportAgentIcon from "@mui/icons-material/SupportAgent";
import TaskAltIcon from "@mui/icons-material/TaskAlt";
import PersonAddAlt1Icon from "@mui/icons-material/PersonAddAlt1";
import AccessTimeIcon from "@mui/icons-material/AccessTime";
import TimerOutlinedIcon from "@mui/icons-material/TimerOutlined";
import { useTranslation } from "react-i18next";
import type { DashboardCounters } from "@atende/shared";
import { formatMinutes } from "../filter";

const CARDS: { key: keyof DashboardCounters; icon: ReactNode; color: string; minutes?: boolean }[] = [
  { key: "supportPending", icon: <HourglassEmptyIcon />, color: "#f57c00" },
  { key: "supportHappening", icon: <SupportAgentIcon />, color: "#1976d2" },
  { key: "supportFinished", icon: <TaskAltIcon />, color: "#2e7d32" },
  { key: "leads", icon: <PersonAddAlt1Icon />, color: "#7b1fa2" },
  { key: "avgSupportTime", icon: <AccessTimeIcon />, color: "#00838f", minutes: true },
  { key: "avgWaitTime", icon: <TimerOutlinedIcon />, color: "#c62828", minutes: true },
];

/** The six counters (spec §2): pending, in progress, finished, new contacts, average support and wait times. */
export function CounterCards({ counters }: { counters: DashboardCounters | undefined }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "repeat(2, minmax(0, 1fr))", md: "repeat(3, minmax(0, 1fr))", lg: "repeat(6, minmax(0, 1fr))" } }}>
      {CARDS.map((c) => (
        <Paper key={c.key} variant="outlined" data-testid={`card-${c.key}`} sx={{ p: 2, display: "flex", gap: 1.5, alignItems: "center", minWidth: 0 }}>
          <Box sx={{ color: c.color, display: "flex", flexShrink: 0, "& svg": { fontSize: 36 } }}>{c.icon}</Box>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" color="text.secondary" sx={{ lineHeight: 1.2 }}>
              {t(`dashboard.cards.${c.key}`)}
            </Typography>
            <Typography variant="h5" component="p" data-testid="card-value" sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>
              {counters === undefined ? <Skeleton width={56} /> : c.minutes ? formatMinutes(counters[c.key]) : counters[c.key]}
            </Typography>
          </Box>
        </Paper>
      ))}
    </Box>
  );
}
