import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/api";
import { ticketFromConflict } from "./ticket-conflict";

describe("ticketFromConflict", () => {
  it("takes the current ticket from a lost race's 409", () => {
    const ticket = { id: 12, uuid: "a-b", status: "open", userId: 3 };
    const err = new ApiError(409, { error: "ERR_TICKET_ALREADY_CHANGED", message: "changed", ticket });
    expect(ticketFromConflict(err)).toEqual({ id: 12, uuid: "a-b", status: "open", userId: 3 });
  });

  it("ignores other errors and a 409 without a ticket", () => {
    expect(ticketFromConflict(new ApiError(409, { error: "ERR_TICKET_ALREADY_CHANGED", message: "changed" }))).toBeNull();
    expect(ticketFromConflict(new ApiError(409, { error: "ERR_OTHER_OPEN_TICKET", message: "x", ticket: { id: 1 } }))).toBeNull();
    expect(ticketFromConflict(new ApiError(403, { error: "ERR_NO_PERMISSION", message: "x" }))).toBeNull();
    expect(ticketFromConflict(new Error("network"))).toBeNull();
  });
});
