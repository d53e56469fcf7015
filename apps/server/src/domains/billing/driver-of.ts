import type { AppContext } from "../../core/context.js";
import { BcbApiPixDriver } from "./pix/bcb-api-driver.js";
import type { PixDriver } from "./pix/driver.js";
import { SandboxPixDriver } from "./pix/sandbox-driver.js";

/** The configured PSP (config.pix.provider), or null when Pix is off (`none`). */
export function pixDriverOf(ctx: AppContext): PixDriver | null {
  const pix = ctx.config.pix;
  if (pix.provider === "bcb") return new BcbApiPixDriver(pix);
  if (pix.provider === "sandbox") return new SandboxPixDriver(ctx.sql, pix, ctx.config.publicUrl);
  return null;
}
