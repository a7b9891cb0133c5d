// Pages during a database outage, on a real `next start`: a second server reaches the run's Postgres through a TCP
// proxy this spec cuts. While cut, GET / answers 503 with retry-after and the friendly page (what is wrong, "Try
// again"), in the browser too, with no serious axe finding; once the database is back, the same server serves the
// pages again and "Try again" leads on. Needs the e2e Postgres (E2E_DATABASE_URL).
import net from "node:net";
import { expect, test } from "@playwright/test";
import { CuttableProxy } from "../tests/fixtures/cuttable-socket";
import { audit } from "./pages/axe-audit";
import { type ExtraServer, startExtraServer } from "./pages/extra-server";

const databaseUrl = process.env.E2E_DATABASE_URL;
test.skip(!databaseUrl, "a second server needs the shared Postgres (E2E_DATABASE_URL)");

let server: ExtraServer | null = null;
let cuttable: CuttableProxy | null = null;

/** A port no one listens on now: the second server's (fixed offsets collide when runs share the machine). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const target = new URL(databaseUrl as string);
  cuttable = new CuttableProxy(target.hostname, Number(target.port || 5432));
  await cuttable.open();
  target.host = `127.0.0.1:${cuttable.port}`;
  server = await startExtraServer(await freePort(), { DATABASE_URL: target.toString() });
});

test.afterAll(async () => {
  const running = server?.process;
  if (running && running.exitCode === null) {
    await new Promise((resolve) => {
      running.once("exit", resolve);
      running.kill("SIGKILL");
    });
  }
  await cuttable?.cut();
});

/** GET / without following the redirect a signed-out visitor gets. */
function home(): Promise<Response> {
  return fetch(`${server?.origin}/`, { redirect: "manual" });
}

test("database cut: GET / answers 503 with the outage page; back: the same server serves pages again", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const before = await home();
  expect(before.status).toBe(307);
  expect(before.headers.get("location")).toContain("/sign-in");

  await cuttable?.cut();
  const during = await home();
  expect(during.status).toBe(503);
  expect(Number(during.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(during.headers.get("content-type")).toMatch(/^text\/html/);
  expect(await during.text()).toContain("The database is not reachable right now");
  // The API is not given the page: the readiness probe still answers its own JSON.
  const ready = await fetch(`${server?.origin}/api/ready`);
  expect(ready.status).toBe(503);
  expect(((await ready.json()) as { status: string }).status).toBe("unavailable");

  const shown = await page.goto(`${server?.origin}/chat`);
  expect(shown?.status()).toBe(503);
  await expect(page.getByTestId("database-outage")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Glassbox is briefly unavailable" })).toBeVisible();
  const retry = page.getByTestId("database-outage-retry");
  await expect(retry).toHaveText("Try again");
  expect(await audit(page, "database outage page")).toEqual([]);

  await cuttable?.open();
  await expect.poll(async () => (await home()).status, { timeout: 30_000 }).toBe(307);
  await retry.click();
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByTestId("auth-submit")).toBeVisible();
});
