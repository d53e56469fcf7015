import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from "react";
import { useNavigate } from "react-router-dom";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Autocomplete, Box, Button, Checkbox, Chip, FormControlLabel, FormGroup, FormLabel, LinearProgress, MenuItem, Paper, Stack, TextField, Typography } from "@mui/material";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import DownloadIcon from "@mui/icons-material/Download";
import { useTranslation } from "react-i18next";
import { SMS_CAMPAIGN_MESSAGES, SMS_CAMPAIGN_SAMPLE_CSV } from "@atende/shared";
import { PageHeading } from "../../../components/page-heading";
import { DateTimeField, INVALID_DATE } from "../../../components/date-time-field";
import { HHMM_PATTERN, TimeMaskField } from "../../../components/time-mask-field";
import { ApiError } from "../../../lib/api";
import { errorText } from "../../../lib/toast-error";
import { logFailure } from "../../../lib/log-failure";
import { toast } from "../../../lib/toast";
import { campaignKeys, fetchAllCostCenters } from "../api/campaigns";
import { countLines } from "../components/count-lines";
import { createSmsCampaign, fetchSmsTemplates, smsKeys, uploadSmsFile } from "./api";
import { variableColumns } from "./csv-header";
import { useCampaignFile } from "../components/check-file";
import { SmsSummaryDialog, type SmsSummary } from "./sms-summary-dialog";

type Field = "costCenterId" | "title" | "file" | "template" | "startHour" | "endHour" | "scheduleDate" | "mapping";

