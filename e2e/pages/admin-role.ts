// Roles for the specs that need an admin, on either database: the e2e app server makes E2E_ADMIN_EMAIL its admin
// (its ADMIN_EMAIL, set in playwright.config.ts), and that account gives any other account its role through the
// admin API (PUT /api/admin/users/:id), as an admin would on the users page.
import { expect, request } from "@playwright/test";
import { newAccountCookie } from "../cluster-client";

/** Gives the account with `email` the role `role`, as the e2e admin; `base` is the app's origin. */
export async function setRoleAsAdmin(base: string, email: string, role: "admin" | "user"): Promise<void> {
  const adminEmail = process.env.E2E_ADMIN_EMAIL;
  if (!adminEmail) throw new Error("E2E_ADMIN_EMAIL is not set (playwright.config.ts sets it)");
  const cookie = await newAccountCookie(base, "E2E Admin", adminEmail);
  const api = await request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base, cookie } });
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
