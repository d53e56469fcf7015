import { Avatar } from "@mui/material";
import { initials } from "../lib/format";

const COLORS = ["#2563eb", "#0f766e", "#7c3aed", "#db2777", "#ea580c", "#16a34a", "#0891b2", "#9333ea"];

/** The contact's picture, or its initials on a colour derived from the name. */
export function ContactAvatar({ name, src, size = 44 }: { name: string; src?: string | null; size?: number }) {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) | 0;
  return (
    <Avatar src={src || undefined} alt={name} sx={{ width: size, height: size, bgcolor: COLORS[Math.abs(hash) % COLORS.length], fontSize: size * 0.38 }}>
      {initials(name)}
    </Avatar>
  );
}
