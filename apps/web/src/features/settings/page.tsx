import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Box, CircularProgress, Tab, Tabs } from "@mui/material";
import { useTranslation } from "react-i18next";
import { channel, SETTING_DEFAULTS, type Setting } from "@atende/shared";
import { PageHeading } from "../../components/page-heading";
import { useSocketEvent } from "../../lib/use-socket-event";
import { useCurrentUser } from "../../lib/session";
import { fetchSettings, settingKeys } from "./api/settings";
import { CompaniesTab } from "./components/companies-tab";
import { HelpsTab } from "./components/helps-tab";
import { HoursTab } from "./components/hours-tab";
import { OptionsTab } from "./components/options-tab";
import { PlansTab } from "./components/plans-tab";
import { SignupSettingsCard } from "./components/signup-settings-card";

type TabKey = "options" | "hours" | "companies" | "plans" | "helps";

export default function SettingsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: settingKeys.all, queryFn: fetchSettings });
  const [tab, setTab] = useState<TabKey>("options");

  // Another administrator's change arrives live.
  useSocketEvent<{ action: string; setting?: Setting }>(channel.settings(user.companyId), (e) => {
    const s = e?.setting;
    if (!s) return;
    queryClient.setQueryData<Setting[]>(settingKeys.all, (old = []) => (old.some((x) => x.key === s.key) ? old.map((x) => (x.key === s.key ? s : x)) : [...old, s]));
  });

  const scheduleType = settings.data?.find((s) => s.key === "scheduleType")?.value ?? SETTING_DEFAULTS.scheduleType;
  const tabs: TabKey[] = ["options", ...(scheduleType === "company" ? (["hours"] as const) : []), ...(user.super ? (["companies", "plans", "helps"] as const) : [])];
  const current = tabs.includes(tab) ? tab : "options";

  return (
    <>
      <PageHeading title={t("settings.title")} />
      <Tabs value={current} onChange={(_, v: TabKey) => setTab(v)} variant="scrollable" sx={{ mb: 2, borderBottom: 1, borderColor: "divider" }}>
        {tabs.map((k) => (
          <Tab key={k} value={k} label={t(`settings.tabs.${k}`)} />
        ))}
      </Tabs>
      {settings.isLoading ? (
        <Box sx={{ display: "grid", placeItems: "center", py: 6 }}>
          <CircularProgress />
        </Box>
      ) : (
        <>
          {current === "options" && <OptionsTab settings={settings.data ?? []} isSuper={user.super} companyId={user.companyId} />}
          {current === "hours" && <HoursTab companyId={user.companyId} />}
          {current === "companies" && <CompaniesTab />}
          {current === "plans" && (
            <>
              <SignupSettingsCard />
              <PlansTab />
            </>
          )}
          {current === "helps" && <HelpsTab />}
        </>
      )}
    </>
  );
}
