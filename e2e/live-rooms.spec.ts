// Live rooms across instances: two app servers on two ports share one Postgres and one Redis; Ada's browser talks
// to server A, Bob's to server B. Without any reload, each sees the other join, type, write and edit, and the
// persona's reply stream in. Then B is restarted while Ada keeps talking: Bob's page reconnects by itself and shows
// exactly what it missed, nothing twice. Needs the e2e Postgres (E2E_DATABASE_URL) and Redis (REDIS_URL, default
// the local one).
import type { ChildProcess } from "node:child_process";
import { expect, type Page, test } from "@playwright/test";
import { fakeProviderClient } from "./fake-providers/client";
import { type ChatPage, signUp, startConversation } from "./pages/chat-page";
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

/** What every page in the room must show: the user messages and the replies, in order. */
interface Transcript {
  user: string[];
  assistant: string[];
}

async function expectTranscript(pages: Page[], transcript: Transcript) {
  for (const page of pages) {
    expect(await texts(page, "user")).toEqual(transcript.user);
    expect(await texts(page, "assistant")).toEqual(transcript.assistant);
  }
}

function lastMessageText(chat: ChatPage, role: "user" | "assistant") {
  return chat.messages(role).last().getByTestId("message-text");
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
    const adaPage = await adaContext.newPage();
    const { chat: bob, email: bobEmail } = await signUp(await bobContext.newPage(), "Bob", "bob-live");
    const { chat: ada, conversationId } = await startConversation(adaPage, "Ada", {
      emailPrefix: "ada-live",
    });
    await ada.askScripted(fake, "Planning Lisbon with Bob.", "Lisbon it is. Who is coming?");
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
    await expect(lastMessageText(ada, "user")).toHaveText("Count me in, I like river views.");
    await expect(ada.messages("user").last().getByTestId("message-author")).toHaveText("Bob");
    await expect(ada.page.getByTestId("typing-indicator")).toHaveText("");
    // Part of the reply while it streams (its text so far), then all of it.
    const adaReply = lastMessageText(ada, "assistant");
    await expect
      .poll(async () => {
        const shown = (await adaReply.count()) > 0 ? await adaReply.textContent() : "";
        return Boolean(shown) && shown !== REPLY_TO_BOB && REPLY_TO_BOB.startsWith(shown ?? "");
      })
      .toBe(true);
    await expect(adaReply).toHaveText(REPLY_TO_BOB);
    await bob.waitUntilReady();
    const both = [ada.page, bob.page];
    const expected: Transcript = {
      user: ["Planning Lisbon with Bob.", "Count me in, I like river views."],
      assistant: ["Lisbon it is. Who is coming?", REPLY_TO_BOB],
    };
    await expectTranscript(both, expected);

    // Ada answers; Bob sees it live on the other server; Ada's own page shows it once.
    await ada.askScripted(fake, "Booking for two.", "Two tickets, then.");
    await expect(lastMessageText(bob, "user")).toHaveText("Booking for two.");
    await expect(lastMessageText(bob, "assistant")).toHaveText("Two tickets, then.");
    expected.user.push("Booking for two.");
    expected.assistant.push("Two tickets, then.");
    await expectTranscript(both, expected);

    // Ada corrects her answered message: it forks and gets its own answer; Bob sees both, live.
    await fake.script({ kind: "text", text: "Two tickets, by the river." });
    await ada.messages("user").last().getByTestId("edit-message").click();
    await ada.page.getByTestId("message-editor-text").fill("Booking for two, by the river.");
    await ada.page.getByTestId("message-editor-save").click();
    await expect(lastMessageText(bob, "user")).toHaveText("Booking for two, by the river.");
    await expect(lastMessageText(bob, "assistant")).toHaveText("Two tickets, by the river.");
    expected.user[2] = "Booking for two, by the river.";
    expected.assistant[2] = "Two tickets, by the river.";
    expect(await texts(bob.page, "user")).toEqual(expected.user);
    await ada.waitUntilReady();

    // Server B goes down; Ada keeps talking on A; B comes back and Bob's page catches up by itself.
    await stopServer(PORT_B);
    await expect(bob.page.getByTestId("chat-view")).toHaveAttribute("data-live", "connecting");
    await ada.askScripted(fake, "Bob wants a river view.", "Noted: a room with a river view.");
    await startServer(PORT_B);
    await liveConnected(bob.page);
    expected.user.push("Bob wants a river view.");
    expected.assistant.push("Noted: a room with a river view.");
    await expect(lastMessageText(bob, "assistant")).toHaveText("Noted: a room with a river view.");
    await expectTranscript([bob.page], expected);

    // And live again after the restart, both ways.
    await bob.askScripted(fake, "Done, see you there.", "See you both in Lisbon.");
    await expect(lastMessageText(ada, "assistant")).toHaveText("See you both in Lisbon.");
    expected.user.push("Done, see you there.");
    expected.assistant.push("See you both in Lisbon.");
    for (const chat of [ada, bob]) {
      await expectTranscript([chat.page], expected);
      // What was shown live is what is stored.
      await chat.page.reload();
      await expect(chat.messages("assistant")).toHaveCount(expected.assistant.length);
      await expectTranscript([chat.page], expected);
    }
  } finally {
    await adaContext.close();
    await bobContext.close();
  }
});
