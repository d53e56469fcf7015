import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Box } from "@mui/material";
import { useTranslation } from "react-i18next";
import { TEMPLATE_SEARCH_DEBOUNCE_MS, type SmsTemplate } from "@atende/shared";
import { SearchField } from "../../../components/search-field";
import { useDebouncedValue } from "../../../components/use-debounced-value";
import { upsertPagedItem, usePagedList } from "../../../components/use-paged-list";
import { fetchSmsTemplatesPage, smsTemplateKeys } from "../api/message-templates";
import { SmsTemplateDialog } from "./sms-template-dialog";
import { SmsTemplateViewDialog } from "./sms-template-view-dialog";
import { TemplateListTable } from "./template-list-table";

interface Props {
  /** The page's add button was pressed. */
  adding: boolean;
  onAddClose(): void;
}

/** The SMS tab of /templates: title search (300 ms), infinite list merged by id, view and add/edit dialogs. */
export function SmsTemplates({ adding, onAddClose }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const title = useDebouncedValue(search.trim(), TEMPLATE_SEARCH_DEBOUNCE_MS);
  const list = usePagedList({ queryKey: smsTemplateKeys.list(title), fetchPage: (page, signal) => fetchSmsTemplatesPage(title, page, signal) });
  const [editing, setEditing] = useState<SmsTemplate | null>(null);
  const [viewing, setViewing] = useState<SmsTemplate | null>(null);
  const byId = (id: number) => list.items.find((i) => i.id === id) ?? null;

  return (
    <>
      <Box sx={{ mb: 2, "& .MuiTextField-root": { width: { xs: "100%", sm: 260 } } }}>
        <SearchField value={search} onChange={setSearch} placeholder={t("messageTemplates.search")} />
      </Box>
      <TemplateListTable
        label={t("messageTemplates.sms.listTitle")}
        rows={list.items.map((i) => ({ id: i.id, title: i.title, updatedAt: i.modified_at }))}
        loading={list.isLoading || list.isFetchingNextPage}
        error={list.isError}
        empty={title ? t("campaignTemplates.noMatch") : t("messageTemplates.sms.empty")}
        onScroll={list.onScroll}
        onView={(id) => setViewing(byId(id))}
        onEdit={(id) => setEditing(byId(id))}
      />
      <SmsTemplateDialog
        open={adding || editing !== null}
        template={editing}
        onClose={() => {
          setEditing(null);
          onAddClose();
        }}
        onSaved={(saved) => {
          upsertPagedItem(queryClient, smsTemplateKeys.lists, saved);
          void queryClient.invalidateQueries({ queryKey: smsTemplateKeys.lists });
        }}
      />
      <SmsTemplateViewDialog template={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
