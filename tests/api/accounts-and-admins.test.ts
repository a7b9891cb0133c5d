// Accounts and admins: the first admin decided atomically (ten sign-ups at once on an empty database make one),
// the last-admin rule on better-auth's own admin endpoints, and the name and password rules on sign-up.
import { describe, expect, test } from "vitest";
import * as usersRoute from "@/app/api/admin/users/route";
import * as authRoute from "@/app/api/auth/[...all]/route";
import { authPost, call, signUpThroughRoutes, type TestUser } from "../api-client";
import { isolateDatabase } from "./admin-helpers";

isolateDatabase("accounts_admins");

const ORIGIN = "http://localhost:3000";

async function rolesByName(admin: TestUser): Promise<Map<string, string>> {
  const response = await call(usersRoute.GET, "/api/admin/users", { user: admin });
  expect(response.status).toBe(200);
  const { users } = (await response.json()) as { users: Array<{ name: string; role: string }> };
  return new Map(users.map((row) => [row.name, row.role]));
}

describe("the first admin", () => {
  let racers: TestUser[];

  test("ten sign-ups at once on an empty database: exactly one becomes admin", async () => {
    racers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => signUpThroughRoutes(`Racer${index}`)),
    );
    const { getDb } = await import("@/db/client");
    const { user } = await import("@/db/schema");
    const { eq } = await import("drizzle-orm");
    const admins = await (await getDb()).select().from(user).where(eq(user.role, "admin"));
    expect(admins).toHaveLength(1);
    // And it is the oldest account of the ten.
    const all = await (await getDb()).select().from(user);
    const oldest = all.sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
    )[0];
    expect(admins[0].id).toBe(oldest.id);
  });

  test("a later sign-up is a user", async () => {
    const late = await signUpThroughRoutes("Late");
    const admin = await adminOf(racers);
    expect((await rolesByName(admin)).get("Late")).toBe("user");
    expect(late.id).toBeTruthy();
  });

  test("better-auth's set-role cannot demote the last admin (409), and may demote one of two", async () => {
    const admin = await adminOf(racers);
    const selfDemotion = await authPost("/admin/set-role", { userId: admin.id, role: "user" }, admin);
    expect(selfDemotion.status).toBe(409);
    expect(((await selfDemotion.json()) as { message: string }).message).toMatch(/at least one admin/i);
    expect((await rolesByName(admin)).get(admin.name)).toBe("admin");

    const other = racers.find((racer) => racer.id !== admin.id) as TestUser;
    const promote = await authPost("/admin/set-role", { userId: other.id, role: "admin" }, admin);
    expect(promote.status).toBe(200);
    // Two admins demote each other at the same moment: exactly one demotion goes through.
    const [a, b] = await Promise.all([
      authPost("/admin/set-role", { userId: other.id, role: "user" }, admin),
      authPost("/admin/set-role", { userId: admin.id, role: "user" }, other),
    ]);
    // The loser is refused either by the last-admin rule (409) or, once demoted, as no longer an admin (403).
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const roles = await rolesByName(a.status === 200 ? admin : other);
    expect([...roles.values()].filter((role) => role === "admin")).toHaveLength(1);
  });

  test("a user cannot use set-role at all, and an admin cannot be removed or banned before demotion", async () => {
    const admin = await adminOf(racers);
    const user = racers.find((racer) => racer.id !== admin.id) as TestUser;
    const byUser = await authPost("/admin/set-role", { userId: user.id, role: "admin" }, user);
    expect(byUser.status).toBeGreaterThanOrEqual(401);
    expect(byUser.status).toBeLessThan(500);
    expect((await rolesByName(admin)).get(user.name)).toBe("user");

    for (const path of ["/admin/remove-user", "/admin/ban-user"]) {
      const response = await authPost(path, { userId: admin.id }, admin);
      expect(response.status, path).toBe(409);
    }
    expect((await rolesByName(admin)).get(admin.name)).toBe("admin");
    const roleByEdit = await authPost(
      "/admin/update-user",
      { userId: admin.id, data: { role: "user" } },
      admin,
    );
    expect(roleByEdit.status).toBe(400);
    expect((await rolesByName(admin)).get(admin.name)).toBe("admin");
  });
});

