// @vitest-environment happy-dom
import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { useConversationScroll } from "../hooks/use-conversation-scroll";

interface Item {
  id: number;
  mine: boolean;
}

/** A scrolling view with a layout of its own (happy-dom has none): its content height is set by the test. */
function fakeViewport(contentHeight: number, viewHeight: number) {
  const el = document.createElement("div");
  const box = { content: contentHeight, top: 0 };
  const maxTop = () => Math.max(0, box.content - viewHeight);
  Object.defineProperty(el, "scrollHeight", { get: () => box.content });
  Object.defineProperty(el, "clientHeight", { get: () => viewHeight });
  Object.defineProperty(el, "scrollTop", {
    get: () => box.top,
    set: (v: number) => {
      box.top = Math.min(Math.max(0, v), maxTop());
    },
  });
  /** The content changes height; the browser clamps the position as it does when the content shrinks. */
  const resize = (height: number) => {
    box.content = height;
    box.top = Math.min(box.top, maxTop());
  };
  return { el, box, resize, gapBelow: () => box.content - box.top - viewHeight };
}

function mount(view: ReturnType<typeof fakeViewport>, items: Item[]) {
  return renderHook(
    ({ list }) => {
      const scroll = useConversationScroll({ conversationKey: 1, items: list, idOf: (m) => m.id, isOwn: (m) => m.mine, onNearTop: () => undefined, nearTopPx: 50 });
      scroll.viewport.current ??= view.el;
      return scroll;
    },
    { initialProps: { list: items } },
  );
}

const items = (n: number): Item[] => Array.from({ length: n }, (_, i) => ({ id: i + 1, mine: false }));

afterEach(cleanup);

describe("conversation scrolling", () => {
  it("opens at the bottom and stays there when the browser's own scroll event comes after an image shrank then grew", () => {
    const view = fakeViewport(1000, 500);
    const { result } = mount(view, items(10));
    expect(view.gapBelow()).toBe(0);

    // the placeholder gives way to the undecoded image (clamped), which then decodes, before the scroll event
    view.resize(820);
    view.resize(1140);
    act(() => result.current.onScroll());

    expect(view.gapBelow()).toBe(0);
    expect(result.current.showJump).toBe(false);
  });

  it("leaves the bottom when the agent scrolls up, counts new messages, and jumps back", () => {
    const view = fakeViewport(1000, 500);
    const { result, rerender } = mount(view, items(10));

    view.box.top = 100;
    act(() => result.current.onScroll());
    expect(result.current.showJump).toBe(true);

    view.resize(1120);
    rerender({ list: items(12) });
    expect(result.current.unseen).toBe(2);
    expect(view.box.top).toBe(100);

    act(() => result.current.jumpToLatest());
    act(() => result.current.onScroll());
    expect(view.gapBelow()).toBe(0);
    expect(result.current.unseen).toBe(0);
    expect(result.current.showJump).toBe(false);
  });
});
