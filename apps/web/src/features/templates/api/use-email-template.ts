import { useQuery } from "@tanstack/react-query";
import { emailTemplateKeys, fetchEmailTemplate } from "./message-templates";

/**
 * One e-mail template with its HTML (`GET /email/templates/{id}/`), for the editor and the preview.
 * Read once per opening: a background refetch must not overwrite what the user is editing.
 */
export function useEmailTemplate(id: number | null) {
  return useQuery({
    queryKey: emailTemplateKeys.one(id ?? 0),
    queryFn: ({ signal }) => fetchEmailTemplate(id!, signal),
    enabled: id !== null,
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