describe("sign-up rules", () => {
  const cases: Array<{ name: string; body: Record<string, unknown>; message: RegExp }> = [
    { name: "an 8-digit password", body: { password: "12345678" }, message: /too short.*10/ },
    {
      name: "a common 10-character password",
      body: { password: "1234567890" },
      message: /too easy to guess/,
    },
    { name: "qwertyuiop", body: { password: "qwertyuiop" }, message: /too easy to guess/ },
    { name: "password123", body: { password: "password123" }, message: /too easy to guess/ },
    { name: "an empty name", body: { name: "" }, message: /Enter a name/ },
    { name: "a blank name", body: { name: "   " }, message: /Enter a name/ },
    { name: "a name of zero-width spaces", body: { name: "\u200b\u200b" }, message: /visible character/ },
    {
      name: "a name of a BOM and joiners",
      body: { name: "\ufeff\u200d\u2060" },
      message: /visible character/,
    },
    { name: "a name with a lone surrogate", body: { name: "Ada\ud800" }, message: /lone surrogate/ },
    { name: "a name with NUL", body: { name: "Ada\u0000" }, message: /NUL/ },
    { name: "a 101-character name", body: { name: "n".repeat(101) }, message: /at most 100/ },
    { name: "a 100 000-character name", body: { name: "n".repeat(100_000) }, message: /at most 100|larger/ },
    { name: "a password of 129 characters", body: { password: "x".repeat(129) }, message: /too long/ },
  ];
  test.each(cases)(
    "$name is refused with a message that says why, and no account",
    async ({ body, message }) => {
      const email = `rule-${Date.now()}-${Math.random()}@example.test`;
      const response = await authPost("/sign-up/email", {
        name: "Rules",
        email,
        password: "a long enough password",
        ...body,
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      const text = await response.text();
      expect(text).toMatch(message);
      const { getDb } = await import("@/db/client");
      const { user } = await import("@/db/schema");
      const { eq } = await import("drizzle-orm");
      expect(await (await getDb()).select().from(user).where(eq(user.email, email))).toHaveLength(0);
    },
  );

  test("a strong passphrase and a 100-character name are accepted", async () => {
    const response = await authPost("/sign-up/email", {
      name: "n".repeat(100),
      email: `ok-${Date.now()}@example.test`,
      password: "violet kettle marathon",
    });
    expect(response.status).toBe(200);
  });
});

describe("better-auth's routes refuse cross-site requests", () => {
  const body = { name: "Mallory", email: "csrf@example.test", password: "a long enough password" };
  const cases: Array<{ name: string; headers: Record<string, string> }> = [
    { name: "another port of the same host", headers: { origin: "http://localhost:4444" } },
    { name: "another site", headers: { origin: "https://evil.example" } },
    { name: "Origin: null", headers: { origin: "null" } },
    {
      name: "no Origin and Sec-Fetch-Site: cross-site",
      headers: { origin: "", "sec-fetch-site": "cross-site" },
    },
    {
      name: "no Origin and Sec-Fetch-Site: same-site",
      headers: { origin: "", "sec-fetch-site": "same-site" },
    },
    { name: "no Origin, no Sec-Fetch-Site", headers: { origin: "" } },
  ];
  test.each(cases)("sign-up from $name: 403", async ({ headers }) => {
    const request = new Request(`${ORIGIN}/api/auth/sign-up/email`, {
      method: "POST",
      headers: Object.fromEntries(
        Object.entries({ "content-type": "application/json", host: "localhost:3000", ...headers }).filter(
          ([, value]) => value !== "",
        ),
      ),
      body: JSON.stringify(body),
    });
    const response = await authRoute.POST(request);
    expect(response.status).toBe(403);
    const parsed = (await response.json()) as { error: { code: string; message: string } };
    expect(parsed.error.code).toBe("forbidden");
    expect(parsed.error.message).toMatch(/Cross-origin/);
  });

  test("a text/plain sign-in (what an HTML form can send): 415", async () => {
    const response = await authRoute.POST(
      new Request(`${ORIGIN}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "text/plain", origin: ORIGIN, host: "localhost:3000" },
        body: JSON.stringify({ email: "a@b.c", password: "whatever whatever" }),
      }),
    );
    expect(response.status).toBe(415);
  });

  test("no Origin but Sec-Fetch-Site: same-origin is accepted", async () => {
    const response = await authRoute.POST(
      new Request(`${ORIGIN}/api/auth/sign-up/email`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          host: "localhost:3000",
          "sec-fetch-site": "same-origin",
        },
        body: JSON.stringify({ ...body, email: `same-${Date.now()}@example.test` }),
      }),
    );
    expect(response.status).toBe(200);
  });

  test("cookies get Secure when the request came over HTTPS, not otherwise", async () => {
    const overHttps = (path: string, email: string) =>
      authRoute.POST(
        new Request(`https://glassbox.example/api/auth${path}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            host: "glassbox.example",
            origin: "https://glassbox.example",
            "x-forwarded-proto": "https",
          },
          body: JSON.stringify({ ...body, email }),
        }),
      );
    const email = `https-${Date.now()}@example.test`;
    expect((await overHttps("/sign-up/email", email)).status).toBe(200);
    // Sign-up starts no session (lib/auth.ts): the cookies come with the sign-in.
    const https = await overHttps("/sign-in/email", email);
    expect(https.status).toBe(200);
    const secure = https.headers.getSetCookie();
    expect(secure.length).toBeGreaterThan(0);
    for (const cookie of secure) expect(cookie).toMatch(/;\s*Secure/i);
    const plainEmail = `http-${Date.now()}@example.test`;
    expect((await authPost("/sign-up/email", { ...body, email: plainEmail })).status).toBe(200);
    const plain = await authPost("/sign-in/email", { email: plainEmail, password: body.password });
    expect(plain.status).toBe(200);
    expect(plain.headers.getSetCookie().length).toBeGreaterThan(0);
    for (const cookie of plain.headers.getSetCookie()) expect(cookie).not.toMatch(/;\s*Secure/i);
  });
});

async function adminOf(users: TestUser[]): Promise<TestUser> {
  const { getDb } = await import("@/db/client");
  const { user } = await import("@/db/schema");
  const { eq } = await import("drizzle-orm");
  const [row] = await (await getDb()).select().from(user).where(eq(user.role, "admin"));
  const found = users.find((candidate) => candidate.id === row?.id);
  if (!found) throw new Error("no admin among the given users");
  return found;
}
