// The last-admin rule on every path that can take admin power away (lib/auth.ts, db/admin-queries.ts): a role change
// (better-auth's set-role, the admin page's PUT /api/admin/users/:id), a ban (ban-user; update-user may not touch
// role or ban fields at all), a deletion (remove-user). Each is refused when it would leave no usable admin (one
// with the admin role and no ban in force), and two admins acting against each other at the same moment leave at
// least one. Anonymous callers get 401 before anything is looked up, whoever the target is.
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import * as userRoute from "@/app/api/admin/users/[id]/route";
import { getDb } from "@/db/client";
import { session, user } from "@/db/schema";
import { authPost, call, signUp, type TestUser } from "../api-client";
import { isolateDatabase } from "./admin-helpers";

isolateDatabase("last_admin");

function putRole(by: TestUser, target: string, role: "admin" | "user") {
  return call(userRoute.PUT, `/api/admin/users/${target}`, {
    user: by,
    method: "PUT",
    params: { id: target },
    body: { role },
  });
}

/** The ids of the admins who can act: the admin role, and no ban in force. */
async function usableAdmins(): Promise<string[]> {
  const rows = await (await getDb())
    .select({ id: user.id })
    .from(user)
    .where(
      and(
        eq(user.role, "admin"),
        or(isNull(user.banned), eq(user.banned, false), lt(user.banExpires, new Date())),
      ),
    );
  return rows.map((row) => row.id).sort();
}

async function accountOf(id: string) {
  const [row] = await (await getDb()).select().from(user).where(eq(user.id, id));
  return row;
}

/** Make `target` an admin (and unbanned) the way an admin would, checking it worked. */
async function makeAdmin(by: TestUser, target: TestUser) {
  const response = await authPost("/admin/set-role", { userId: target.id, role: "admin" }, by);
  expect(response.status, await response.clone().text()).toBe(200);
}

let root: TestUser;

beforeAll(async () => {
  // This file's database starts empty: the first account is the admin.
  root = await signUp("Root");
  expect(await usableAdmins()).toEqual([root.id]);
});

describe("one admin: every path that would remove their power is refused", () => {
  const cases: Array<{ path: string; body: (id: string) => unknown; status: number; message: RegExp }> = [
    {
      path: "/admin/set-role",
      body: (id) => ({ userId: id, role: "user" }),
      status: 409,
      message: /at least one admin/i,
    },
    { path: "/admin/ban-user", body: (id) => ({ userId: id }), status: 409, message: /is an admin/ },
    { path: "/admin/remove-user", body: (id) => ({ userId: id }), status: 409, message: /is an admin/ },
    {
      path: "/admin/update-user",
      body: (id) => ({ userId: id, data: { role: "user" } }),
      status: 400,
      message: /set-role/,
    },
    {
      path: "/admin/update-user",
      body: (id) => ({ userId: id, data: { banned: true } }),
      status: 400,
      message: /ban-user/,
    },
    {
      path: "/admin/update-user",
      body: (id) => ({ userId: id, data: { banExpires: new Date(Date.now() + 3_600_000).toISOString() } }),
      status: 400,
      message: /ban-user/,
    },
  ];
  test.each(cases)(
    "$path with $body refused ($status), the admin unchanged",
    async ({ path, body, status, message }) => {
      const response = await authPost(path, body(root.id), root);
      expect(response.status).toBe(status);
      expect(((await response.json()) as { message: string }).message).toMatch(message);
      expect(await usableAdmins()).toEqual([root.id]);
    },
  );

  test("the admin page's own route refuses demoting the last admin (409)", async () => {
    expect((await putRole(root, root.id, "user")).status).toBe(409);
    expect(await usableAdmins()).toEqual([root.id]);
  });

  test("a banned admin does not count: with one usable admin left, that admin cannot step down", async () => {
    const banned = await signUp("Banned");
    expect((await authPost("/admin/ban-user", { userId: banned.id }, root)).status).toBe(200);
    // Promoting a banned account is allowed, but it cannot act until unbanned, so it is no usable admin.
    await makeAdmin(root, banned);
    expect((await accountOf(banned.id)).role).toBe("admin");
    expect(await usableAdmins()).toEqual([root.id]);
    expect((await authPost("/admin/set-role", { userId: root.id, role: "user" }, root)).status).toBe(409);
    expect((await putRole(root, root.id, "user")).status).toBe(409);
    expect(await usableAdmins()).toEqual([root.id]);
    // Demoted again (that removes no usable admin), it is out of the way of the next tests.
    expect((await authPost("/admin/set-role", { userId: banned.id, role: "user" }, root)).status).toBe(200);
  });
});

