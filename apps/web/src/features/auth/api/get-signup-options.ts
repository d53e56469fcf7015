import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SignupSettings } from "@atende/shared";
import { api } from "../../../lib/api";

/** What the super administrator set for sign-up (public GET /billing/signup-options): trial days, plan selected first. */
export const getSignupOptions = () => api<SignupSettings>("/billing/signup-options");

export const signupOptionsQuery = () => queryOptions({ queryKey: ["billing", "signup-options"], queryFn: getSignupOptions, staleTime: 60_000 });

export const useSignupOptions = () => useQuery(signupOptionsQuery());
