import { expect, test, waitForHydration } from "./fixtures";

// A contact id that is unknown, another workspace's, 0 or not a number shows the 404 screen, served
// with a 404 status and still there once the page has hydrated (never the error screen).
test("screening history of an unknown or malformed contact id is the 404 screen", async ({
  page,
  user: _,
}) => {
  for (const id of ["999999", "0", "abc", "1e3"]) {
    const response = await page.goto(`/restricted-party-screening/history/${id}`);
    expect(response?.status()).toBe(404);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await expect(page.getByText("Something went wrong")).toHaveCount(0);
  }
});
