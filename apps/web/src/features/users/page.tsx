import { useEffect, useMemo, useState } from "react";
import { Box, Button, InputAdornment, Stack, TextField, Typography } from "@mui/material";
import DeleteSweep from "@mui/icons-material/DeleteSweep";
import PersonAdd from "@mui/icons-material/PersonAdd";
import Search from "@mui/icons-material/Search";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { canDeleteUsers, canManageUsers, LIMITS, type User } from "@atende/shared";
import { toastError } from "../../lib/toast-error";
import { useCurrentUser } from "../../lib/session";
import { useDeleteUsers } from "./api/delete-users";
import { useQueues } from "./api/get-queues";
import { useUsers } from "./api/get-users";
import { ConfirmDialog } from "./components/confirm-dialog";
import { QueueFilter } from "./components/queue-filter";
import { UserDialog } from "./components/user-dialog";
import { UsersTable } from "./components/users-table";
import { useDebounced } from "./hooks/use-debounced";
import { useUsersRealtime } from "./hooks/use-users-realtime";
import { logFailure } from "../../lib/log-failure";
import { useAccessDenied } from "../../components/use-access-denied";

/** Users page (2-administration §2, §6): admins and super users only. */
export default function UsersPage() {
  const user = useCurrentUser();
  const { t } = useTranslation();
  const allowed = canManageUsers(user);
  useAccessDenied(allowed, t("users.noPermission"), "/tickets");

  return allowed ? <UsersManager /> : null;
}

function UsersManager() {
  const actor = useCurrentUser();
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const [queueIds, setQueueIds] = useState<number[]>([]);
  const searchParam = useDebounced(search.trim(), LIMITS.searchDebounceMs);
  const filter = useMemo(() => ({ searchParam, queueIds }), [searchParam, queueIds]);
  const list = useUsers(filter);
  const queues = useQueues();
  const remove = useDeleteUsers();
  useUsersRealtime(actor.companyId);

  const [editing, setEditing] = useState<User | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [toDelete, setToDelete] = useState<number[] | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const canDelete = canDeleteUsers(actor);
  useEffect(() => {
    if (list.error) toastError(list.error);
  }, [list.error]);

  const users = useMemo(() => list.data?.pages.flatMap((p) => p.users) ?? [], [list.data]);
  const count = list.data?.pages[0]?.count;
  // Forget selections of rows that left the list.
  useEffect(() => {
    setSelected((prev) => {
      const ids = new Set(users.map((u) => u.id));
      const kept = [...prev].filter((id) => ids.has(id));
      return kept.length === prev.size ? prev : new Set(kept);
    });
  }, [users]);

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await remove.mutateAsync(toDelete);
      toast.success(t("users.deleted"));
      setSelected(new Set());
    } catch (err) {
      // useDeleteUsers already showed the error toast.
      logFailure("deleting users failed", err, { count: toDelete.length });
    }
    setToDelete(null);
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2, height: "100%" }}>
      <Stack
        direction={{ xs: "column", md: "row" }}
        spacing={1.5}
        // one line on wide screens: labels never wrap inside their buttons, the search box gives way first
        sx={{ alignItems: { md: "center" }, "& .MuiButton-root": { whiteSpace: "nowrap", flexShrink: 0 } }}
        data-testid="users-toolbar"
      >
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1, fontWeight: 600, whiteSpace: "nowrap" }}>
          {t("menu.users")}
          {count !== undefined && (
            <Typography component="span" color="text.secondary" sx={{ ml: 1 }} data-testid="users-count">
              ({count})
            </Typography>
          )}
        </Typography>
        <TextField
          size="small"
          sx={{ width: { md: 200, lg: 240 }, flexShrink: 1, minWidth: 140 }}
          placeholder={t("common.search")}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
            htmlInput: { "aria-label": t("common.search") },
          }}
        />
        <QueueFilter queues={queues.data ?? []} value={queueIds} onChange={setQueueIds} />
        {canDelete && (
          <Button color="error" variant="outlined" startIcon={<DeleteSweep />} disabled={selected.size === 0} onClick={() => setToDelete([...selected])}>
            {t("users.deleteSelected", { count: selected.size })}
          </Button>
        )}
        <Button
          variant="contained"
          startIcon={<PersonAdd />}
          onClick={() => {
            setEditing(null);
            setDialogOpen(true);
          }}
        >
          {t("users.add")}
        </Button>
      </Stack>
      <UsersTable
        users={users}
        loading={list.isLoading}
        hasMore={!!list.hasNextPage}
        fetchingMore={list.isFetchingNextPage}
        onLoadMore={() => void list.fetchNextPage()}
        canDelete={canDelete}
        selected={selected}
        onSelectedChange={setSelected}
        onEdit={(u) => {
          setEditing(u);
          setDialogOpen(true);
        }}
        onDelete={(u) => setToDelete([u.id])}
      />
      <UserDialog open={dialogOpen} user={editing} actor={actor} onClose={() => setDialogOpen(false)} />
      <ConfirmDialog
        open={toDelete !== null}
        title={toDelete && toDelete.length > 1 ? t("users.deleteManyTitle", { count: toDelete.length }) : t("users.deleteTitle")}
        message={t("common.deleteConfirm")}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setToDelete(null)}
      />
    </Box>
  );
}
