/**
 * The thin bar shown while a page's code loads, drawn like MUI's indeterminate LinearProgress with plain
 * CSS (`app/base.css`), so neither MUI nor its theme is needed before the page itself.
 */
export function LoadingBar() {
  return (
    <div className="loading-bar" role="progressbar" aria-label="loading">
      <div />
    </div>
  );
}
