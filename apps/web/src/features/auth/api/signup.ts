import { useMutation } from "@tanstack/react-query";
import type { SignupInput } from "@atende/shared";
import { api } from "../../../lib/api";

/** Public sign-up: creates the company (trial until tomorrow, decided by the server) and its admin. */
export const signup = (input: SignupInput) => api<unknown>("/companies/cadastro", { method: "POST", body: input, raw: true });

export const useSignup = () => useMutation({ mutationFn: signup });
