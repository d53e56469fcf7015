import CodeMirror, { EditorView } from "@uiw/react-codemirror";
import { html } from "@codemirror/lang-html";
import { useTheme } from "@mui/material";

const extensions = [html(), EditorView.lineWrapping];

/** The HTML editor of e-mail templates; loaded lazily (its own chunk) when the dialog opens. */
export default function HtmlCodeEditor({ value, onChange, label }: { value: string; onChange(value: string): void; label: string }) {
  const mode = useTheme().palette.mode;
  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={extensions}
      theme={mode === "dark" ? "dark" : "light"}
      height="100%"
      style={{ height: "100%", fontSize: 13 }}
      aria-label={label}
      data-testid="html-editor"
      basicSetup={{ lineNumbers: true, foldGutter: true }}
    />
  );
}