describe("the checked paths still work on users", () => {
  test("ban-user bans and signs the user out; unban-user lifts it; remove-user deletes the account", async () => {
    const target = await signUp("Target");
    const banned = await authPost("/admin/ban-user", { userId: target.id, banReason: "spam" }, root);
    expect(banned.status).toBe(200);
    expect(((await banned.json()) as { user: { id: string; banned: boolean } }).user).toMatchObject({
      id: target.id,
      banned: true,
    });
    expect(await accountOf(target.id)).toMatchObject({ banned: true, banReason: "spam" });
    expect(await (await getDb()).select().from(session).where(eq(session.userId, target.id))).toEqual([]);
    expect((await authPost("/admin/unban-user", { userId: target.id }, root)).status).toBe(200);
    expect((await accountOf(target.id)).banned).toBe(false);

    const removed = await authPost("/admin/remove-user", { userId: target.id }, root);
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ success: true });
    expect(await accountOf(target.id)).toBeUndefined();
    expect((await authPost("/admin/remove-user", { userId: target.id }, root)).status).toBe(404);
    expect((await authPost("/admin/ban-user", { userId: target.id }, root)).status).toBe(404);
  });

  test("update-user still edits what is not power: a name", async () => {
    const target = await signUp("Renamed");
    const response = await authPost(
      "/admin/update-user",
      { userId: target.id, data: { name: "New Name" } },
      root,
    );
    expect(response.status).toBe(200);
    expect((await accountOf(target.id)).name).toBe("New Name");
  });
});

describe("who may ask: anonymous callers get 401 before any lookup, non-admins 403, whatever the target", () => {
  const paths = ["/admin/ban-user", "/admin/remove-user", "/admin/set-role", "/admin/update-user"];
  test.each(paths)("%s", async (path) => {
    const someone = await signUp("Someone");
    const targets = [root.id, someone.id, "no-such-user"];
    for (const [by, status] of [
      [undefined, 401],
      [someone, 403],
    ] as const) {
      const answers = await Promise.all(
        targets.map(async (userId) => {
          const response = await authPost(path, { userId, role: "user", data: { name: "X" } }, by);
          return `${response.status} ${await response.text()}`;
        }),
      );
      expect(answers[0]).toMatch(new RegExp(`^${status} `));
      expect(new Set(answers).size, answers.join("\n")).toBe(1);
    }
    expect(await usableAdmins()).toEqual([root.id]);
  });
});

describe("two admins against each other at the same moment: at least one usable admin remains", () => {
  const races: Array<{
    name: string;
    act: (by: TestUser, target: TestUser) => Promise<Response>;
  }> = [
    {
      name: "update-user banned: true",
      act: (by, target) => authPost("/admin/update-user", { userId: target.id, data: { banned: true } }, by),
    },
    { name: "ban-user", act: (by, target) => authPost("/admin/ban-user", { userId: target.id }, by) },
    { name: "remove-user", act: (by, target) => authPost("/admin/remove-user", { userId: target.id }, by) },
    {
      name: "set-role user",
      act: (by, target) => authPost("/admin/set-role", { userId: target.id, role: "user" }, by),
    },
    { name: "PUT /api/admin/users/:id role user", act: (by, target) => putRole(by, target.id, "user") },
    {
      name: "each demotes themselves",
      act: (by) => authPost("/admin/set-role", { userId: by.id, role: "user" }, by),
    },
  ];
  test.each(races)("$name", async ({ act }) => {
    const left = await signUp("Left");
    const right = await signUp("Right");
    await makeAdmin(root, left);
    await makeAdmin(root, right);
    expect((await authPost("/admin/set-role", { userId: root.id, role: "user" }, root)).status).toBe(200);
    expect(await usableAdmins()).toEqual([left.id, right.id].sort());

    const results = await Promise.all([act(left, right), act(right, left)]);
    for (const result of results) expect(result.status).toBeLessThan(500);
    const remaining = await usableAdmins();
    expect(remaining.length).toBeGreaterThanOrEqual(1);

    // Hand the admin role back to root for the next race, and take it from the racers.
    const [survivor] = remaining;
    const by = survivor === left.id ? left : right;
    await makeAdmin(by, root);
    for (const racer of [left, right])
      if ((await accountOf(racer.id))?.role === "admin")
        await authPost("/admin/set-role", { userId: racer.id, role: "user" }, root);
    expect(await usableAdmins()).toEqual([root.id]);
  });

  test("a ban racing a promotion, while the promoter steps down: a usable admin remains", async () => {
    const other = await signUp("Other");
    const target = await signUp("Raced");
    await makeAdmin(root, other);
    // root promotes target while other bans target, then both root and other try to step down at once.
    await Promise.all([
      authPost("/admin/set-role", { userId: target.id, role: "admin" }, root),
      authPost("/admin/ban-user", { userId: target.id }, other),
    ]);
    await Promise.all([
      authPost("/admin/set-role", { userId: root.id, role: "user" }, root),
      authPost("/admin/set-role", { userId: other.id, role: "user" }, other),
    ]);
    expect((await usableAdmins()).length).toBeGreaterThanOrEqual(1);
  });
});
