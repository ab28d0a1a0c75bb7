import { expect, test, waitForHydration, watchConsole } from "./fixtures";

test.describe.configure({ timeout: 90_000 });

test("the owner fills in the exporter profile from the user menu; a bad EIN is refused with its message", async ({
  page,
  user,
}) => {
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/home");
  await waitForHydration(page);
  await page.getByRole("button", { name: `Account menu for ${user.name} ${user.surname}` }).click();
  await page.getByRole("menuitem", { name: "Exporter Profile" }).click();
  await expect(page).toHaveURL(/\/user\/exporter-profile$/);
  await expect(page.getByRole("heading", { level: 1, name: "Exporter Profile" })).toBeVisible();

  await page.getByLabel("Company name").fill("Harbor Valves LLC");
  await page.getByLabel("Street").fill("1 Harbor Way");
  await page.getByLabel("City").fill("Seattle");
  await page.getByLabel("Country").selectOption({ label: "United States" });
  await page.getByLabel("EIN (12-3456789)").fill("12-345");
  await page.getByLabel("EORI (e.g. DE123456789012345)").fill("de123456789");
  await page.getByLabel("Letterhead line").fill("Valves since 1921");
  await page.getByLabel("Default signatory: name").fill("Grace Signer");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Enter the EIN as 9 digits, e.g. 12-3456789.")).toBeVisible();

  await page.getByLabel("EIN (12-3456789)").fill("123456789");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Exporter profile saved")).toBeVisible();
  await page.screenshot({ path: "test-results/exporter-profile-1440.png", fullPage: true });

  await page.reload();
  await waitForHydration(page);
  await expect(page.getByLabel("Company name")).toHaveValue("Harbor Valves LLC");
  await expect(page.getByLabel("EIN (12-3456789)")).toHaveValue("12-3456789");
  await expect(page.getByLabel("EORI (e.g. DE123456789012345)")).toHaveValue("DE123456789");
  // A real PNG (a 1×1 pixel) uploads and shows as the logo; the header of the documents prints it.
  const pixel = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC",
    "base64",
  );
  await page
    .getByLabel("Logo image")
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: pixel });
  await expect(page.getByRole("img", { name: "Exporter logo" })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/exporter-profile-390.png", fullPage: true });
  expect(problems).toEqual([]);
});
