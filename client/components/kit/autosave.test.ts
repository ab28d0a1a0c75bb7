import { describe, expect, test } from "bun:test";
import { ApiError } from "../../lib/api";
import { createAutosaver, formatAutosaveTime, isRetryable, type TAutosaveState } from "./autosave";

// Short delays keep the suite quick; the assertions are about order and counts, never about timing.
const DELAY = 30;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function harness(save: (extra?: Record<string, unknown>) => Promise<void>) {
  const states: TAutosaveState[] = [];
  const autosaver = createAutosaver({
    save,
    onState: (s) => states.push(s),
    delayMs: DELAY,
    bannerMs: 60,
    retryMinMs: DELAY,
    retryMaxMs: DELAY * 2,
  });
  // The phases the banner went through (the unsaved marker's own updates repeat a phase).
  const phases = () => states.map((s) => s.phase).filter((phase, i, all) => i === 0 || phase !== all[i - 1]);
  return { autosaver, states, phases };
}

describe("autosave (spec section 4)", () => {
  test("fires once after the last of several quick changes", async () => {
    let calls = 0;
    const { autosaver, phases } = harness(async () => {
      calls += 1;
    });
    autosaver.markChanged();
    await sleep(DELAY / 3);
    autosaver.markChanged();
    await sleep(DELAY / 3);
    autosaver.markChanged();
    expect(calls).toBe(0);
    await sleep(DELAY * 3);
    expect(calls).toBe(1);
    expect(phases()).toEqual(["idle", "saving", "saved"]);
    expect(autosaver.hasUnsaved()).toBe(false);
    autosaver.dispose();
  });

  test("never saves while a save runs; a change made meanwhile is saved after it", async () => {
    let active = 0;
    let overlapped = false;
    let calls = 0;
    let release: () => void = () => undefined;
    const { autosaver } = harness(async () => {
      calls += 1;
      active += 1;
      if (active > 1) overlapped = true;
      if (calls === 1) await new Promise<void>((r) => (release = r));
      active -= 1;
    });
    autosaver.markChanged();
    await sleep(DELAY * 2);
    expect(calls).toBe(1);
    autosaver.markChanged(); // during the first save
    await sleep(DELAY * 3);
    expect(calls).toBe(1);
    expect(autosaver.hasUnsaved()).toBe(true);
    release();
    await sleep(DELAY * 3);
    expect(calls).toBe(2);
    expect(overlapped).toBe(false);
    expect(autosaver.hasUnsaved()).toBe(false);
    autosaver.dispose();
  });

  test("nothing newer than the last save: no save", async () => {
    let calls = 0;
    const { autosaver } = harness(async () => {
      calls += 1;
    });
    await autosaver.flush();
    expect(calls).toBe(0);
    autosaver.dispose();
  });

  test("leaving the page cancels a pending save", async () => {
    let calls = 0;
    const { autosaver } = harness(async () => {
      calls += 1;
    });
    autosaver.markChanged();
    autosaver.dispose();
    await sleep(DELAY * 3);
    expect(calls).toBe(0);
  });

  test("a failure keeps the change unsaved and says when the last save succeeded", async () => {
    let shouldFail = false;
    const { autosaver, states } = harness(async () => {
      if (shouldFail) throw new ApiError(422, "Bad", { errors: { "items.0.quantity": ["Too small"] } });
    });
    autosaver.markChanged();
    await sleep(DELAY * 3);
    shouldFail = true;
    autosaver.markChanged();
    await sleep(DELAY * 3);
    const failed = states.find((s) => s.phase === "failed");
    expect(failed?.lastSavedAt).toBeInstanceOf(Date);
    expect(failed?.failureDetail).toBe("items.0.quantity: Too small");
    expect(autosaver.hasUnsaved()).toBe(true);
    // The result banner goes back to idle on its own.
    await sleep(150);
    expect(states.at(-1)?.phase).toBe("idle");
    autosaver.dispose();
  });

  test("a 409 stops autosaving and shows the conflict", async () => {
    let calls = 0;
    const { autosaver, states } = harness(async () => {
      calls += 1;
      throw new ApiError(409, "Changed elsewhere", null);
    });
    autosaver.markChanged();
    await sleep(DELAY * 3);
    expect(states.at(-1)).toMatchObject({ phase: "conflict", conflictMessage: "Changed elsewhere" });
    autosaver.markChanged();
    await sleep(DELAY * 3);
    expect(calls).toBe(1);
    await expect(autosaver.flush()).rejects.toThrow("Changed elsewhere");
    autosaver.dispose();
  });

  test("offline or a server error: the same change is retried until it is saved, the marker stays", async () => {
    let calls = 0;
    let isOnline = false;
    const { autosaver, states } = harness(async () => {
      calls += 1;
      if (!isOnline) throw new ApiError(0, "No response received", null);
    });
    autosaver.markChanged();
    expect(states.at(-1)?.isUnsaved).toBe(true);
    await sleep(DELAY * 8);
    // Tried again on its own, more than once, without any new change.
    expect(calls).toBeGreaterThan(2);
    expect(states.at(-1)).toMatchObject({ isUnsaved: true, isRetrying: true });
    expect(autosaver.hasUnsaved()).toBe(true);
    isOnline = true;
    autosaver.retryNow();
    await sleep(DELAY);
    expect(states.at(-1)).toMatchObject({ phase: "saved", isUnsaved: false, isRetrying: false });
    expect(autosaver.hasUnsaved()).toBe(false);
    const settled = calls;
    await sleep(DELAY * 4);
    expect(calls).toBe(settled);
    autosaver.dispose();
  });

  test("a refused save (422) is not retried with the same values", async () => {
    let calls = 0;
    const { autosaver, states } = harness(async () => {
      calls += 1;
      throw new ApiError(422, "Bad", { errors: { quantity: ["Too small"] } });
    });
    autosaver.markChanged();
    await sleep(DELAY * 6);
    expect(calls).toBe(1);
    expect(states.at(-1)).toMatchObject({ isUnsaved: true, isRetrying: false, failedAttempts: 1 });
    autosaver.dispose();
  });

  test("isRetryable: network, timeout, throttling and server errors only", () => {
    expect(isRetryable(new ApiError(0, "x", null))).toBe(true);
    expect(isRetryable(new ApiError(503, "x", null))).toBe(true);
    expect(isRetryable(new ApiError(429, "x", null))).toBe(true);
    expect(isRetryable(new TypeError("Failed to fetch"))).toBe(true);
    expect(isRetryable(new ApiError(422, "x", null))).toBe(false);
    expect(isRetryable(new ApiError(404, "x", null))).toBe(false);
  });

  test("an explicit action saves with its extra values even when nothing changed", async () => {
    const seen: unknown[] = [];
    const { autosaver } = harness(async (extra) => {
      seen.push(extra);
    });
    await autosaver.flush({ extra: { generate_documents: ["packing_list"] } });
    expect(seen).toEqual([{ generate_documents: ["packing_list"] }]);
    autosaver.dispose();
  });
});

test("the banner's time reads MM/DD/YY - HH:mm", () => {
  expect(formatAutosaveTime(new Date(2026, 0, 5, 9, 7))).toBe("01/05/26 - 09:07");
  expect(formatAutosaveTime(new Date(2031, 11, 31, 23, 59))).toBe("12/31/31 - 23:59");
});
