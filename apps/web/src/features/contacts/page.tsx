import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Paper } from "@mui/material";
import AddIcon from "@mui/icons-material/PersonAdd";
import UploadIcon from "@mui/icons-material/UploadFile";
import DownloadIcon from "@mui/icons-material/Download";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { can, channel, CLIENT_EVENTS, type Contact } from "@atende/shared";
import { ConfirmationDialog } from "../../components/confirmation-dialog";
import { PageHeading } from "../../components/page-heading";
import { SearchField } from "../../components/search-field";
import { useDebouncedValue } from "../../components/use-debounced-value";
import { applyLiveEvent, removePagedItem, upsertPagedItem, usePagedList } from "../../components/use-paged-list";
import { useSocketEvent } from "../../lib/use-socket-event";
import { useSocketRoom } from "../../lib/use-socket-room";
import { toastError } from "../../lib/toast-error";
import { useCurrentUser } from "../../lib/session";
import { contactKeys, deleteContact, fetchContactsPage } from "./api/contacts";
import { exportContacts } from "./api/import-export";
import { eraseContactData, exportContactData } from "./api/personal-data";
import { findOpenTicket } from "./api/tickets";
import { ContactDialog } from "./components/contact-dialog";
import { ContactsTable } from "./components/contacts-table";
import { ImportDialog } from "./components/import-dialog";
import { NewTicketDialog } from "./components/new-ticket-dialog";
import { logFailure } from "../../lib/log-failure";

export default function ContactsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const list = usePagedList({ queryKey: contactKeys.list(searchParam), fetchPage: (page, signal) => fetchContactsPage(searchParam, page, signal) });
  const [editing, setEditing] = useState<Contact | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const [ticketFor, setTicketFor] = useState<Contact | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  const [exporting, setExporting] = useState(false);
  const canDelete = can(user, "contacts-page:deleteContact");
  const canPersonalData = can(user, "contacts-page:personalData");
  const [erasing, setErasing] = useState<Contact | null>(null);

  async function exportData(contact: Contact) {
    try {
      await exportContactData(contact.id);
    } catch (err) {
      logFailure("contact data export failed", err);
      toast.error(t("contacts.exportDataFailed"));
    }
  }

  async function confirmErase(contact: Contact) {
    try {
      await eraseContactData(contact.id);
      // the contact event brings the anonymised row; the lists are read again in case it was missed
      void queryClient.invalidateQueries({ queryKey: contactKeys.lists });
      toast.success(t("contacts.erased"));
    } catch (err) {
      toastError(err);
    }
  }

  // new contacts are sent live only to the screens showing this page
  useSocketRoom(CLIENT_EVENTS.joinContacts, CLIENT_EVENTS.leaveContacts);
  useSocketEvent(channel.contact(user.companyId), (payload) => {
    const action = (payload as { action?: string } | null)?.action;
    if (typeof action === "string" && action.startsWith("import")) return;
    applyLiveEvent<Contact>(queryClient, contactKeys.lists, payload, "contact");
  });

  async function confirmDelete(contact: Contact) {
    try {
      await deleteContact(contact.id);
      removePagedItem(queryClient, contactKeys.lists, contact.id);
      toast.success(t("contacts.deleted"));
    } catch (err) {
      toastError(err);
    }
  }

  /** A row click: the contact's unclosed ticket when there is one, else the new-ticket dialog (never a silent creation). */
  async function openConversation(contact: Contact) {
    try {
      const existing = await findOpenTicket(contact);
      if (existing) navigate(`/tickets/${existing.uuid}`);
      else setTicketFor(contact);
    } catch (err) {
      toastError(err);
    }
  }

  async function runExport() {
    setExporting(true);
    try {
      await exportContacts();
    } catch (err) {
      logFailure("contacts export failed", err);
      toast.error(t("contacts.exportFailed"));
    } finally {
      setExporting(false);
    }
  }

  return (
    <>
      <PageHeading title={t("contacts.title")} count={list.data?.pages[0]?.count}>
        <SearchField value={search} onChange={setSearch} placeholder={t("contacts.searchPlaceholder")} />
        <Button variant="outlined" startIcon={<UploadIcon />} onClick={() => setImportOpen(true)}>
          {t("contacts.import")}
        </Button>
        <Button variant="outlined" startIcon={<DownloadIcon />} onClick={runExport} disabled={exporting}>
          {t("contacts.export")}
        </Button>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => {
            setEditing(null);
            setDialogOpen(true);
          }}
        >
          {t("contacts.add")}
        </Button>
      </PageHeading>
      <Paper variant="outlined" onScroll={list.onScroll} sx={{ height: "calc(100vh - 170px)", minHeight: 320, overflow: "auto" }} data-testid="contacts-scroll">
        <ContactsTable
          contacts={list.items}
          loading={list.isLoading || list.isFetchingNextPage}
          canDelete={canDelete}
          onOpen={openConversation}
          onNewTicket={setTicketFor}
          onEdit={(c) => {
            setEditing(c);
            setDialogOpen(true);
          }}
          onDelete={setDeleting}
          canPersonalData={canPersonalData}
          onExportData={(c) => void exportData(c)}
          onEraseData={setErasing}
        />
      </Paper>
      <ContactDialog
        open={dialogOpen}
        contact={editing}
        onClose={() => setDialogOpen(false)}
        onSaved={(c) => upsertPagedItem(queryClient, contactKeys.lists, c)}
      />
      <ConfirmationDialog
        open={deleting !== null}
        title={t("contacts.deleteTitle", { name: deleting?.name ?? "" })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && void confirmDelete(deleting)}
      >
        {t("contacts.deleteMessage")}
      </ConfirmationDialog>
      <ConfirmationDialog
        open={erasing !== null}
        title={t("contacts.eraseTitle", { name: erasing?.name ?? "" })}
        confirmLabel={t("contacts.eraseConfirm")}
        onClose={() => setErasing(null)}
        onConfirm={() => erasing && void confirmErase(erasing)}
      >
        {t("contacts.eraseMessage")}
      </ConfirmationDialog>
      <NewTicketDialog contact={ticketFor} onClose={() => setTicketFor(null)} />
      <ImportDialog
        open={importOpen}
        companyId={user.companyId}
        onClose={() => setImportOpen(false)}
        onImported={() => void queryClient.invalidateQueries({ queryKey: contactKeys.lists })}
      />
    </>
  );
}
