import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Box, Button, Chip, LinearProgress, MenuItem, Paper, Stack, TextField, Typography } from "@mui/material";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import DownloadIcon from "@mui/icons-material/Download";
import { useTranslation } from "react-i18next";
import { PageHeading } from "../../components/page-heading";
import { DateTimeField, INVALID_DATE } from "../../components/date-time-field";
import { ApiError } from "../../lib/api";
import { errorText } from "../../lib/toast-error";
import { logFailure } from "../../lib/log-failure";
import { toast } from "../../lib/toast";
import { campaignKeys, createCampaign, fetchAllCostCenters, fetchBots, fetchBusinesses, fetchPhones, fetchQueues, fetchTemplates } from "./api/campaigns";
import { countLines, sampleCsv } from "./components/count-lines";
import { useCampaignFile } from "./components/check-file";
import { SummaryDialog, type CampaignSummary } from "./components/summary-dialog";
import { SmsCampaignForm } from "./sms/sms-campaign-form";
import { EmailCampaignForm } from "./email/email-campaign-form";

/** Spec §9: form submit is delayed about 400 ms. */

type Field = "costCenterId" | "title" | "file" | "businessId" | "templateIds" | "queueId" | "scheduledAt";

/** A failed lookup: logged, its spec toast shown once, and the form stops loading (spec §8). */
function useLookupError(error: unknown, what: string, message: string) {
  useEffect(() => {
    if (!error) return;
    logFailure(`new campaign: ${what}`, error);
    toast.error(message, { toastId: `new-campaign-${what}` });
  }, [error, what, message]);
}

/** /new-campaign: the channel selector (spec §2) shows the WhatsApp form or a channel's own (?channel=sms|email). */
export default function NewCampaignPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const channelParam = params.get("channel");
  const channelKind = channelParam === "sms" || channelParam === "email" ? channelParam : "whatsapp";
  const channelSelect = (
    <TextField
      select
      label={t("campaigns.channel")}
      value={channelKind}
      onChange={(e) => setParams(e.target.value === "whatsapp" ? {} : { channel: e.target.value })}
      slotProps={{ htmlInput: { "data-testid": "campaign-channel" } }}
    >
      <MenuItem value="whatsapp">{t("campaigns.channels.whatsapp")}</MenuItem>
      <MenuItem value="sms">{t("campaigns.channels.sms")}</MenuItem>
      <MenuItem value="email">{t("campaigns.channels.email")}</MenuItem>
    </TextField>
  );
  if (channelKind === "sms") return <SmsCampaignForm channelSelect={channelSelect} />;
  if (channelKind === "email") {
    return (
      <>
        <PageHeading title={t("campaigns.form.title")} />
        <EmailCampaignForm channelSelect={channelSelect} />
      </>
    );
  }
  return <WhatsAppCampaignForm channelSelect={channelSelect} />;
}

