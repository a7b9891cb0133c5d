// Live rooms across instances: two app servers on two ports share one Postgres and one Redis; Ada's browser talks
// to server A, Bob's to server B. Without any reload, each sees the other join, type, write and edit, and the
// persona's reply stream in. Then B is restarted while Ada keeps talking: Bob's page reconnects by itself and shows
// exactly what it missed, nothing twice. Needs the e2e Postgres (E2E_DATABASE_URL) and Redis (REDIS_URL, default
// the local one).
import type { ChildProcess } from "node:child_process";
import { expect, type Page, test } from "@playwright/test";
import { fakeProviderClient } from "./fake-providers/client";
import { ChatPage, uniqueEmail } from "./pages/chat-page";
import { FAKE_PROVIDERS_URL, startExtraServer } from "./pages/extra-server";

const APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100);
const fake = fakeProviderClient(FAKE_PROVIDERS_URL);
const PORT_A = APP_PORT + 21;
const PORT_B = APP_PORT + 22;

test.skip(!process.env.E2E_DATABASE_URL, "two servers need one shared Postgres (E2E_DATABASE_URL)");

const servers = new Map<number, ChildProcess>();

async function startServer(port: number): Promise<string> {
  const { origin, process: server } = await startExtraServer(port, {
    // Each server is its own instance: a restart must not take the other's running turns for its own.
    INSTANCE_ID: `live-rooms-${port}`,
    TITLE_MODEL_ID: "offline:echo",
  });
  servers.set(port, server);
  return origin;
}

