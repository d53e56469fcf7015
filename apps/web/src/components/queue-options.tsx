import { Box, Checkbox, ListItemText, MenuItem } from "@mui/material";

interface QueueLike {
  id: number;
  name: string;
  color: string;
}

/** A queue's colour as a small dot. */
export function QueueDot({ color }: { color: string }) {
  return <Box component="span" sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: color, mr: 1, flexShrink: 0, display: "inline-block" }} />;
}

/**
 * The options of a multi-select of queues (a checkbox, the queue's colour and name each), with a
 * disabled line saying so when there are none. Returned as elements, since a select reads its
 * options' values from its direct children; in a plain menu, `onToggle` receives the queue clicked.
 */
export function queueOptions(queues: QueueLike[], selected: number[], emptyLabel: string, onToggle?: (id: number) => void) {
  if (!queues.length) {
    return [
      <MenuItem key="none" disabled dense value="">
        {emptyLabel}
      </MenuItem>,
    ];
  }
  return queues.map((q) => (
    <MenuItem key={q.id} value={q.id} dense onClick={onToggle && (() => onToggle(q.id))} role={onToggle ? "menuitemcheckbox" : undefined} aria-checked={onToggle ? selected.includes(q.id) : undefined}>
      <Checkbox size="small" checked={selected.includes(q.id)} />
      <QueueDot color={q.color} />
      <ListItemText primary={q.name} />
    </MenuItem>
  ));
}
