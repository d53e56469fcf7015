import { Menu } from "@mui/material";
import { useTranslation } from "react-i18next";
import { queueOptions } from "../../../components/queue-options";
import type { QueueRef } from "../types";

interface Props {
  anchor: HTMLElement;
  onClose(): void;
  queues: QueueRef[];
  value: number[];
  onChange(ids: number[]): void;
}

/** The queue filter's menu: each click adds or removes one queue, the menu stays open. */
export default function QueueMenu({ anchor, onClose, queues, value, onChange }: Props) {
  const { t } = useTranslation();
  const toggle = (id: number) => onChange(value.includes(id) ? value.filter((x) => x !== id) : [...value, id]);
  return (
    <Menu open anchorEl={anchor} onClose={onClose} slotProps={{ paper: { sx: { maxHeight: 360 } } }}>
      {queueOptions(queues, value, t("tickets.manager.noQueues"), toggle)}
    </Menu>
  );
}
