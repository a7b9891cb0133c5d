// The database goes away and comes back, through a TCP proxy between the app and Postgres that this test cuts and
// restores: down at start-up, routes answer 503 with retry-after (not a 500, not a hang), sign-in included; once it
// is back the migration is tried again and the same process serves requests, no restart. Needs Postgres.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as authRoute from "@/app/api/auth/[...all]/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { databaseHandle } from "@/db/client";
import { call, expectError } from "../api-client";
import { createFreshDatabase, dropDatabase } from "../database";

const baseUrl = process.env.GLASSBOX_BASE_DATABASE_URL;
type Globals = { glassboxDatabase?: { close(): Promise<void> }; glassboxAuth?: unknown };

/** A TCP proxy to Postgres that can refuse connections and cut the open ones. */
class CuttableProxy {
  private readonly sockets = new Set<net.Socket>();
  private server: net.Server | null = null;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async open(port = 0): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server?.listen(port, "127.0.0.1", resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(null)));
    this.server = null;
  }
}

const PASSWORD = "violet kettle marathon";

/** A POST to better-auth's own route (sign-up, sign-in), as a browser of this app sends it. */
function authPost(path: string, body: Record<string, string>): Promise<Response> {
  return authRoute.POST(
    new Request(`http://localhost:3000/api/auth/${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: "http://localhost:3000",
        host: "localhost:3000",
      },
      body: JSON.stringify(body),
    }),
  );
}

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
    const port = proxy.port;
    await proxy.cut(); // down at start-up
    target.host = `127.0.0.1:${port}`;
    process.env.DATABASE_URL = target.toString();
    const globals = globalThis as Globals;
    if (globals.glassboxDatabase) await globals.glassboxDatabase.close();
    globals.glassboxDatabase = undefined;
    globals.glassboxAuth = undefined;
    // Re-open on the same port later: remember it.
    proxy.port = port;
  });

  afterAll(async () => {
    const globals = globalThis as Globals;
    await globals.glassboxDatabase?.close().catch(() => {});
    globals.glassboxDatabase = undefined;
    globals.glassboxAuth = undefined;
    process.env.DATABASE_URL = previousUrl;
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

    const signIn = await authPost("sign-in/email", { email: "someone@example.test", password: PASSWORD });
    expect(signIn.status).toBe(503);
    expect(signIn.headers.get("retry-after")).toBeTruthy();
  });

  test("back again: the migration is retried and the same process answers, no restart", async () => {
    await proxy.open(proxy.port);
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
    const signUp = await authPost("sign-up/email", {
      name: "Cut",
      email: "cut@example.test",
      password: PASSWORD,
    });
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(signUp.status).toBe(503);
    await proxy.open(proxy.port);
    const again = await authPost("sign-up/email", {
      name: "Back",
      email: "back@example.test",
      password: PASSWORD,
    });
    expect(again.status).toBe(200);
  });
});
