import { Avatar, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from "@mui/material";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import EditIcon from "@mui/icons-material/Edit";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import { useTranslation } from "react-i18next";
import type { Contact } from "@atende/shared";
import { TableRowsSkeleton } from "../../../components/table-rows-skeleton";
import { EmptyTableRow } from "../../../components/empty-state";

interface Props {
  contacts: Contact[];
  loading: boolean;
  canDelete: boolean;
  onOpen(contact: Contact): void;
  onNewTicket(contact: Contact): void;
  onEdit(contact: Contact): void;
  onDelete(contact: Contact): void;
}

export function ContactsTable({ contacts, loading, canDelete, onOpen, onNewTicket, onEdit, onDelete }: Props) {
  const { t } = useTranslation();
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
            </TableCell>
          </TableRow>
        ))}
        {loading && <TableRowsSkeleton columns={6} />}
        {!loading && contacts.length === 0 && (
          <EmptyTableRow colSpan={6}>{t("contacts.empty")}</EmptyTableRow>
        )}
      </TableBody>
    </Table>
  );
}
