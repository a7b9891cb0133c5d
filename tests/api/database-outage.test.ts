// The database goes away and comes back, through a TCP proxy between the app and Postgres that this test cuts and
// restores: down at start-up, routes answer 503 with retry-after (not a 500, not a hang), sign-in included; once it
// is back the migration is tried again and the same process serves requests, no restart. Needs Postgres.
import { describe, expect, test } from "vitest";
import * as authRoute from "@/app/api/auth/[...all]/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { databaseHandle } from "@/db/client";
import { call, expectError } from "../api-client";
import { databaseBehindProxy } from "../fixtures/cuttable-proxy";

const baseUrl = process.env.GLASSBOX_BASE_DATABASE_URL;

/** A sign-in or sign-up request as the browser sends it. */
function authRequest(action: "sign-in" | "sign-up", body: Record<string, string>): Request {
  return new Request(`http://localhost:3000/api/auth/${action}/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://localhost:3000", host: "localhost:3000" },
    body: JSON.stringify(body),
  });
}

describe.skipIf(!baseUrl)("a database outage", () => {
  const outage = databaseBehindProxy(baseUrl as string, "outage", { cutAtStart: true });

  test("down at start-up: a route answers 503 with retry-after within seconds, and so does sign-in", async () => {
    databaseHandle(); // the handle starts its migration, which fails
    const started = Date.now();
    const response = await call(conversationsRoute.GET, "/api/conversations");
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(response.headers.get("retry-after")).toBeTruthy();
    expect(await expectError(response, 503, "service_unavailable")).toMatch(/database/i);

    const signIn = await authRoute.POST(
      authRequest("sign-in", { email: "someone@example.test", password: "violet kettle marathon" }),
    );
    expect(signIn.status).toBe(503);
    expect(signIn.headers.get("retry-after")).toBeTruthy();
  });

  test("back again: the migration is retried and the same process answers, no restart", async () => {
    await outage.proxy.open();
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
    await outage.proxy.cut();
    const started = Date.now();
    const signUp = await authRoute.POST(
      authRequest("sign-up", { name: "Cut", email: "cut@example.test", password: "violet kettle marathon" }),
    );
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(signUp.status).toBe(503);
    await outage.proxy.open();
    const again = await authRoute.POST(
      authRequest("sign-up", {
        name: "Back",
        email: "back@example.test",
        password: "violet kettle marathon",
      }),
    );
    expect(again.status).toBe(200);
  });
});
