import CodeMirror, { EditorView } from "@uiw/react-codemirror";
import { html } from "@codemirror/lang-html";
import { useTheme } from "@mui/material";

/**
 * No automatic closing tags: lang-html's autoCloseTags inserts `</h1>` when `<h1>` is typed and
 * completes `</p>` when `</` is typed, so a template typed (or dictated, or entered by a tool) key by
 * key ends with every closing tag twice and stray text (`</a></p>p></a></p></h1>`). What is typed is
 * what is stored; tag names are still offered by the completion list.
 */
const extensions = [html({ autoCloseTags: false }), EditorView.lineWrapping];

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
