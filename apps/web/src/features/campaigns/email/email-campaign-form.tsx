import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { useNavigate } from "react-router-dom";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Box, Button, LinearProgress, MenuItem, Paper, Stack, TextField, Typography } from "@mui/material";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import DownloadIcon from "@mui/icons-material/Download";
import { useTranslation } from "react-i18next";
import { EMAIL_CAMPAIGN_SAMPLE_CSV } from "@atende/shared";
import { ApiError } from "../../../lib/api";
import { errorText } from "../../../lib/toast-error";
import { logFailure } from "../../../lib/log-failure";
import { toast } from "../../../lib/toast";
import { campaignKeys, fetchAllCostCenters } from "../api/campaigns";
import { countLines } from "../components/count-lines";
import { useCampaignFile } from "../components/check-file";
import { createEmailCampaign, emailCampaignKeys, fetchEmailTemplates, fetchVerifiedSenders, uploadEmailCampaignFile } from "./api";
import { EmailSummaryDialog, type EmailSummary } from "./email-summary-dialog";

type Field = "costCenterId" | "title" | "file" | "sender" | "template";

function useLookupError(error: unknown, what: string, message: string) {
  useEffect(() => {
    if (!error) return;
    logFailure(`new e-mail campaign: ${what}`, error);
    toast.error(message, { toastId: `new-email-campaign-${what}` });
  }, [error, what, message]);
}

/**
 * /new-campaign, E-mail section (spec 3 §2, §5, §7): file, title, cost center, verified sender and
 * template; the summary, then POST /email/campaigns/ and PUT of the CSV to its upload_url.
 */
