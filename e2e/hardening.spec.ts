// The app against a real browser and a real server: security headers on pages and API answers (and the pages
// still run under the CSP), cross-origin requests refused, among them forms and no-cors fetches from a page on
// another port of the same host, where the session cookie does go along; forwarding headers from an untrusted
// peer ignored; a malformed address a 400 in the app's format.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./pages/chat-page";

const APP = `http://127.0.0.1:${process.env.E2E_APP_PORT ?? 3100}`;

// This file's browser sends what browsers send, nothing added (the config adds an Origin for API calls).
test.use({ extraHTTPHeaders: {} });

test("pages and API answers carry the security headers, and the pages still work under the CSP", async ({
  page,
}) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const signUpPage = await page.goto("/sign-up");
  const headers = signUpPage?.headers() ?? {};
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  // Scripts run by a fresh nonce per page load, never by 'unsafe-inline'.
  const scriptSources = (policy: string | undefined) =>
    policy?.split("; ").find((directive) => directive.startsWith("script-src ")) ?? "";
  const scripts = scriptSources(headers["content-security-policy"]);
  expect(scripts).toMatch(/^script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}' 'strict-dynamic'$/);
  const again = scriptSources((await page.request.get("/sign-up")).headers()["content-security-policy"]);
  expect(again).not.toBe(scripts);
  expect(await page.locator("script[nonce]").count()).toBeGreaterThan(0);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("same-origin");

  const { chat } = await signUp(page, "Csp", "csp", { through: "form" });
  await chat.newConversation();
  await expect(page.getByTestId("composer-input")).toBeVisible();
  const api = await page.request.get("/api/conversations");
  expect(api.status()).toBe(200);
  expect(api.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");
  expect(violations).toEqual([]);
});

test("a conversation page and a streamed reply raise no CSP violation: zod is jitless, the CSP has no 'unsafe-eval'", async ({
  page,
}) => {
  // Every violation the browser reports, caught ones included (zod's JIT probe catches its refused `new Function`,
  // and the browser still reports it).
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const { chat } = await signUp(page, "Jitless", "jitless", { through: "form" });
  const conversationId = await chat.newConversation();
  await chat.sendAndWait("Does zod probe for eval?");
  const response = await page.goto(`/chat/${conversationId}`);
  expect(response?.headers()["content-security-policy"]).not.toContain("unsafe-eval");
  await expect(page.getByTestId("composer-input")).toBeVisible();
  await chat.sendAndWait("And after a reload?");
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual(
    [],
  );
});

test("sign-up shows why a weak password or an empty name is refused", async ({ page }) => {
  await page.goto("/sign-up");
  await page.getByTestId("name-input").fill("Weak");
  await page.getByTestId("email-input").fill(uniqueEmail("weak"));
  await page.getByTestId("password-input").fill("1234567890");
  await page.getByTestId("auth-submit").click();
  await expect(page.getByTestId("auth-error")).toContainText("too easy to guess");
  await page.getByTestId("name-input").fill("   ");
  await page.getByTestId("password-input").fill("violet kettle marathon");
  await page.getByTestId("auth-submit").click();
  await expect(page.getByTestId("auth-error")).toContainText("Enter a name");
  await expect(page).toHaveURL(/\/sign-up$/);
});

