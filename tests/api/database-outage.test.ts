// The database goes away and comes back, through a TCP proxy between the app and Postgres that this test cuts and
// restores: down at start-up, routes answer 503 with retry-after (not a 500, not a hang), sign-in included; once it
// is back the migration is tried again and the same process serves requests, no restart. Needs Postgres.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as authRoute from "@/app/api/auth/[...all]/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { databaseHandle } from "@/db/client";
import { call, expectError } from "../api-client";
import { createFreshDatabase, dropDatabase } from "../database";
import { CuttableProxy, useDatabaseUrl } from "../fixtures/cuttable-proxy";

const baseUrl = process.env.GLASSBOX_BASE_DATABASE_URL;

describe.skipIf(!baseUrl)("a database outage", () => {
  let proxy: CuttableProxy;
  let drop = async () => {};
  const previousUrl = process.env.DATABASE_URL;

  beforeAll(async () => {
    const { url, name } = await createFreshDatabase(baseUrl as string, "outage");
    drop = () => dropDatabase(baseUrl as string, name);
    const target = new URL(url);
    proxy = new CuttableProxy(target.hostname, Number(target.port || 5432));
    await proxy.open();
    const port = proxy.port; // re-opened on the same port later
    await proxy.cut(); // down at start-up
    target.host = `127.0.0.1:${port}`;
    await useDatabaseUrl(target.toString());
  });

  afterAll(async () => {
    await useDatabaseUrl(previousUrl as string);
    await proxy.cut();
    await drop();
  });

  test("down at start-up: a route answers 503 with retry-after within seconds, and so does sign-in", async () => {
    databaseHandle(); // the handle starts its migration, which fails
    const started = Date.now();
    const response = await call(conversationsRoute.GET, "/api/conversations");
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(response.headers.get("retry-after")).toBeTruthy();
    expect(await expectError(response, 503, "service_unavailable")).toMatch(/database/i);

    const signIn = await authRoute.POST(
      new Request("http://localhost:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: "http://localhost:3000",
          host: "localhost:3000",
        },
        body: JSON.stringify({ email: "someone@example.test", password: "violet kettle marathon" }),
      }),
    );
    expect(signIn.status).toBe(503);
    expect(signIn.headers.get("retry-after")).toBeTruthy();
  });

  test("back again: the migration is retried and the same process answers, no restart", async () => {
    await proxy.open();
    // The retry waits a short pause after the failed attempt; poll until the route answers.
    const deadline = Date.now() + 20_000;
    let status = 0;
    while (Date.now() < deadline) {
      const response = await call(conversationsRoute.GET, "/api/conversations");
      status = response.status;
      await response.text();
      if (status === 401) break; // past the database: asks for a session
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(status).toBe(401);
  });

  test("cut while running: 503 again, then recovery when it returns", async () => {
    await proxy.cut();
    const started = Date.now();
    const signUp = await authRoute.POST(
      new Request("http://localhost:3000/api/auth/sign-up/email", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: "http://localhost:3000",
          host: "localhost:3000",
        },
        body: JSON.stringify({ name: "Cut", email: "cut@example.test", password: "violet kettle marathon" }),
      }),
    );
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(signUp.status).toBe(503);
    await proxy.open();
    const again = await authRoute.POST(
      new Request("http://localhost:3000/api/auth/sign-up/email", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: "http://localhost:3000",
          host: "localhost:3000",
        },
        body: JSON.stringify({
          name: "Back",
          email: "back@example.test",
          password: "violet kettle marathon",
        }),
      }),
    );
    expect(again.status).toBe(200);
  });
});