export function EmailCampaignForm({ channelSelect }: { channelSelect: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const chosen = useCampaignFile();
  const file = chosen.file;
  const [title, setTitle] = useState("");
  const [costCenterId, setCostCenterId] = useState("");
  const [sender, setSender] = useState("");
  const [template, setTemplate] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [summary, setSummary] = useState<EmailSummary | null>(null);
  const [reviewing, setReviewing] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const costCenters = useQuery({ queryKey: campaignKeys.costCenters, queryFn: ({ signal }) => fetchAllCostCenters(signal) });
  const senders = useQuery({ queryKey: emailCampaignKeys.senders, queryFn: ({ signal }) => fetchVerifiedSenders(signal) });
  const templates = useQuery({ queryKey: emailCampaignKeys.templates, queryFn: ({ signal }) => fetchEmailTemplates(signal) });
  useLookupError(costCenters.error, "cost-centers", t("campaigns.errors.costCenters"));
  useLookupError(senders.error, "senders", t("emailCampaigns.errors.senders"));
  useLookupError(templates.error, "templates", t("campaigns.errors.templates"));
  const loading = [costCenters, senders, templates].some((q) => q.isPending && q.fetchStatus !== "idle" && !q.isError);
  const clear = (field: Field) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));

  /** Checked when chosen (extension, size, separator, headers): the spec's message at once, not after 'Campanha criada'. */
  async function chooseFile(f: File | null) {
    clear("file");
    const problem = await chosen.choose(f);
    if (problem) setErrors((e) => ({ ...e, file: problem }));
  }

  function validate(): Partial<Record<Field, string>> {
    const e: Partial<Record<Field, string>> = {};
    if (!costCenterId) e.costCenterId = t("backendErrors.ERR_CAMPAIGN_COST_CENTER_REQUIRED");
    if (!title.trim()) e.title = t("backendErrors.ERR_CAMPAIGN_TITLE_REQUIRED");
    if (!file) e.file = t("backendErrors.ERR_CAMPAIGN_FILE_REQUIRED");
    else if (chosen.problem) e.file = chosen.problem;
    if (!sender) e.sender = t("backendErrors.ERR_EMAIL_SENDER_REQUIRED");
    if (!template) e.template = t("backendErrors.ERR_EMAIL_TEMPLATE_REQUIRED");
    return e;
  }

  async function review(event: FormEvent) {
    event.preventDefault();
    setReviewing(true);
    const current = await chosen.reviewWait();
    setReviewing(false);
    if (!current) return;
    const e = validate();
    setErrors(e);
    if (Object.keys(e).length > 0 || !file) return;
    const base: EmailSummary = {
      title: title.trim(),
      fileName: file.name,
      costCenter: costCenters.data?.find((c) => String(c.id) === costCenterId)?.name ?? "",
      sender: senders.data?.find((s) => String(s.id) === sender)?.email_address ?? "",
      template: templates.data?.find((x) => String(x.id) === template)?.title ?? "",
      messages: null,
    };
    setSummary(base);
    try {
      setSummary({ ...base, messages: Math.max((await countLines(file)) - 1, 0) });
    } catch (err) {
      logFailure("new e-mail campaign: counting the file's lines", err);
      setSummary(null);
      toast.error(t("campaigns.errors.create"));
    }
  }

  async function confirm() {
    if (!file) return;
    setSubmitting(true);
    try {
      const created = await createEmailCampaign({ title: title.trim(), filename: file.name, cost_center_id: Number(costCenterId), sender: Number(sender), template: Number(template) });
      await uploadEmailCampaignFile(created.upload_url, file);
      toast.success(t("campaigns.form.created"));
      await queryClient.invalidateQueries({ queryKey: emailCampaignKeys.all });
      void navigate("/campaigns?channel=email");
    } catch (err) {
      logFailure("new e-mail campaign: create", err);
      const known = err instanceof ApiError && err.status < 500 && (err.code?.startsWith("ERR_CAMPAIGN_") || err.code?.startsWith("ERR_EMAIL_"));
      toast.error(known ? errorText(err) : t("campaigns.errors.create"));
      setSummary(null);
    } finally {
      setSubmitting(false);
    }
  }

  function downloadSample() {
    const url = URL.createObjectURL(new Blob([EMAIL_CAMPAIGN_SAMPLE_CSV], { type: "text/csv;charset=utf-8" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "exemplo-campanha-email.csv";
    a.click();
    URL.revokeObjectURL(url);
  }

  const select = (field: Field, label: string, value: string, set: (v: string) => void, options: { id: number; label: string }[], testId: string) => (
    <TextField
      select
      label={label}
      value={value}
      onChange={(e) => {
        clear(field);
        set(e.target.value);
      }}
      error={!!errors[field]}
      helperText={errors[field]}
      disabled={loading}
      required
      slotProps={{ htmlInput: { "data-testid": testId } }}
    >
      {options.map((o) => (
        <MenuItem key={o.id} value={String(o.id)}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 860 }} component="form" noValidate onSubmit={(e: FormEvent) => void review(e)} aria-busy={loading}>
        {loading && <LinearProgress sx={{ mb: 2 }} data-testid="form-loading" />}
        <Stack spacing={2.5}>
          {channelSelect}
          <Box>
            <Box sx={{ display: "flex", gap: 1, alignItems: "center", flexWrap: "wrap" }}>
              <Button component="label" variant="outlined" startIcon={<UploadFileIcon />} disabled={loading}>
                {t("campaigns.form.chooseFile")}
                <input
                  hidden
                  type="file"
                  name="file"
                  accept=".csv,text/csv"
                  data-testid="campaign-file"
                  onChange={(e) => void chooseFile(e.target.files?.[0] ?? null)}
                />
              </Button>
              <Typography variant="body2" color={errors.file ? "error" : "text.secondary"} sx={{ wordBreak: "break-all" }}>
                {file ? `${file.name} (${(file.size / 1024).toFixed(1)} KB)` : t("campaigns.form.noFile")}
              </Typography>
              <Button size="small" startIcon={<DownloadIcon />} onClick={downloadSample} sx={{ ml: { sm: "auto" } }}>
                {t("campaigns.form.sample")}
              </Button>
            </Box>
            {errors.file && (
              <Typography variant="caption" color="error" role="alert">
                {errors.file}
              </Typography>
            )}
            <Typography variant="caption" color="text.secondary" sx={{ display: "block" }}>
              {t("emailCampaigns.form.fileHint")}
            </Typography>
          </Box>
          <TextField
            label={t("campaigns.form.campaignTitle")}
            name="title"
            value={title}
            onChange={(e) => {
              clear("title");
              setTitle(e.target.value);
            }}
            error={!!errors.title}
            helperText={errors.title}
            disabled={loading}
            required
          />
          {select("costCenterId", t("campaigns.form.costCenter"), costCenterId, setCostCenterId, (costCenters.data ?? []).map((c) => ({ id: c.id, label: c.name })), "cost-center")}
          {select("sender", t("emailCampaigns.form.sender"), sender, setSender, (senders.data ?? []).map((s) => ({ id: s.id, label: s.email_address })), "email-sender")}
          {select("template", t("emailCampaigns.form.template"), template, setTemplate, (templates.data ?? []).map((x) => ({ id: x.id, label: `${x.title} · ${x.subject}` })), "email-template")}
          <Box sx={{ display: "flex", gap: 1, justifyContent: "flex-end" }}>
            <Button onClick={() => void navigate("/campaigns?channel=email")}>{t("campaigns.form.cancel")}</Button>
            <Button type="submit" variant="contained" disabled={loading || reviewing}>
              {t("campaigns.form.review")}
            </Button>
          </Box>
        </Stack>
      </Paper>
      <EmailSummaryDialog summary={summary} submitting={submitting} onClose={() => setSummary(null)} onConfirm={() => void confirm()} />
    </>
  );
}
