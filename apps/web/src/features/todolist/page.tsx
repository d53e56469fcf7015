import { useState, type FormEvent } from "react";
import { Box, Button, IconButton, List, ListItem, ListItemText, Paper, TextField, Tooltip } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import EditIcon from "@mui/icons-material/Edit";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import { format } from "date-fns";
import { useTranslation } from "react-i18next";
import { PageHeading } from "../../components/page-heading";
import { readJson, STORAGE_KEYS, writeJson } from "../../lib/storage";
import { EmptyState } from "../../components/empty-state";

/** A task of the local list (kept only in this browser, under the `tasks` key). */
interface Task {
  text: string;
  createdAt: string;
  updatedAt: string;
}

function loadTasks(): Task[] {
  const raw = readJson<unknown>(STORAGE_KEYS.tasks, []);
  return Array.isArray(raw) ? raw.filter((x): x is Task => typeof x?.text === "string") : [];
}

const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : format(d, "dd/MM/yyyy HH:mm");
};

export default function TodoListPage() {
  const { t } = useTranslation();
  const [tasks, setTasks] = useState<Task[]>(loadTasks);
  const [text, setText] = useState("");
  const [editing, setEditing] = useState<number | null>(null);

  function save(next: Task[]) {
    setTasks(next);
    writeJson(STORAGE_KEYS.tasks, next);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const value = text.trim();
    if (!value) return; // blank text is ignored
    const now = new Date().toISOString();
    if (editing !== null) save(tasks.map((task, i) => (i === editing ? { ...task, text: value, updatedAt: now } : task)));
    else save([...tasks, { text: value, createdAt: now, updatedAt: now }]);
    setText("");
    setEditing(null);
  }

  function startEdit(index: number) {
    setEditing(index);
    setText(tasks[index]?.text ?? "");
  }

  function remove(index: number) {
    save(tasks.filter((_, i) => i !== index));
    if (editing === index) {
      setEditing(null);
      setText("");
    } else if (editing !== null && editing > index) setEditing(editing - 1);
  }

  return (
    <Box sx={{ maxWidth: 820 }}>
      <PageHeading title={t("todolist.title")} count={tasks.length} />
      <Paper variant="outlined" component="form" onSubmit={submit} sx={{ p: 2, display: "flex", gap: 1.5, mb: 2 }}>
        <TextField size="small" fullWidth label={t("todolist.newTask")} value={text} onChange={(e) => setText(e.target.value)} name="task" autoFocus />
        <Button type="submit" variant="contained" startIcon={editing === null ? <AddIcon /> : undefined} sx={{ whiteSpace: "nowrap" }}>
          {editing === null ? t("todolist.add") : t("todolist.save")}
        </Button>
        {editing !== null && (
          <Button
            onClick={() => {
              setEditing(null);
              setText("");
            }}
          >
            {t("todolist.cancel")}
          </Button>
        )}
      </Paper>
      <Paper variant="outlined">
        {tasks.length === 0 ? (
          <EmptyState>{t("todolist.empty")}</EmptyState>
        ) : (
          <List disablePadding>
            {tasks.map((task, i) => (
              <ListItem
                key={`${task.createdAt}-${i}`}
                divider={i < tasks.length - 1}
                sx={editing === i ? { bgcolor: "action.selected" } : undefined}
                data-testid="task-item"
                secondaryAction={
                  <>
                    <Tooltip title={t("todolist.edit")}>
                      <IconButton aria-label={t("todolist.edit")} onClick={() => startEdit(i)}>
                        <EditIcon />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t("todolist.delete")}>
                      <IconButton aria-label={t("todolist.delete")} color="error" onClick={() => remove(i)}>
                        <DeleteOutlineIcon />
                      </IconButton>
                    </Tooltip>
                  </>
                }
              >
                <ListItemText
                  primary={task.text}
                  secondary={task.updatedAt !== task.createdAt ? t("todolist.updated", { date: when(task.updatedAt) }) : t("todolist.created", { date: when(task.createdAt) })}
                  slotProps={{ primary: { sx: { wordBreak: "break-word", pr: 10 } } }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Paper>
    </Box>
  );
}
