// The admin for the specs that need one, on either database: the e2e app server makes E2E_ADMIN_EMAIL its admin
// (its ADMIN_EMAIL, set in playwright.config.ts). That account reads and restores global settings and gives any
// other account its role through the admin API (PUT /api/admin/users/:id), as an admin would on the users page.
import { type APIRequestContext, expect, type Page, request } from "@playwright/test";
import { newAccountCookie } from "../cluster-client";
import { ChatPage, uniqueEmail } from "./chat-page";

/** This worker's app server (playwright.config.ts sets E2E_APP_PORT for each worker). */
export function appOrigin(): string {
  return `http://127.0.0.1:${process.env.E2E_APP_PORT ?? 3100}`;
}

/** An API client signed in as the e2e admin on `base`; dispose of it when done. */
export async function adminApi(base = appOrigin()): Promise<APIRequestContext> {
  const adminEmail = process.env.E2E_ADMIN_EMAIL;
  if (!adminEmail) throw new Error("E2E_ADMIN_EMAIL is not set (playwright.config.ts sets it)");
  const cookie = await newAccountCookie(base, "E2E Admin", adminEmail);
  return request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base, cookie } });
}

/** Gives the account with `email` the role `role`, as the e2e admin; `base` is the app's origin. */
export async function setRoleAsAdmin(base: string, email: string, role: "admin" | "user"): Promise<void> {
  const api = await adminApi(base);
  try {
    const listed = await api.get("/api/admin/users");
    expect(listed.status(), await listed.text()).toBe(200);
    const { users } = (await listed.json()) as { users: { id: string; email: string }[] };
    const user = users.find((each) => each.email === email.toLowerCase());
    if (!user) throw new Error(`no account ${email} to give the role ${role}`);
    const changed = await api.put(`/api/admin/users/${user.id}`, { data: { role } });
    expect(changed.status(), await changed.text()).toBe(200);
  } finally {
    await api.dispose();
  }
}

/** Registers a new account named `name` on `page` and gives it `role`; the page is reloaded to show it. */
export async function registerWithRole(
  page: Page,
  name: string,
  role: "admin" | "user",
): Promise<{ chat: ChatPage; email: string }> {
  const chat = new ChatPage(page);
  const email = uniqueEmail(name.toLowerCase());
  await chat.register({ name, email, password: `${name} password 123` });
  await setRoleAsAdmin(new URL(page.url()).origin, email, role);
  await page.reload();
  return { chat, email };
}
