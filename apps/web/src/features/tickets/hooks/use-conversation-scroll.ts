import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

/** Closer than this to the bottom counts as "at the latest message". */
const PINNED_PX = 80;

interface Anchor {
  id: string;
  /** The anchor's top relative to the viewport's top. */
  top: number;
}

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
 * Messages are found by their `data-message-id` attribute inside the content element.
 */
export function useConversationScroll<T>({ conversationKey, items, idOf, isOwn, onNearTop, nearTopPx }: Options<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const anchor = useRef<Anchor | null>(null);
  const lastId = useRef<number | null>(null);
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

  /** Put the view back where the agent expects it after the content changed. */
  const restore = useCallback(() => {
    const el = viewport.current;
    if (!el) return;
    if (pinned.current) {
      el.scrollTop = el.scrollHeight;
      return;
    }
    const a = anchor.current;
    const node = a ? el.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(a.id)}"]`) : null;
    if (!a || !node) return;
    const delta = node.getBoundingClientRect().top - el.getBoundingClientRect().top - a.top;
    if (Math.abs(delta) >= 1) el.scrollTop += delta;
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
    pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < PINNED_PX;
    if (pinned.current) setUnseen(0);
    measureAnchor();
    setAtBottom(pinned.current);
    if (el.scrollTop < nearTopPx) onNearTop();
  }, [measureAnchor, nearTopPx, onNearTop]);

  return { viewport, content, onScroll, unseen, showJump: !atBottom, jumpToLatest };
}
