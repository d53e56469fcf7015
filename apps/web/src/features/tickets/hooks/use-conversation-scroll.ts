import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

/** Closer than this to the bottom counts as "at the latest message". */
const PINNED_PX = 80;

interface Anchor {
  id: string;
  /** The anchor's top relative to the viewport's top. */
  top: number;
}

/** The sizes a scroll event is read against: the content's height and the view's. */
interface Layout {
  scrollHeight: number;
  clientHeight: number;
}

const layoutOf = (el: HTMLElement): Layout => ({ scrollHeight: el.scrollHeight, clientHeight: el.clientHeight });
const sameLayout = (a: Layout | null, b: Layout) => a !== null && a.scrollHeight === b.scrollHeight && a.clientHeight === b.clientHeight;

interface Options<T> {
  /** The conversation being shown: a new one opens at its latest message. */
  conversationKey: unknown;
  items: readonly T[];
  idOf(item: T): number;
  /** An item the agent sent: the view goes to the bottom to show it. */
  isOwn(item: T): boolean;
  /** Called when the agent scrolls near the top (older pages). */
  onNearTop(): void;
  nearTopPx: number;
}

/**
 * The conversation's scrolling, as in WhatsApp:
 * - it opens at the latest message and stays there while media above it load late (a ResizeObserver
 *   on the content follows every change of height while the agent has not scrolled up);
 * - once the agent has scrolled up, the message at the top of the view stays in place whatever
 *   happens around it: older pages prepended, images loading above or below, new messages arriving;
 * - new messages arriving while scrolled up are counted for the "jump to latest" button.
 * Only the agent leaves the bottom: a scroll event is the agent's only when the layout is the one last seen.
 * The browser also fires scroll events of its own, a frame late, when it clamps the position because the
 * content shrank (an image's placeholder giving way to the still-undecoded image); by then the image may
 * have grown the content again, so such an event, read as "far from the bottom", would unpin the view.
 * Those events put the view back where it belongs instead (see `restore`); an agent's scroll landing in the
 * very frame the content changed is undone once, and the next one counts.
 * Messages are found by their `data-message-id` attribute inside the content element.
 */
export function useConversationScroll<T>({ conversationKey, items, idOf, isOwn, onNearTop, nearTopPx }: Options<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const anchor = useRef<Anchor | null>(null);
  const lastId = useRef<number | null>(null);
  /** The layout the view was last put in place for: a scroll event in another one comes from the layout. */
  const seen = useRef<Layout | null>(null);
  const [unseen, setUnseen] = useState(0);
  const [atBottom, setAtBottom] = useState(true);

  const measureAnchor = useCallback(() => {
    const el = viewport.current;
    if (!el) return;
    const top = el.getBoundingClientRect().top;
    const nodes = el.querySelectorAll<HTMLElement>("[data-message-id]");
    for (const node of nodes) {
      const box = node.getBoundingClientRect();
      if (box.bottom > top) {
        anchor.current = { id: node.dataset.messageId ?? "", top: box.top - top };
        return;
      }
    }
    anchor.current = null;
  }, []);

  /** Put the view back where the agent expects it after the content changed, and remember that layout. */
  const restore = useCallback(() => {
    const el = viewport.current;
    if (!el) return;
    if (pinned.current) {
      el.scrollTop = el.scrollHeight;
    } else {
      const a = anchor.current;
      const node = a ? el.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(a.id)}"]`) : null;
      const delta = a && node ? node.getBoundingClientRect().top - el.getBoundingClientRect().top - a.top : 0;
      if (Math.abs(delta) >= 1) el.scrollTop += delta;
    }
    seen.current = layoutOf(el);
  }, []);

  const jumpToLatest = useCallback(() => {
    pinned.current = true;
    setUnseen(0);
    restore();
  }, [restore]);

  // A new conversation opens at the bottom.
  useLayoutEffect(() => {
    pinned.current = true;
    anchor.current = null;
    lastId.current = null;
    seen.current = null;
    setUnseen(0);
    setAtBottom(true);
  }, [conversationKey]);

  // After every change of the list, before paint.
  useLayoutEffect(() => {
    const last = items[items.length - 1];
    const newTail = last !== undefined && lastId.current !== null && idOf(last) !== lastId.current;
    if (newTail && isOwn(last)) {
      pinned.current = true;
      setUnseen(0);
    } else if (newTail && !pinned.current) {
      const from = items.findIndex((m) => idOf(m) === lastId.current);
      setUnseen((n) => n + (from === -1 ? 1 : items.length - 1 - from));
    }
    lastId.current = last === undefined ? null : idOf(last);
    restore();
  }, [items, idOf, isOwn, restore]);

  // Media loading late, the input growing, the window resizing.
  useEffect(() => {
    const el = viewport.current;
    const inner = content.current;
    if (!el || !inner) return;
    const observer = new ResizeObserver(() => restore());
    observer.observe(inner);
    observer.observe(el);
    return () => observer.disconnect();
  }, [restore]);

  const onScroll = useCallback(() => {
    const el = viewport.current;
    if (!el) return;
    if (sameLayout(seen.current, layoutOf(el))) {
      pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < PINNED_PX;
      seen.current = layoutOf(el);
    } else {
      restore();
    }
    if (pinned.current) setUnseen(0);
    measureAnchor();
    setAtBottom(pinned.current);
    if (el.scrollTop < nearTopPx) onNearTop();
  }, [measureAnchor, restore, nearTopPx, onNearTop]);

  return { viewport, content, onScroll, unseen, showJump: !atBottom, jumpToLatest };
}
