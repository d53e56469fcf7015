import { campaignFileColumns, campaignHeaderCells, LIMITS } from "@atende/shared";
import { useCallback, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { logFailure } from "../../../lib/log-failure";

/** The header cells of a campaign CSV, read from its first 64 KB only (the shared rule's splitting). */
export async function csvHeader(file: Blob): Promise<string[]> {
  return campaignHeaderCells(await file.slice(0, 64 * 1024).text());
}

/**
 * What the server would refuse in a campaign file, checked when it is chosen (spec 3 §5, in its
 * order: extension, size, separator, mandatory headers) with the spec's messages; null when none.
 * The header rule is the analyses' own (campaignFileColumns in packages/shared).
 */
export function campaignFileProblem(file: File, header: string[], t: TFunction): string | null {
  if (!/\.csv$/i.test(file.name)) return t("backendErrors.ERR_CAMPAIGN_FILE_EXTENSION");
  if (file.size > LIMITS.campaignCsvMaxBytes) return t("backendErrors.ERR_CAMPAIGN_FILE_TOO_LARGE");
  const columns = campaignFileColumns(header);
  if (!("refusal" in columns)) return null;
  const r = columns.refusal;
  return r.kind === "separator" ? t("campaigns.fileCheck.separator") : t("campaigns.fileCheck.missingHeaders", { names: r.missing.join(", ") });
}

/** The forms' short 'loading' after 'Revisar campanha' before the checks run (spec 3 §5). */
const REVIEW_DELAY_MS = 400;

export interface CampaignFile {
  file: File | null;
  /** The header's cells ([] while it is read, or without a file). */
  header: string[];
  /** campaignFileProblem's answer once the header is read; null while it is read. */
  problem: string | null;
}

/**
 * The campaign forms' chosen file, checked as soon as it is chosen: `choose` resolves to the problem
 * (null when none) once the header is read, or to null when a later choice replaced this one.
 */
export function useCampaignFile(): CampaignFile & {
  choose: (file: File | null) => Promise<string | null>;
  reviewWait: () => Promise<boolean>;
} {
  const { t } = useTranslation();
  const [state, setState] = useState<CampaignFile>({ file: null, header: [], problem: null });
  const latest = useRef<File | null>(null);
  const choose = useCallback(
    async (file: File | null) => {
      latest.current = file;
      setState({ file, header: [], problem: null });
      if (!file) return null;
      let header: string[] = [];
      let problem: string | null;
      try {
        header = await csvHeader(file);
        problem = campaignFileProblem(file, header, t);
      } catch (err) {
        logFailure("new campaign: reading the file's header", err);
        problem = t("campaigns.fileCheck.reading");
      }
      if (latest.current !== file) return null;
      setState({ file, header, problem });
      return problem;
    },
    [t],
  );
  /**
   * The review's wait; false when another file was chosen meanwhile: that review was judged on the
   * old file, so it is dropped (the new file shows its own check) instead of putting back its error.
   */
  const reviewWait = useCallback(async () => {
    const at = latest.current;
    await new Promise((r) => setTimeout(r, REVIEW_DELAY_MS));
    return latest.current === at;
  }, []);
  return { ...state, choose, reviewWait };
}