/** /new-campaign, WhatsApp section (spec 3 §2, §5). */
function WhatsAppCampaignForm({ channelSelect }: { channelSelect: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const chosen = useCampaignFile();
  const file = chosen.file;
  const [title, setTitle] = useState("");
  const [costCenterId, setCostCenterId] = useState("");
  const [businessId, setBusinessId] = useState("");
  const [templateIds, setTemplateIds] = useState<number[]>([]);
  const [phoneIds, setPhoneIds] = useState<number[]>([]);
  const [queueId, setQueueId] = useState("");
  const [botId, setBotId] = useState("");
  const [scheduledAt, setScheduledAt] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [summary, setSummary] = useState<CampaignSummary | null>(null);
  const [reviewing, setReviewing] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const bm = Number(businessId);
  const costCenters = useQuery({ queryKey: campaignKeys.costCenters, queryFn: ({ signal }) => fetchAllCostCenters(signal) });
  const businesses = useQuery({ queryKey: campaignKeys.businesses, queryFn: ({ signal }) => fetchBusinesses(signal) });
  const queues = useQuery({ queryKey: campaignKeys.queues, queryFn: ({ signal }) => fetchQueues(signal) });
  const bots = useQuery({ queryKey: campaignKeys.bots, queryFn: ({ signal }) => fetchBots(signal) });
  const templates = useQuery({ queryKey: campaignKeys.templates(bm), queryFn: ({ signal }) => fetchTemplates(bm, signal), enabled: bm > 0 });
  const phones = useQuery({ queryKey: campaignKeys.phones(bm), queryFn: ({ signal }) => fetchPhones(bm, signal), enabled: bm > 0 });

  useLookupError(costCenters.error, "cost-centers", t("campaigns.errors.costCenters"));
  useLookupError(businesses.error, "businesses", t("campaigns.errors.businesses"));
  useLookupError(queues.error, "queues", t("campaigns.errors.queues"));
  useLookupError(bots.error, "bots", t("campaigns.errors.bots"));
  useLookupError(templates.error, "templates", t("campaigns.errors.templates"));
  useLookupError(phones.error, "phones", t("campaigns.errors.phones"));

  // loading while a lookup runs; a failed one stops it (the form becomes editable with what it has)
  const lookups = [costCenters, businesses, queues, bots, ...(bm > 0 ? [templates, phones] : [])];
  const loading = lookups.some((q) => q.isPending && q.fetchStatus !== "idle" && !q.isError);

  const selectedTemplates = useMemo(() => (templates.data ?? []).filter((x) => templateIds.includes(x.id)), [templates.data, templateIds]);
  const variableColumns = selectedTemplates.reduce((m, x) => Math.max(m, x.csvColumns), 0);

  /** A field's error goes as soon as the field changes. */
  const clear = (field: Field) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));

  /** Checked when chosen (extension, size, separator, headers): the spec's message at once, not after 'Campanha criada'. */
  async function chooseFile(f: File | null) {
    clear("file");
    const problem = await chosen.choose(f);
    if (problem) setErrors((e) => ({ ...e, file: problem }));
  }

  function chooseBusiness(value: string) {
    clear("businessId");
    setBusinessId(value);
    setTemplateIds([]);
    setPhoneIds([]);
  }

  /** Spec §5, in its order; the texts are the server's codes' translations. */
  function validate(): Partial<Record<Field, string>> {
    const e: Partial<Record<Field, string>> = {};
    if (!costCenterId) e.costCenterId = t("backendErrors.ERR_CAMPAIGN_COST_CENTER_REQUIRED");
    if (!title.trim()) e.title = t("backendErrors.ERR_CAMPAIGN_TITLE_REQUIRED");
    if (!file) e.file = t("backendErrors.ERR_CAMPAIGN_FILE_REQUIRED");
    else if (chosen.problem) e.file = chosen.problem;
    if (!businessId) e.businessId = t("backendErrors.ERR_CAMPAIGN_BUSINESS_REQUIRED");
    if (templateIds.length === 0) e.templateIds = t("backendErrors.ERR_CAMPAIGN_TEMPLATE_REQUIRED");
    if (!queueId) e.queueId = t("backendErrors.ERR_CAMPAIGN_QUEUE_REQUIRED");
    if (scheduledAt === INVALID_DATE) e.scheduledAt = t("backendErrors.ERR_VALIDATION");
    return e;
  }

  /** The portfolio's remaining output: one figure per BM (every number reports it); null = unlimited. */
  function estimatedOutput(): number | null {
    const list = phones.data ?? [];
    if (list.some((p) => p.remainingOutput === null)) return null;
    return list.reduce((m, p) => Math.max(m, p.remainingOutput ?? 0), 0);
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
    const name = (list: { id: number; name: string }[] | undefined, id: string) => list?.find((x) => String(x.id) === id)?.name ?? "";
    const chosenPhones = (phones.data ?? []).filter((p) => phoneIds.includes(p.id));
    const base: CampaignSummary = {
      title: title.trim(),
      fileName: file.name,
      costCenter: name(costCenters.data, costCenterId),
      business: name(businesses.data, businessId),
      templates: selectedTemplates.map((x) => x.name).join(", "),
      phones: chosenPhones.length ? chosenPhones.map((p) => p.displayNumber).join(", ") : t("campaigns.form.phonesHint"),
      queue: name(queues.data, queueId),
      bot: botId ? name(bots.data, botId) : "",
      scheduledAt: scheduledAt ? scheduledAt.replace("T", " ").replace(/^(\d{4})-(\d{2})-(\d{2})/, "$3/$2/$1") : "",
      messages: null,
      output: estimatedOutput(),
    };
    setSummary(base);
    try {
      const lines = await countLines(file);
      setSummary({ ...base, messages: Math.max(lines - 1, 0) });
    } catch (err) {
      logFailure("new campaign: counting the file's lines", err);
      setSummary(null);
      toast.error(t("campaigns.errors.create"));
    }
  }

  async function confirm() {
    if (!file) return;
    setSubmitting(true);
    try {
      await createCampaign({
        title: title.trim(),
        costCenterId: Number(costCenterId),
        costCenterName: costCenters.data?.find((c) => String(c.id) === costCenterId)?.name ?? "",
        businessId: bm,
        templateIds,
        phoneIds,
        queueId: Number(queueId),
        integrationId: botId ? Number(botId) : null,
        scheduledAt,
        file,
      });
      toast.success(t("campaigns.form.created"));
      await queryClient.invalidateQueries({ queryKey: campaignKeys.all });
      void navigate("/campaigns");
    } catch (err) {
      logFailure("new campaign: create", err);
      // a refused field says which (spec §5 texts); anything else is the spec's support message
      const known = err instanceof ApiError && err.status < 500 && err.code?.startsWith("ERR_CAMPAIGN_");
      toast.error(known ? errorText(err) : t("campaigns.errors.create"));
      setSummary(null);
    } finally {
      setSubmitting(false);
    }
  }

  function downloadSample() {
    const url = URL.createObjectURL(new Blob([sampleCsv(variableColumns || 2)], { type: "text/csv;charset=utf-8" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "exemplo-campanha.csv";
    a.click();
    URL.revokeObjectURL(url);
  }

  return (
    <>
      <PageHeading title={t("campaigns.form.title")} />
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
          <TextField
            select
            label={t("campaigns.form.costCenter")}
            value={costCenterId}
            onChange={(e) => {
              clear("costCenterId");
              setCostCenterId(e.target.value);
            }}
            error={!!errors.costCenterId}
            helperText={errors.costCenterId}
            disabled={loading}
            required
            slotProps={{ htmlInput: { "data-testid": "cost-center" } }}
          >
            {(costCenters.data ?? []).map((c) => (
              <MenuItem key={c.id} value={String(c.id)}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t("campaigns.form.business")}
            value={businessId}
            onChange={(e) => chooseBusiness(e.target.value)}
            error={!!errors.businessId}
            helperText={errors.businessId}
            disabled={loading}
            required
          >
            {(businesses.data ?? []).map((b) => (
              <MenuItem key={b.id} value={String(b.id)}>
                {b.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t("campaigns.form.templates")}
            value={templateIds}
            onChange={(e) => {
              clear("templateIds");
              setTemplateIds((e.target.value as unknown as (number | string)[]).map(Number));
            }}
            error={!!errors.templateIds}
            helperText={errors.templateIds ?? (variableColumns > 0 ? t("campaigns.form.variables", { count: variableColumns }) : undefined)}
            disabled={loading || !bm}
            required
            slotProps={{
              select: {
                multiple: true,
                renderValue: (v) => (
                  <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
                    {(v as number[]).map((id) => (
                      <Chip key={id} size="small" label={templates.data?.find((x) => x.id === id)?.name ?? id} />
                    ))}
                  </Box>
                ),
              },
            }}
          >
            {(templates.data ?? []).map((x) => (
              <MenuItem key={x.id} value={x.id}>
                <Box>
                  <Typography variant="body2">
                    {x.name} · {x.category}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" sx={{ display: "block", maxWidth: 560, whiteSpace: "normal" }}>
                    {x.body}
                  </Typography>
                </Box>
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t("campaigns.form.phones")}
            value={phoneIds}
            onChange={(e) => setPhoneIds((e.target.value as unknown as (number | string)[]).map(Number))}
            helperText={t("campaigns.form.phonesHint")}
            disabled={loading || !bm}
            slotProps={{
              select: {
                multiple: true,
                renderValue: (v) => (
                  <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
                    {(v as number[]).map((id) => (
                      <Chip key={id} size="small" label={phones.data?.find((p) => p.id === id)?.displayNumber ?? id} />
                    ))}
                  </Box>
                ),
              },
            }}
          >
            {(phones.data ?? []).map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {p.displayNumber} · {p.verifiedName} · {p.messagingLimit}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t("campaigns.form.queue")}
            value={queueId}
            onChange={(e) => {
              clear("queueId");
              setQueueId(e.target.value);
            }}
            error={!!errors.queueId}
            helperText={errors.queueId}
            disabled={loading}
            required
          >
            {(queues.data ?? []).map((q) => (
              <MenuItem key={q.id} value={String(q.id)}>
                {q.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t("campaigns.form.bot")}
            value={botId}
            onChange={(e) => setBotId(e.target.value)}
            helperText={t("campaigns.form.botHint")}
            disabled={loading}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            data-testid="campaign-bot"
          >
            <MenuItem value="">{t("campaigns.form.noBot")}</MenuItem>
            {(bots.data ?? []).map((b) => (
              <MenuItem key={b.id} value={String(b.id)}>
                {b.name}
              </MenuItem>
            ))}
          </TextField>
          <DateTimeField label={t("campaigns.form.scheduledAt")} value={scheduledAt} onChange={(v) => {
              clear("scheduledAt");
              setScheduledAt(v);
            }} name="scheduledAt" disabled={loading} error={!!errors.scheduledAt} helperText={errors.scheduledAt} />
          <Box sx={{ display: "flex", gap: 1, justifyContent: "flex-end" }}>
            <Button onClick={() => void navigate("/campaigns")}>{t("campaigns.form.cancel")}</Button>
            <Button type="submit" variant="contained" disabled={loading || reviewing}>
              {t("campaigns.form.review")}
            </Button>
          </Box>
        </Stack>
      </Paper>
      <SummaryDialog open={summary !== null} summary={summary} submitting={submitting} onClose={() => setSummary(null)} onConfirm={() => void confirm()} />
    </>
  );
}
