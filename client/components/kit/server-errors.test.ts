import { describe, expect, test } from "bun:test";
import { ApiError } from "../../lib/api";
import { saveFailure } from "./server-errors";

describe("a failed save shows the spec's texts (section 8, 'Save failure')", () => {
  test("a 422 with field errors: toast status.errorMessage; field errors joined with the status as cause", () => {
    const body = {
      message: "company: This field is required.",
      status: { error: true, errorMessage: "company: This field is required." },
      errors: { company: ["This field is required."], email_1: ["E-mail is invalid"] },
    };
    expect(saveFailure(new ApiError(422, body.message, body))).toEqual({
      toast: "company: This field is required.",
      title: "This field is required.; E-mail is invalid",
      cause: "Status company: This field is required.",
    });
  });

  test("no server message: toast 'Save failed', 'Update failed' with the status code", () => {
    expect(saveFailure(new ApiError(500, "Service returned 500", null))).toEqual({
      toast: "Save failed",
      title: "Update failed",
      cause: "Status 500",
    });
    const notFound = saveFailure(new ApiError(404, "Not found", { message: "Not found" }));
    expect(notFound).toEqual({ toast: "Save failed", title: "Update failed", cause: "Status Not found" });
  });

  test("no answer at all: 'No response received'", () => {
    expect(saveFailure(new ApiError(0, "No response received", null))).toEqual({
      toast: "Save failed",
      title: "Update failed",
      cause: "No response received",
    });
  });
});
