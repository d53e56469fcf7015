import { useCallback, useEffect, useRef, type UIEvent } from "react";
import {
  Box,
  Checkbox,
  Chip,
  CircularProgress,
  IconButton,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from "@mui/material";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import { useTranslation } from "react-i18next";
import { LIMITS, type User } from "@atende/shared";
import { EmptyTableRow } from "../../../components/empty-state";

interface Props {
  users: User[];
  loading: boolean;
  hasMore: boolean;
  fetchingMore: boolean;
  onLoadMore(): void;
  /** Super only: selection checkboxes and the delete action. */
  canDelete: boolean;
  selected: Set<number>;
  onSelectedChange(next: Set<number>): void;
  onEdit(user: User): void;
  onDelete(user: User): void;
}

/** Columns shown from tablets up: at 390 px the name (with the e-mail under it) and the actions stay on screen. */
const WIDE = { display: { xs: "none", sm: "table-cell" } } as const;
const NARROW_ONLY = { display: { xs: "block", sm: "none" } } as const;

/** The users list with infinite scroll: the next page loads within 100 px of the bottom. */
export function UsersTable({ users, loading, hasMore, fetchingMore, onLoadMore, canDelete, selected, onSelectedChange, onEdit, onDelete }: Props) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);

  const nearBottom = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight < LIMITS.listNextPageScrollPx;
  const maybeLoad = useCallback(
    (el: HTMLElement | null) => {
      if (el && hasMore && !fetchingMore && !loading && nearBottom(el)) onLoadMore();
    },
    [hasMore, fetchingMore, loading, onLoadMore],
  );
  // A first page too short to scroll would never trigger the scroll handler.
  useEffect(() => maybeLoad(container.current), [users.length, maybeLoad]);

  const allSelected = users.length > 0 && users.every((u) => selected.has(u.id));
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelectedChange(next);
  };

  return (
    <TableContainer
      component={Paper}
      ref={container}
      onScroll={(e: UIEvent<HTMLDivElement>) => maybeLoad(e.currentTarget)}
      sx={{ flexGrow: 1, minHeight: 240, maxHeight: "calc(100vh - 220px)", overflowY: "auto" }}
      data-testid="users-table"
    >
      <Table stickyHeader size="small">
        <TableHead>
          <TableRow>
            {canDelete && (
              <TableCell padding="checkbox">
                <Checkbox
                  size="small"
                  indeterminate={selected.size > 0 && !allSelected}
                  checked={allSelected}
                  onChange={() => onSelectedChange(allSelected ? new Set() : new Set(users.map((u) => u.id)))}
                  slotProps={{ input: { "aria-label": t("users.selectAll") } }}
                />
              </TableCell>
            )}
            <TableCell>{t("users.fields.name")}</TableCell>
            <TableCell sx={WIDE}>{t("users.fields.email")}</TableCell>
            <TableCell sx={WIDE}>{t("users.fields.profile")}</TableCell>
            <TableCell sx={WIDE} align="center">{t("users.online")}</TableCell>
            <TableCell align="right">{t("users.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {users.map((u) => (
            <TableRow key={u.id} hover selected={selected.has(u.id)} data-testid="user-row" data-user-id={u.id}>
              {canDelete && (
                <TableCell padding="checkbox">
                  <Checkbox size="small" checked={selected.has(u.id)} onChange={() => toggle(u.id)} slotProps={{ input: { "aria-label": t("users.select", { name: u.name }) } }} />
                </TableCell>
              )}
              <TableCell sx={{ wordBreak: "break-word" }}>
                {u.name}
                {u.super && <Chip size="small" label="super" color="secondary" variant="outlined" sx={{ ml: 1 }} />}
                <Typography variant="caption" color="text.secondary" sx={{ ...NARROW_ONLY, wordBreak: "break-all" }}>
                  {u.email} · {t(`users.profiles.${u.profile}`)}
                </Typography>
              </TableCell>
              <TableCell sx={WIDE}>{u.email}</TableCell>
              <TableCell sx={WIDE}>{t(`users.profiles.${u.profile}`)}</TableCell>
              <TableCell sx={WIDE} align="center">
                <Chip size="small" label={u.online ? t("users.onlineYes") : t("users.onlineNo")} color={u.online ? "success" : "default"} variant={u.online ? "filled" : "outlined"} />
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                <Tooltip title={t("common.edit")}>
                  <IconButton size="small" aria-label={t("users.editUser", { name: u.name })} onClick={() => onEdit(u)}>
                    <EditOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
                {canDelete && (
                  <Tooltip title={t("common.delete")}>
                    <IconButton size="small" aria-label={t("users.deleteUser", { name: u.name })} onClick={() => onDelete(u)}>
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </Tooltip>
                )}
              </TableCell>
            </TableRow>
          ))}
          {!loading && users.length === 0 && (
            <EmptyTableRow colSpan={canDelete ? 6 : 5}>{t("common.noRecords")}</EmptyTableRow>
          )}
        </TableBody>
      </Table>
      {(loading || fetchingMore) && (
        <Box sx={{ display: "flex", justifyContent: "center", py: 2 }}>
          <CircularProgress size={24} />
        </Box>
      )}
    </TableContainer>
  );
}
