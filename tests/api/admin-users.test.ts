import { describe, expect, test } from "vitest";
import * as settingsRoute from "@/app/api/admin/settings/route";
import * as userRoute from "@/app/api/admin/users/[id]/route";
import * as usersRoute from "@/app/api/admin/users/route";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { isolateDatabase } from "./admin-helpers";

isolateDatabase("admin_users");

interface UserRow {
  id: string;
  name: string;
  email: string;
  role: string;
}

function setRole(by: TestUser, target: string, role: unknown) {
  return call(userRoute.PUT, `/api/admin/users/${target}`, {
    user: by,
    method: "PUT",
    params: { id: target },
    body: { role },
  });
}

async function roles(by: TestUser): Promise<Record<string, string>> {
  const response = await call(usersRoute.GET, "/api/admin/users", { user: by });
  expect(response.status).toBe(200);
  const { users } = (await response.json()) as { users: UserRow[] };
  return Object.fromEntries(users.map((row) => [row.name, row.role]));
}

// The tests run in order and hand the admin role along: `currentAdmin` is whoever holds it now.
describe("users and roles", () => {
  let first: TestUser;
  let second: TestUser;
  let currentAdmin: TestUser;

  test("the first account registered is the admin (this file's database starts empty); later ones are users", async () => {
    first = await signUp("First");
    second = await signUp("Second");
    currentAdmin = first;
    expect(await roles(first)).toEqual({ First: "admin", Second: "user" });
    const response = await call(usersRoute.GET, "/api/admin/users", { user: first });
    const { users } = (await response.json()) as { users: UserRow[] };
    // Names, emails and roles only: no password hashes, sessions or tokens.
    expect(users.map((row) => Object.keys(row).sort())).toEqual([
      ["createdAt", "email", "id", "name", "role"],
      ["createdAt", "email", "id", "name", "role"],
    ]);
  });

  test("the last admin cannot be demoted, not even by themselves (409); nothing changes", async () => {
    const message = await expectError(await setRole(first, first.id, "user"), 409, "conflict");
    expect(message).toBe("At least one admin must remain: promote someone else before demoting this admin.");
    expect(await roles(first)).toEqual({ First: "admin", Second: "user" });
  });

  test("a promoted user gets the admin routes; then the first admin can step down and loses them", async () => {
    await expectError(
      await call(settingsRoute.GET, "/api/admin/settings", { user: second }),
      403,
      "forbidden",
    );
    const promoted = await setRole(first, second.id, "admin");
    expect(promoted.status).toBe(200);
    expect(((await promoted.json()) as { user: UserRow }).user).toMatchObject({
      id: second.id,
      role: "admin",
    });
    expect((await call(settingsRoute.GET, "/api/admin/settings", { user: second })).status).toBe(200);

    expect((await setRole(first, first.id, "user")).status).toBe(200);
    currentAdmin = second;
    await expectError(
      await call(settingsRoute.GET, "/api/admin/settings", { user: first }),
      403,
      "forbidden",
    );
    expect(await roles(second)).toEqual({ First: "user", Second: "admin" });
    expect(await expectError(await setRole(second, second.id, "user"), 409, "conflict")).toMatch(
      /^At least one admin must remain/,
    );
  });

  test("two admins stepping down at the same moment: exactly one succeeds, one admin remains", async () => {
    const left = await signUp("Left");
    const right = await signUp("Right");
    expect((await setRole(currentAdmin, left.id, "admin")).status).toBe(200);
    expect((await setRole(currentAdmin, right.id, "admin")).status).toBe(200);
    expect((await setRole(currentAdmin, currentAdmin.id, "user")).status).toBe(200);
    const results = await Promise.all([setRole(left, left.id, "user"), setRole(right, right.id, "user")]);
    expect(results.map((response) => response.status).sort()).toEqual([200, 409]);
    currentAdmin = results[0].status === 200 ? right : left;
    const admins = Object.entries(await roles(currentAdmin)).filter(([, role]) => role === "admin");
    expect(admins).toEqual([[currentAdmin.name, "admin"]]);
  });

  test("bad input: unknown user 404, malformed id 404, bad role 400, unknown field 400; nothing changes", async () => {
    const target = await signUp("Target");
    await expectError(await setRole(currentAdmin, "no-such-user", "admin"), 404, "not_found");
    await expectError(await setRole(currentAdmin, "../etc/passwd", "admin"), 404, "not_found");
    expect(await expectError(await setRole(currentAdmin, target.id, "owner"), 400, "bad_request")).toBe(
      "role: role must be one of: admin, user",
    );
    const extra = await call(userRoute.PUT, "/x", {
      user: currentAdmin,
      method: "PUT",
      params: { id: target.id },
      body: { role: "admin", banned: true },
    });
    expect(await expectError(extra, 400, "bad_request")).toMatch(/Unrecognized key: "banned"/);
    const malformed = await call(userRoute.PUT, "/x", {
      user: currentAdmin,
      method: "PUT",
      params: { id: target.id },
      body: "{role",
    });
    await expectError(malformed, 400, "invalid_json");
    expect((await roles(currentAdmin)).Target).toBe("user");
  });
});
