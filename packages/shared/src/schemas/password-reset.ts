import { z } from "zod";
import { MSG } from "./common.js";

export const RESET_PASSWORD_MESSAGE =
  "Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.";

/** The reset code's lifetime, length and allowed wrong attempts. */
export const PASSWORD_RESET = { codeDigits: 6, ttlMinutes: 15, maxAttempts: 5 } as const;

const email = z.string({ error: MSG.required }).trim().min(1, { error: MSG.required, abort: true }).email(MSG.invalidEmail).max(254, MSG.tooLong);

/** New password rule (3-bulk §5): at least 8 characters with an uppercase letter, a lowercase letter and a digit. */
export const resetPassword = z
  .string({ error: RESET_PASSWORD_MESSAGE })
  .max(50, MSG.tooLong)
  .refine((p) => p.length >= 8 && /[A-Z]/.test(p) && /[a-z]/.test(p) && /\d/.test(p), RESET_PASSWORD_MESSAGE);

/** POST /forgetpassword/{email}. */
export const forgetPasswordParams = z.object({ email });

/** POST /resetpasswords/{email}/{token}/{newPassword}. */
export const resetPasswordParams = z.object({
  email,
  token: z.string().trim().min(1, MSG.required).max(64),
  newPassword: resetPassword,
});

/** Step 2 of /forgetpsw: code, new password and its confirmation ('As senhas não correspondem'). */
export const resetPasswordForm = z
  .object({
    token: z.string().trim().min(1, MSG.required),
    newPassword: resetPassword,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "As senhas não correspondem", path: ["confirmPassword"] });
