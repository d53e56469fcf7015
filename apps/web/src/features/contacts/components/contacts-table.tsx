import { useState } from "react";
import { Avatar, IconButton, ListItemIcon, Menu, MenuItem, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from "@mui/material";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import EditIcon from "@mui/icons-material/Edit";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import DeleteForeverIcon from "@mui/icons-material/DeleteForever";
import FileDownloadIcon from "@mui/icons-material/FileDownload";
import MoreVertIcon from "@mui/icons-material/MoreVert";
import { useTranslation } from "react-i18next";
import type { Contact } from "@atende/shared";
import { TableRowsSkeleton } from "../../../components/table-rows-skeleton";
import { EmptyTableRow } from "../../../components/empty-state";

interface Props {
  contacts: Contact[];
  loading: boolean;
  canDelete: boolean;
  /** contacts-page:personalData: the LGPD menu (export, erase). */
  canPersonalData: boolean;
  onOpen(contact: Contact): void;
  onNewTicket(contact: Contact): void;
  onEdit(contact: Contact): void;
  onDelete(contact: Contact): void;
  onExportData(contact: Contact): void;
  onEraseData(contact: Contact): void;
}

export function ContactsTable({ contacts, loading, canDelete, canPersonalData, onOpen, onNewTicket, onEdit, onDelete, onExportData, onEraseData }: Props) {
  const { t } = useTranslation();
  const [menu, setMenu] = useState<{ anchor: HTMLElement; contact: Contact } | null>(null);
  const stop = (fn: () => void) => (e: React.MouseEvent) => {
    e.stopPropagation();
    fn();
  };
  return (
    <Table size="small" stickyHeader aria-label={t("contacts.title")}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: 56 }} />
          <TableCell>{t("contacts.columns.name")}</TableCell>
          <TableCell>{t("contacts.columns.number")}</TableCell>
          <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("contacts.columns.email")}</TableCell>
          <TableCell sx={{ display: { xs: "none", lg: "table-cell" } }}>{t("contacts.columns.document")}</TableCell>
          <TableCell align="right">{t("contacts.columns.actions")}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {contacts.map((c) => (
          <TableRow key={c.id} hover onClick={() => onOpen(c)} sx={{ cursor: "pointer" }} data-testid="contact-row">
            <TableCell>
              <Avatar src={c.profilePicUrl || undefined} sx={{ width: 36, height: 36 }}>
                {c.name.charAt(0).toUpperCase()}
              </Avatar>
            </TableCell>
            <TableCell>
              <Typography fontWeight={500}>{c.name}</Typography>
            </TableCell>
            <TableCell>{c.number}</TableCell>
            <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{c.email}</TableCell>
            <TableCell sx={{ display: { xs: "none", lg: "table-cell" } }}>{c.formattedDocument}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
              <Tooltip title={t("contacts.actions.newTicket")}>
                <IconButton size="small" aria-label={t("contacts.actions.newTicket")} onClick={stop(() => onNewTicket(c))} color="success">
                  <WhatsAppIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title={t("contacts.actions.edit")}>
                <IconButton size="small" aria-label={t("contacts.actions.edit")} onClick={stop(() => onEdit(c))}>
                  <EditIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              {canDelete && (
                <Tooltip title={t("contacts.actions.delete")}>
                  <IconButton size="small" aria-label={t("contacts.actions.delete")} onClick={stop(() => onDelete(c))} color="error">
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
              {canPersonalData && (
                <Tooltip title={t("contacts.actions.more")}>
                  <IconButton
                    size="small"
                    aria-label={t("contacts.actions.more")}
                    aria-haspopup="menu"
                    onClick={(e) => {
                      e.stopPropagation();
                      setMenu({ anchor: e.currentTarget, contact: c });
                    }}
                  >
                    <MoreVertIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            </TableCell>
          </TableRow>
        ))}
        {loading && <TableRowsSkeleton columns={6} />}
        {!loading && contacts.length === 0 && (
          <EmptyTableRow colSpan={6}>{t("contacts.empty")}</EmptyTableRow>
        )}
      </TableBody>
      <Menu anchorEl={menu?.anchor} open={menu !== null} onClose={() => setMenu(null)} onClick={(e) => e.stopPropagation()}>
        <MenuItem
          onClick={() => {
            if (menu) onExportData(menu.contact);
            setMenu(null);
          }}
        >
          <ListItemIcon>
            <FileDownloadIcon fontSize="small" />
          </ListItemIcon>
          {t("contacts.actions.exportData")}
        </MenuItem>
        <MenuItem
          sx={{ color: "error.main" }}
          onClick={() => {
            if (menu) onEraseData(menu.contact);
            setMenu(null);
          }}
        >
          <ListItemIcon sx={{ color: "inherit" }}>
            <DeleteForeverIcon fontSize="small" />
          </ListItemIcon>
          {t("contacts.actions.eraseData")}
        </MenuItem>
      </Menu>
    </Table>
  );
}
