// @vitest-environment happy-dom
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionUser } from "@atende/shared";
import { api } from "../api";
import { SessionProvider, useSession, type ClearUserData } from "../session";

vi.mock("../api", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../api")>()),
  api: vi.fn(),
  getToken: () => null,
  refreshSession: async () => false,
  onUnauthorized: () => () => undefined,
  setToken: () => undefined,
}));
vi.mock("../socket", () => ({ disconnectSocket: () => undefined, getSocket: () => undefined }));
const apiMock = vi.mocked(api);

// Only what the session stores locally is read from the user here.
const user = { id: 7, companyId: 3, company: { dueDate: "2099-12-31", settings: [] } } as unknown as SessionUser;

function renderSession(clearUserData: ClearUserData) {
  const queryClient = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <SessionProvider clearUserData={clearUserData}>{children}</SessionProvider>
    </QueryClientProvider>
  );
  return renderHook(() => useSession(), { wrapper });
}

async function loggedIn(clearUserData: ClearUserData) {
  apiMock.mockImplementation(async (path: string) => (path === "/auth/login" ? { token: "access", user } : undefined) as never);
  const view = renderSession(clearUserData);
  await waitFor(() => expect(view.result.current.loading).toBe(false));
  await act(() => view.result.current.login("ana@loja.test", "secret123"));
  expect(localStorage.getItem("userId")).toBe("7");
  return view;
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem("language", "es");
  apiMock.mockReset();
});
afterEach(cleanup);

describe("session end clears what features keep on the device", () => {
  it("logout clears the session's storage and the user's feature data, keeping the language", async () => {
    const clearUserData = vi.fn(async () => undefined);
    const { result } = await loggedIn(clearUserData);

    await act(() => result.current.logout());

    expect(clearUserData).toHaveBeenCalledTimes(1);
    expect(clearUserData).toHaveBeenCalledWith(expect.objectContaining({ id: 7, companyId: 3 }));
    expect(apiMock).toHaveBeenCalledWith("/auth/logout", { method: "DELETE", raw: true });
    expect(localStorage.getItem("userId")).toBeNull();
    expect(localStorage.getItem("companyId")).toBeNull();
    expect(localStorage.getItem("language")).toBe("es");
    expect(result.current.user).toBeNull();
  });

  it("clearLocalData (the account logged in elsewhere) clears the same without calling the API", async () => {
    const clearUserData = vi.fn(async () => undefined);
    const { result } = await loggedIn(clearUserData);
    apiMock.mockClear();

    await act(() => result.current.clearLocalData());

    expect(clearUserData).toHaveBeenCalledWith(expect.objectContaining({ id: 7, companyId: 3 }));
    expect(apiMock).not.toHaveBeenCalled();
    expect(localStorage.getItem("userId")).toBeNull();
  });
});
