import { lazy, Suspense, useState } from "react";
import { Button } from "@mui/material";
import ArrowDropDown from "@mui/icons-material/ArrowDropDown";
import { useTranslation } from "react-i18next";
import type { QueueRef } from "../types";

// the menu (MUI's Menu and Popover) loads when first wanted, not with the workspace
const loadMenu = () => import("./queue-menu");
const QueueMenu = lazy(loadMenu);

/**
 * The queue filter of the ticket list: a button with the count chosen, opening a menu of the queues
 * (checkbox and colour each). Several can be chosen without the menu closing.
 */
export function QueueSelect({ queues, value, onChange }: { queues: QueueRef[]; value: number[]; onChange(ids: number[]): void }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const label = value.length ? t("tickets.manager.queuesSelected", { count: value.length }) : t("tickets.manager.queues");
  return (
    <>
      <Button
        variant="outlined"
        color="inherit"
        size="small"
        endIcon={<ArrowDropDown />}
        aria-haspopup="menu"
        aria-expanded={!!anchor}
        aria-label={t("tickets.manager.queues")}
        data-testid="queue-select"
        onClick={(e) => setAnchor(e.currentTarget)}
        onPointerEnter={() => void loadMenu()}
        onFocus={() => void loadMenu()}
        sx={{ minWidth: 120, maxWidth: 180, textTransform: "none", fontWeight: 400, justifyContent: "space-between", borderColor: "divider", color: "text.primary" }}
      >
        {label}
      </Button>
      {anchor && (
        <Suspense fallback={null}>
          <QueueMenu anchor={anchor} onClose={() => setAnchor(null)} queues={queues} value={value} onChange={onChange} />
        </Suspense>
      )}
    </>
  );
}
