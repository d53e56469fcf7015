import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Box } from "@mui/material";
import { useTranslation } from "react-i18next";
import { TEMPLATE_SEARCH_DEBOUNCE_MS, type EmailTemplateSummary } from "@atende/shared";
import { SearchField } from "../../../components/search-field";
import { useDebouncedValue } from "../../../components/use-debounced-value";
import { upsertPagedItem, usePagedList } from "../../../components/use-paged-list";
import { emailTemplateKeys, fetchEmailTemplatesPage } from "../api/message-templates";
import { EmailTemplateDialog } from "./email-template-dialog";
import { EmailTemplatePreviewDialog } from "./email-template-preview-dialog";
import { TemplateListTable } from "./template-list-table";

interface Props {
  adding: boolean;
  onAddClose(): void;
}

/** The e-mail tab of /templates: title search (300 ms), infinite list, preview and the full-screen editor. */
export function EmailTemplates({ adding, onAddClose }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const title = useDebouncedValue(search.trim(), TEMPLATE_SEARCH_DEBOUNCE_MS);
  const list = usePagedList({ queryKey: emailTemplateKeys.list(title), fetchPage: (page, signal) => fetchEmailTemplatesPage(title, page, signal) });
  const [editing, setEditing] = useState<number | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);

  return (
    <>
      <Box sx={{ mb: 2, "& .MuiTextField-root": { width: { xs: "100%", sm: 260 } } }}>
        <SearchField value={search} onChange={setSearch} placeholder={t("messageTemplates.search")} />
      </Box>
      <TemplateListTable
        label={t("messageTemplates.email.listTitle")}
        rows={list.items.map((i) => ({ id: i.id, title: i.title, updatedAt: i.updated_at }))}
        loading={list.isLoading || list.isFetchingNextPage}
        error={list.isError}
        empty={title ? t("campaignTemplates.noMatch") : t("messageTemplates.email.empty")}
        onScroll={list.onScroll}
        onView={setViewing}
        onEdit={setEditing}
      />
      <EmailTemplateDialog
        open={adding || editing !== null}
        templateId={editing}
        onClose={() => {
          setEditing(null);
          onAddClose();
        }}
        onSaved={({ content: _html, ...summary }) => {
          upsertPagedItem<EmailTemplateSummary>(queryClient, emailTemplateKeys.lists, summary);
          void queryClient.invalidateQueries({ queryKey: emailTemplateKeys.lists });
        }}
      />
      <EmailTemplatePreviewDialog templateId={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