test.describe("a page on another port of the same host", () => {
  let attacker: Server;
  let attackerUrl: string;

  test.beforeAll(async () => {
    // The attacker's page: a text/plain form to POST /api/conversations, and no-cors fetches to the same.
    attacker = createServer((_request, response) => {
      response.setHeader("content-type", "text/html");
      response.end(`<!doctype html>
        <form id="form" method="POST" action="${APP}/api/conversations" enctype="text/plain">
          <input name='{"title":"csrf form","x":"' value='"}'>
        </form>
        <iframe id="frame" src="${APP}/chat" width="400" height="300"></iframe>
        <script>
          window.fetchResults = [];
          async function attack() {
            const post = (init) => fetch("${APP}/api/conversations", { method: "POST", credentials: "include", ...init })
              .then((r) => r.type + ":" + r.status).catch((e) => "error:" + e.message);
            window.fetchResults.push(await post({ mode: "no-cors", body: JSON.stringify({ title: "csrf no-cors" }) }));
            window.fetchResults.push(await post({ mode: "no-cors", headers: { "content-type": "text/plain" }, body: '{"title":"csrf text"}' }));
            window.fetchResults.push(await post({ headers: { "content-type": "application/json" }, body: '{"title":"csrf cors"}' }));
            window.done = true;
          }
        </script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
  });

  test.afterAll(async () => {
    await new Promise((resolve) => attacker.close(resolve));
  });

  test("its forms and fetches change nothing, and it cannot frame the app", async ({ page }) => {
    // Through the form: this describe clears the default origin header that the API sign-up relies on.
    await signUp(page, "Victim", "victim", { through: "form" });
    const titles = async () => {
      const response = await page.request.get(`${APP}/api/conversations`);
      const body = (await response.json()) as { conversations: Array<{ title: string | null }> };
      return body.conversations.map((conversation) => conversation.title ?? "");
    };
    const before = await titles();

    const refusals: number[] = [];
    page.on("response", (response) => {
      if (response.url().startsWith(`${APP}/api/conversations`) && response.request().method() === "POST") {
        refusals.push(response.status());
      }
    });
    await page.goto(attackerUrl);
    await page.evaluate(() => (window as unknown as { attack: () => Promise<void> }).attack());
    await page.waitForFunction(() => (window as unknown as { done?: boolean }).done === true);
    // The framed app: the browser refuses to render it (frame-ancestors 'none').
    const frame = page.frame({ url: /\/chat/ });
    const framedText = frame
      ? await frame.evaluate(() => document.body?.textContent ?? "").catch(() => "")
      : "";
    expect(framedText).not.toContain("Glassbox");

    const formResponse = page.waitForResponse(
      (response) => response.url() === `${APP}/api/conversations` && response.request().method() === "POST",
    );
    await page.locator("#form").evaluate((form: HTMLFormElement) => form.submit());
    const submitted = await formResponse;
    expect(submitted.status()).toBe(403);
    expect(await submitted.json()).toMatchObject({ error: { code: "forbidden" } });

    // Every cross-origin POST that reached the server was refused.
    expect(refusals.length).toBeGreaterThanOrEqual(3);
    for (const status of refusals) expect(status).toBe(403);
    await page.goto(`${APP}/chat`);
    expect(await titles()).toEqual(before);
  });
});

test("forwarding headers from a peer that is not a configured proxy are ignored", async ({ request }) => {
  const email = uniqueEmail("xff");
  const forwarded = { origin: APP, "x-forwarded-for": "203.0.113.7", "x-forwarded-proto": "https" };
  const signedUp = await request.post(`${APP}/api/auth/sign-up/email`, {
    headers: forwarded,
    data: { name: "Forwarded", email, password: "correct horse battery" },
  });
  expect(signedUp.status()).toBe(200);
  // Sign-up starts no session (lib/auth.ts); the sign-in does, with the same headers.
  const signIn = await request.post(`${APP}/api/auth/sign-in/email`, {
    headers: forwarded,
    data: { email, password: "correct horse battery" },
  });
  expect(signIn.status()).toBe(200);
  // Over plain HTTP from an untrusted peer, the claimed https does not make the cookie Secure.
  for (const header of signIn.headersArray().filter((h) => h.name.toLowerCase() === "set-cookie")) {
    expect(header.value).not.toMatch(/;\s*Secure/i);
  }
  const session = await request.get(`${APP}/api/auth/get-session`);
  const body = (await session.json()) as { session: { ipAddress: string | null } };
  expect(body.session.ipAddress).not.toBe("203.0.113.7");
});

test("a malformed or NUL-bearing address is a 400 in the app's error format", async ({ request }) => {
  for (const path of [
    "/api/conversations/%E0%A4%A",
    "/api/conversations/%zz",
    "/api/conversations/abc%00def",
    "/api/conversations?q=a%00b",
    "/api/admin/users/%00",
  ]) {
    // With a body too: Next reads such a request differently before the proxy sees it.
    for (const response of [
      await request.get(`${APP}${path}`),
      await request.post(`${APP}${path}`, { data: { title: "x" }, headers: { origin: APP } }),
    ]) {
      expect(response.status(), path).toBeGreaterThanOrEqual(400);
      expect(response.status(), path).toBeLessThan(500);
      const body = await response.json().catch(() => null);
      expect(body?.error?.code, path).toBeTruthy();
      expect(body?.error?.message, path).toBeTruthy();
    }
  }
});