async function stopServer(port: number): Promise<void> {
  const server = servers.get(port);
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  // Open event streams may hold a graceful shutdown: a restart does not wait for them.
  const forced = setTimeout(() => server.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(forced);
}

test.afterAll(async () => {
  await Promise.all([...servers.keys()].map(stopServer));
});

function texts(page: Page, role: "user" | "assistant") {
  return page
    .locator(`[data-testid="message"][data-role="${role}"] [data-testid="message-text"]`)
    .allTextContents();
}

async function liveConnected(page: Page) {
  await expect(page.getByTestId("chat-view")).toHaveAttribute("data-live", "connected");
}

const REPLY_TO_BOB =
  "Welcome, Bob. Lisbon in May: trams at dawn, fado at night, pastries in between, and the river at every turn.";

test("Ada and Bob on two servers see each other live, and again after Bob's server restarts", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const [a, b] = await Promise.all([startServer(PORT_A), startServer(PORT_B)]);
  await fake.reset();
  const adaContext = await browser.newContext({ baseURL: a, extraHTTPHeaders: { origin: a } });
  const bobContext = await browser.newContext({ baseURL: b, extraHTTPHeaders: { origin: b } });
  try {
    const ada = new ChatPage(await adaContext.newPage());
    const bob = new ChatPage(await bobContext.newPage());
    const bobEmail = uniqueEmail("bob-live");
    await bob.register({ name: "Bob", email: bobEmail, password: "correct horse battery" });
    await ada.register({ name: "Ada", email: uniqueEmail("ada-live"), password: "correct horse battery" });
    const conversationId = await ada.newConversation();
    await fake.script({ kind: "text", text: "Lisbon it is. Who is coming?" });
    await ada.sendAndWait("Planning Lisbon with Bob.");
    await liveConnected(ada.page);

    // Ada invites Bob and keeps her people list open; Bob accepts on server B and appears there, live.
    await ada.page.getByTestId("conversation-settings-button").click();
    await ada.page.getByTestId("invite-email").fill(bobEmail);
    await ada.page.getByTestId("invite-submit").click();
    await expect(ada.page.getByTestId("invite-sent")).toBeVisible();
    await expect(ada.page.getByTestId("person")).toHaveCount(1);
    await bob.page.goto("/invitations");
    await bob.page.getByTestId("accept-invitation").click();
    await expect(bob.page).toHaveURL(new RegExp(`/chat/${conversationId}$`));
    await expect(ada.page.getByTestId("person")).toHaveCount(2);
    await expect(ada.page.getByTestId("person").filter({ hasText: "Bob" })).toHaveAttribute(
      "data-role",
      "member",
    );
    await ada.page.keyboard.press("Escape");
    await liveConnected(bob.page);
    expect(await texts(bob.page, "user")).toEqual(["Planning Lisbon with Bob."]);

    // Bob types: Ada sees it; then he sends, and Ada sees his message and the reply stream in, then end.
    await bob.page.getByTestId("composer-input").fill("Count me in");
    await expect(ada.page.getByTestId("typing-indicator")).toHaveText("Bob is typing…");
    await fake.script({ kind: "text", text: REPLY_TO_BOB, chunks: 30, chunkDelayMs: 150 });
    await bob.page.getByTestId("composer-input").fill("Count me in, I like river views.");
    await bob.page.getByTestId("composer-input").press("Enter");
    await expect(ada.messages("user").last().getByTestId("message-text")).toHaveText(
      "Count me in, I like river views.",
    );
    await expect(ada.messages("user").last().getByTestId("message-author")).toHaveText("Bob");
    await expect(ada.page.getByTestId("typing-indicator")).toHaveText("");
    // Part of the reply while it streams (its text so far), then all of it.
    const adaReply = ada.messages("assistant").last().getByTestId("message-text");
    await expect
      .poll(async () => {
        const shown = (await adaReply.count()) > 0 ? await adaReply.textContent() : "";
        return Boolean(shown) && shown !== REPLY_TO_BOB && REPLY_TO_BOB.startsWith(shown ?? "");
      })
      .toBe(true);
    await expect(adaReply).toHaveText(REPLY_TO_BOB);
    await bob.waitUntilReady();
    const expectedUser = ["Planning Lisbon with Bob.", "Count me in, I like river views."];
    const expectedAssistant = ["Lisbon it is. Who is coming?", REPLY_TO_BOB];
    for (const page of [ada.page, bob.page]) {
      expect(await texts(page, "user")).toEqual(expectedUser);
      expect(await texts(page, "assistant")).toEqual(expectedAssistant);
    }

    // Ada answers; Bob sees it live on the other server; Ada's own page shows it once.
    await fake.script({ kind: "text", text: "Two tickets, then." });
    await ada.sendAndWait("Booking for two.");
    await expect(bob.messages("user").last().getByTestId("message-text")).toHaveText("Booking for two.");
    await expect(bob.messages("assistant").last().getByTestId("message-text")).toHaveText(
      "Two tickets, then.",
    );
    expectedUser.push("Booking for two.");
    expectedAssistant.push("Two tickets, then.");
    for (const page of [ada.page, bob.page]) {
      expect(await texts(page, "user")).toEqual(expectedUser);
      expect(await texts(page, "assistant")).toEqual(expectedAssistant);
    }

    // Ada corrects her message in place: Bob sees the edit, live.
    await ada.messages("user").last().getByTestId("edit-message").click();
    await ada.page.getByTestId("message-editor-text").fill("Booking for two, by the river.");
    await ada.page.getByTestId("message-editor-save").click();
    await expect(bob.messages("user").last().getByTestId("message-text")).toHaveText(
      "Booking for two, by the river.",
    );
    expectedUser[2] = "Booking for two, by the river.";
    expect(await texts(bob.page, "user")).toEqual(expectedUser);

    // Server B goes down; Ada keeps talking on A; B comes back and Bob's page catches up by itself.
    await stopServer(PORT_B);
    await expect(bob.page.getByTestId("chat-view")).toHaveAttribute("data-live", "connecting");
    await fake.script({ kind: "text", text: "Noted: a room with a river view." });
    await ada.sendAndWait("Bob wants a river view.");
    await startServer(PORT_B);
    await liveConnected(bob.page);
    expectedUser.push("Bob wants a river view.");
    expectedAssistant.push("Noted: a room with a river view.");
    await expect(bob.messages("assistant").last().getByTestId("message-text")).toHaveText(
      "Noted: a room with a river view.",
    );
    expect(await texts(bob.page, "user")).toEqual(expectedUser);
    expect(await texts(bob.page, "assistant")).toEqual(expectedAssistant);

    // And live again after the restart, both ways.
    await fake.script({ kind: "text", text: "See you both in Lisbon." });
    await bob.sendAndWait("Done, see you there.");
    await expect(ada.messages("assistant").last().getByTestId("message-text")).toHaveText(
      "See you both in Lisbon.",
    );
    expectedUser.push("Done, see you there.");
    expectedAssistant.push("See you both in Lisbon.");
    for (const page of [ada.page, bob.page]) {
      expect(await texts(page, "user")).toEqual(expectedUser);
      expect(await texts(page, "assistant")).toEqual(expectedAssistant);
      // What was shown live is what is stored.
      await page.reload();
      await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toHaveCount(
        expectedAssistant.length,
      );
      expect(await texts(page, "user")).toEqual(expectedUser);
      expect(await texts(page, "assistant")).toEqual(expectedAssistant);
    }
  } finally {
    await adaContext.close();
    await bobContext.close();
  }
});
