import { Autocomplete, Box, Chip, InputAdornment, MenuItem, Select, TextField } from "@mui/material";
import SearchIcon from "@mui/icons-material/Search";
import { useTranslation } from "react-i18next";
import type { TagRef, UserRef } from "../types";
import { colorChipSx } from "../../../lib/contrast";

export const ORIGINS = ["proactive", "reactive"] as const;
export type Origin = (typeof ORIGINS)[number];

interface Props {
  searchText: string;
  onSearchText(v: string): void;
  tags: TagRef[];
  tagFilter: TagRef[];
  onTagFilter(v: TagRef[]): void;
  /** null when the user may not filter by agent. */
  users: UserRef[] | null;
  userFilter: UserRef[];
  onUserFilter(v: UserRef[]): void;
  originFilter: Origin[];
  onOriginFilter(v: Origin[]): void;
}

/** The search tab's controls: the text, the tags, the agents (when allowed) and the origin. */
export function SearchFilters({ searchText, onSearchText, tags, tagFilter, onTagFilter, users, userFilter, onUserFilter, originFilter, onOriginFilter }: Props) {
  const { t } = useTranslation();
  const showUserFilter = users !== null;
  return (
        <Box sx={{ px: 1.5, py: 1, display: "grid", gap: 1, borderBottom: 1, borderColor: "divider" }}>
          <TextField
            size="small"
            autoFocus
            placeholder={t("tickets.search.placeholder")}
            value={searchText}
            onChange={(e) => onSearchText(e.target.value)}
            inputProps={{ "data-testid": "search-input", "aria-label": t("tickets.search.placeholder") }}
            InputProps={{ startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> }}
          />
          <Box sx={{ display: "grid", gridTemplateColumns: showUserFilter ? "1fr 1fr 1fr" : "1fr 1fr", gap: 1 }}>
            <Autocomplete
              multiple
              size="small"
              limitTags={1}
              options={tags}
              value={tagFilter}
              onChange={(_, v) => onTagFilter(v)}
              getOptionLabel={(o) => o.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              renderTags={(v, getProps) => v.map((o, i) => <Chip {...getProps({ index: i })} key={o.id} size="small" label={o.name} sx={{ ...colorChipSx(o.color), height: 20 }} />)}
              renderInput={(p) => <TextField {...p} placeholder={tagFilter.length ? "" : t("tickets.search.tags")} />}
            />
            {showUserFilter && (
              <Autocomplete
                multiple
                size="small"
                limitTags={1}
                options={users ?? []}
                value={userFilter}
                onChange={(_, v) => onUserFilter(v)}
                getOptionLabel={(o) => o.name}
                isOptionEqualToValue={(a, b) => a.id === b.id}
                renderInput={(p) => <TextField {...p} placeholder={userFilter.length ? "" : t("tickets.search.users")} />}
              />
            )}
            <Select
              multiple
              size="small"
              displayEmpty
              value={originFilter}
              onChange={(e) => onOriginFilter(typeof e.target.value === "string" ? [] : (e.target.value as Origin[]))}
              renderValue={(v) => (v.length ? v.map((o) => t(`tickets.item.${o}`)).join(", ") : t("tickets.search.origin"))}
              inputProps={{ "aria-label": t("tickets.search.origin") }}
              sx={{ fontSize: 14, color: originFilter.length ? "text.primary" : "text.secondary" }}
            >
              {ORIGINS.map((o) => (
                <MenuItem key={o} value={o}>
                  {t(`tickets.item.${o}`)}
                </MenuItem>
              ))}
            </Select>
          </Box>
        </Box>
  );
}
