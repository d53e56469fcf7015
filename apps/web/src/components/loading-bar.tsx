import { keyframes, styled } from "@mui/material/styles";

const slide = keyframes`
  from { transform: translateX(-100%); }
  to { transform: translateX(250%); }
`;

const Track = styled("div")(({ theme }) => ({
  height: 4,
  overflow: "hidden",
  backgroundColor: theme.palette.mode === "light" ? "#c7d7fe" : "#1e3a8a",
}));

const Bar = styled("div")(({ theme }) => ({
  width: "40%",
  height: "100%",
  backgroundColor: theme.palette.primary.main,
  animation: `${slide} 1.2s ease-in-out infinite`,
}));

/**
 * The thin bar shown while a page's code loads: drawn like MUI's indeterminate LinearProgress, without
 * loading it with the entry (the login page's weight).
 */
export function LoadingBar() {
  return (
    <Track role="progressbar" aria-label="loading">
      <Bar />
    </Track>
  );
}
