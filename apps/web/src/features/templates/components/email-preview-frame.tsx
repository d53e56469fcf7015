/**
 * The e-mail's HTML rendered in a fully sandboxed iframe: `sandbox=""` allows no scripts, no forms and
 * no same-origin access, so a template cannot reach the app, its cookies or its storage.
 */
export function EmailPreviewFrame({ html, title, width = "100%" }: { html: string; title: string; width?: number | string }) {
  return (
    <iframe
      sandbox=""
      srcDoc={html}
      title={title}
      data-testid="email-preview"
      style={{ width, maxWidth: "100%", height: "100%", minHeight: 240, border: 0, background: "#fff", display: "block", margin: "0 auto" }}
    />
  );
}