/** /new-campaign, SMS (spec 3 §2 'SMS section', §5 SMS rules): the common fields, then template, schedule, hours, options and the variable mapping. */
export function SmsCampaignForm({ channelSelect }: { channelSelect: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const chosen = useCampaignFile();
  const { file, header } = chosen;
  const [title, setTitle] = useState("");
  const [costCenterId, setCostCenterId] = useState("");
  const [templateId, setTemplateId] = useState("");
  const [scheduleDate, setScheduleDate] = useState("");
  const [startHour, setStartHour] = useState("");
  const [endHour, setEndHour] = useState("");
  const [options, setOptions] = useState({ whitelist: false, blacklist: false, shortener: false });
  const [tags, setTags] = useState<string[]>([]);
  const [mapping, setMapping] = useState<Record<string, number>>({});
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [summary, setSummary] = useState<SmsSummary | null>(null);
  const [reviewing, setReviewing] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const costCenters = useQuery({ queryKey: campaignKeys.costCenters, queryFn: ({ signal }) => fetchAllCostCenters(signal) });
  const templates = useQuery({ queryKey: smsKeys.templates, queryFn: ({ signal }) => fetchSmsTemplates(signal) });
  useEffect(() => {
    if (costCenters.error) {
      logFailure("new sms campaign: cost centers", costCenters.error);
      toast.error(t("campaigns.errors.costCenters"), { toastId: "new-campaign-cost-centers" });
    }
  }, [costCenters.error, t]);
  useEffect(() => {
    if (templates.error) {
      logFailure("new sms campaign: templates", templates.error);
      toast.error(t("campaigns.sms.errors.templates"), { toastId: "new-sms-campaign-templates" });
    }
  }, [templates.error, t]);
  // loading while a lookup runs; a failed one stops it (spec §2)
  const loading = [costCenters, templates].some((q) => q.isPending && !q.isError);

  const template = useMemo(() => templates.data?.find((x) => String(x.id) === templateId) ?? null, [templates.data, templateId]);
  const columns = useMemo(() => variableColumns(header), [header]);
  /** Default mapping: the template's variables in order to the file's variable columns (index 3 on without a file). */
  const columnOf = (name: string, i: number) => mapping[name] ?? columns[i]?.index ?? 3 + i;
  const clear = (field: Field) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));

  /** Checked when chosen (extension, size, separator, headers): the spec's message at once, not after 'Campanha criada'. */
  async function chooseFile(f: File | null) {
    clear("file");
    setMapping({});
    const problem = await chosen.choose(f);
    if (problem) setErrors((e) => ({ ...e, file: problem }));
  }

  /** Spec §5 in its order; the texts are the server's (SMS_CAMPAIGN_MESSAGES and the codes' translations). */
  function validate(): Partial<Record<Field, string>> {
    const e: Partial<Record<Field, string>> = {};
    if (!costCenterId) e.costCenterId = SMS_CAMPAIGN_MESSAGES.costCenterRequired;
    if (!title.trim()) e.title = SMS_CAMPAIGN_MESSAGES.titleRequired;
    if (!file) e.file = SMS_CAMPAIGN_MESSAGES.fileRequired;
    else if (chosen.problem) e.file = chosen.problem;
    if (!templateId) e.template = SMS_CAMPAIGN_MESSAGES.templateRequired;
    if (endHour && !startHour) e.startHour = SMS_CAMPAIGN_MESSAGES.startHourRequired;
    if (startHour && !endHour) e.endHour = SMS_CAMPAIGN_MESSAGES.endHourRequired;
    if (startHour && !HHMM_PATTERN.test(startHour)) e.startHour = SMS_CAMPAIGN_MESSAGES.hourInvalid;
    if (endHour && !HHMM_PATTERN.test(endHour)) e.endHour = SMS_CAMPAIGN_MESSAGES.hourInvalid;
    if (scheduleDate === INVALID_DATE) e.scheduleDate = t("backendErrors.ERR_VALIDATION");
    if (template && file && header.length > 0 && columns.length < template.variables.length) {
      e.mapping = SMS_CAMPAIGN_MESSAGES.variableColumns(columns.length, template.variables.length);
    }
    return e;
  }

  const chosenOptions = () =>
    [options.whitelist && t("campaigns.sms.form.whitelist"), options.blacklist && t("campaigns.sms.form.blacklist"), options.shortener && t("campaigns.sms.form.shortener")]
      .filter(Boolean)
      .join("; ");

  async function review(event: FormEvent) {
    event.preventDefault();
    setReviewing(true);
    const current = await chosen.reviewWait();
    setReviewing(false);
    if (!current) return;
    const e = validate();
    setErrors(e);
    if (Object.keys(e).length > 0 || !file || !template) return;
    const base: SmsSummary = {
      title: title.trim(),
      fileName: file.name,
      costCenter: costCenters.data?.find((c) => String(c.id) === costCenterId)?.name ?? "",
      template: template.title,
      segments: `${template.segments} (${template.encoding})`,
      schedule: scheduleDate ? scheduleDate.replace("T", " ").replace(/^(\d{4})-(\d{2})-(\d{2})/, "$3/$2/$1") : "",
      window: startHour ? `${startHour}–${endHour}` : "",
      options: chosenOptions(),
      tags: tags.join(", "),
      messages: null,
    };
    setSummary(base);
    try {
      setSummary({ ...base, messages: Math.max((await countLines(file)) - 1, 0) });
    } catch (err) {
      logFailure("new sms campaign: counting the file's lines", err);
      setSummary(null);
      toast.error(t("campaigns.errors.create"));
    }
  }

  /** POST the campaign, then PUT the file to its upload_url; then the list (spec §2). */
  async function confirm() {
    if (!file || !template) return;
    setSubmitting(true);
    try {
      const created = await createSmsCampaign({
        title: title.trim(),
        cost_center_id: Number(costCenterId),
        template: template.id,
        filename: file.name,
        use_file: true,
        use_whitelist: options.whitelist,
        use_blacklist_nexus: options.blacklist,
        use_shortener_url: options.shortener,
        tags,
        contact_variable_index: 0,
        cpf_variable_index: 1,
        matrix_variables: template.variables.map((name, i) => ({ template_variable: name, file_index: columnOf(name, i) })),
        schedule_date: scheduleDate || undefined,
        start_hour: startHour || undefined,
        end_hour: endHour || undefined,
      });
      await uploadSmsFile(created.upload_url ?? `/sms/campaigns/${created.id}/file/`, file);
      toast.success(t("campaigns.form.created"));
      await queryClient.invalidateQueries({ queryKey: smsKeys.all });
      void navigate("/campaigns?channel=sms");
    } catch (err) {
      logFailure("new sms campaign: create", err);
      const known = err instanceof ApiError && err.status < 500 && !!err.code;
      toast.error(known ? errorText(err) : t("campaigns.errors.create"));
      setSummary(null);
    } finally {
      setSubmitting(false);
    }
  }

  function downloadSample() {
    const url = URL.createObjectURL(new Blob([SMS_CAMPAIGN_SAMPLE_CSV], { type: "text/csv;charset=utf-8" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "exemplo-campanha-sms.csv";
    a.click();
    URL.revokeObjectURL(url);
  }

  const columnLabel = (index: number) => `${t("campaigns.sms.form.column", { n: index + 1 })}${header[index] ? ` (${header[index]})` : ""}`;
  const columnChoices = columns.length ? columns.map((c) => c.index) : Array.from({ length: Math.max(template?.variables.length ?? 0, 1) }, (_, i) => 3 + i);

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
                <input hidden type="file" name="file" accept=".csv,text/csv" data-testid="sms-campaign-file" onChange={(e) => void chooseFile(e.target.files?.[0] ?? null)} />
              </Button>
              <Typography variant="body2" color={errors.file ? "error" : "text.secondary"} sx={{ wordBreak: "break-all" }}>
                {file ? `${file.name} (${(file.size / 1024).toFixed(1)} KB)` : t("campaigns.form.noFile")}
              </Typography>
              <Button size="small" startIcon={<DownloadIcon />} onClick={downloadSample}>
                {t("campaigns.form.sample")}
              </Button>
            </Box>
            {errors.file && (
              <Typography variant="caption" color="error" role="alert">
                {errors.file}
              </Typography>
            )}
          </Box>
          <TextField required label={t("campaigns.form.campaignTitle")} name="title" value={title} disabled={loading} error={!!errors.title} helperText={errors.title}
            onChange={(e) => { setTitle(e.target.value); clear("title"); }} slotProps={{ htmlInput: { maxLength: 200 } }} />
          <TextField select required label={t("campaigns.form.costCenter")} name="costCenterId" value={costCenterId} disabled={loading} error={!!errors.costCenterId} helperText={errors.costCenterId}
            onChange={(e) => { setCostCenterId(e.target.value); clear("costCenterId"); }}>
            {(costCenters.data ?? []).map((c) => (
              <MenuItem key={c.id} value={String(c.id)}>{c.name}</MenuItem>
            ))}
          </TextField>
          <TextField select required label={t("campaigns.sms.form.template")} name="template" value={templateId} disabled={loading} error={!!errors.template}
            helperText={errors.template ?? (template ? t("campaigns.sms.form.templateHint", { variables: template.variables.join(", ") || t("campaigns.sms.form.noVariables"), encoding: template.encoding, segments: template.segments }) : undefined)}
            onChange={(e) => { setTemplateId(e.target.value); setMapping({}); clear("template"); clear("mapping"); }} slotProps={{ htmlInput: { "data-testid": "sms-template" } }}>
            {(templates.data ?? []).map((x) => (
              <MenuItem key={x.id} value={String(x.id)}>{x.title}</MenuItem>
            ))}
          </TextField>
          {template && (
            <Typography variant="body2" sx={{ p: 1.5, bgcolor: "action.hover", borderRadius: 1, whiteSpace: "pre-wrap", wordBreak: "break-word" }} data-testid="sms-template-preview">
              {template.content}
            </Typography>
          )}
          <DateTimeField label={t("campaigns.sms.form.scheduleDate")} name="scheduleDate" value={scheduleDate} disabled={loading} error={!!errors.scheduleDate} helperText={errors.scheduleDate}
            onChange={(v) => { setScheduleDate(v); clear("scheduleDate"); }} />
          <Box>
            <Box sx={{ display: "grid", gridTemplateColumns: "1fr 1fr", gap: 1.5 }}>
              <TimeMaskField label={t("campaigns.sms.form.startHour")} name="startHour" value={startHour} disabled={loading} error={!!errors.startHour} helperText={errors.startHour}
                onChange={(v) => { setStartHour(v); clear("startHour"); clear("endHour"); }} />
              <TimeMaskField label={t("campaigns.sms.form.endHour")} name="endHour" value={endHour} disabled={loading} error={!!errors.endHour} helperText={errors.endHour}
                onChange={(v) => { setEndHour(v); clear("endHour"); clear("startHour"); }} />
            </Box>
            <Typography variant="caption" color="text.secondary">{t("campaigns.sms.form.windowHint")}</Typography>
          </Box>
          <Box>
            <FormLabel component="legend">{t("campaigns.sms.form.options")}</FormLabel>
            <FormGroup>
              {(["whitelist", "blacklist", "shortener"] as const).map((k) => (
                <FormControlLabel key={k} label={t(`campaigns.sms.form.${k}`)} control={<Checkbox checked={options[k]} disabled={loading} onChange={(e) => setOptions((o) => ({ ...o, [k]: e.target.checked }))} />} />
              ))}
            </FormGroup>
          </Box>
          <Autocomplete multiple freeSolo options={[]} value={tags} disabled={loading} onChange={(_, v) => setTags(v.map((x) => String(x).trim()).filter(Boolean).slice(0, 20))}
            renderValue={(value, getItemProps) => value.map((option, index) => <Chip size="small" label={option} {...getItemProps({ index })} key={option} />)}
            renderInput={(params) => <TextField {...params} label={t("campaigns.sms.form.tags")} helperText={t("campaigns.sms.form.tagsHint")} />} />
          {template && template.variables.length > 0 && (
            <Box>
              <FormLabel component="legend">{t("campaigns.sms.form.mapping")}</FormLabel>
              <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>{t("campaigns.sms.form.mappingHint")}</Typography>
              <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" }, gap: 1.5 }}>
                {template.variables.map((name, i) => (
                  <TextField key={name} select size="small" label={`{{${name}}}`} value={String(columnOf(name, i))}
                    onChange={(e) => { setMapping((m) => ({ ...m, [name]: Number(e.target.value) })); clear("mapping"); }}>
                    {[...new Set([...columnChoices, columnOf(name, i)])].map((index) => (
                      <MenuItem key={index} value={String(index)}>{columnLabel(index)}</MenuItem>
                    ))}
                  </TextField>
                ))}
              </Box>
            </Box>
          )}
          {errors.mapping && (
            <Typography variant="body2" color="error" role="alert">{errors.mapping}</Typography>
          )}
          <Box sx={{ display: "flex", gap: 1, justifyContent: "flex-end" }}>
            <Button onClick={() => void navigate("/campaigns?channel=sms")}>{t("campaigns.form.cancel")}</Button>
            <Button type="submit" variant="contained" disabled={loading || reviewing}>{t("campaigns.form.review")}</Button>
          </Box>
        </Stack>
      </Paper>
      <SmsSummaryDialog summary={summary} submitting={submitting} onClose={() => setSummary(null)} onConfirm={() => void confirm()} />
    </>
  );
}
