import { Box, Button, MenuItem, Paper, TextField, Typography } from "@mui/material";
import PersonAddAlt1Icon from "@mui/icons-material/PersonAddAlt1";
import { useTranslation } from "react-i18next";

export interface Customer {
  number: string;
  name: string;
}

export function randomNumber(): string {
  let digits = "551199";
  for (let i = 0; i < 7; i++) digits += Math.floor(Math.random() * 10);
  return digits;
}

/** Who the tester is pretending to be: the customer's number and name. */
export function CustomerCard({ value, recent, onChange }: { value: Customer; recent: Customer[]; onChange(c: Customer): void }) {
  const { t } = useTranslation();
  const digits = value.number.replace(/\D/g, "");
  const invalid = digits.length > 0 && digits.length < 8;
  return (
    <Paper sx={{ p: 2, display: "grid", gap: 1.5 }} data-testid="customer-card">
      <Box>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          {t("sandbox.customer.title")}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t("sandbox.customer.help")}
        </Typography>
      </Box>
      {recent.length > 1 && (
        <TextField
          select
          size="small"
          label={t("sandbox.customer.recent")}
          value={recent.some((c) => c.number === digits) ? digits : ""}
          onChange={(e) => {
            const chosen = recent.find((c) => c.number === e.target.value);
            if (chosen) onChange(chosen);
          }}
          slotProps={{ select: { inputProps: { "data-testid": "customer-recent" } } }}
        >
          {recent.map((c) => (
            <MenuItem key={c.number} value={c.number}>
              {c.name} · {c.number}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        size="small"
        label={t("sandbox.customer.number")}
        value={value.number}
        onChange={(e) => onChange({ ...value, number: e.target.value.replace(/[^\d]/g, "") })}
        error={invalid}
        helperText={invalid ? t("sandbox.customer.numberInvalid") : undefined}
        inputProps={{ inputMode: "numeric", "data-testid": "customer-number" }}
      />
      <TextField
        size="small"
        label={t("sandbox.customer.name")}
        value={value.name}
        onChange={(e) => onChange({ ...value, name: e.target.value })}
        inputProps={{ maxLength: 100, "data-testid": "customer-name" }}
      />
      <Button startIcon={<PersonAddAlt1Icon />} onClick={() => onChange({ number: randomNumber(), name: t("sandbox.customer.defaultName") })}>
        {t("sandbox.customer.another")}
      </Button>
    </Paper>
  );
}
