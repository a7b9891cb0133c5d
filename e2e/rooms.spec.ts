// Rooms, two people in two browsers: Ada invites Bob by email from the conversation's settings; Bob
// accepts on his invitations page, finds the conversation in his list, sees who wrote what, writes himself and
// gets the persona's answer; Ada sees his message under his name.
import { expect } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { signUp, startConversation } from "./pages/chat-page";
import { test } from "./pages/people";

const fake = fakeProvidersForSpec();

test("Ada invites Bob; Bob reads, writes and is answered; both see each other's names", async ({
  personPage,
}) => {
  const { chat: bob, email: bobEmail } = await signUp(await personPage(), "Bob", "bob-room");

  const { chat: ada, conversationId } = await startConversation(await personPage(), "Ada", {
    emailPrefix: "ada-room",
  });
  await ada.askScripted(fake, "Planning Lisbon with Bob.", "Lisbon it is. Who is coming?");

  await ada.page.getByTestId("conversation-settings-button").click();
  await ada.page.getByTestId("invite-email").fill(bobEmail);
  await ada.page.getByTestId("invite-submit").click();
  // Pending until Bob accepts; the answer does not say whether the email has an account.
  await expect(ada.page.getByTestId("invite-sent")).toBeVisible();
  await expect(ada.page.getByTestId("person")).toHaveCount(1);
  await ada.page.keyboard.press("Escape");

  // Bob accepts on his invitations page, lands in the room and sees who wrote what.
  await bob.page.goto("/invitations");
  await expect(bob.page.getByTestId("invitation")).toContainText("Ada invited you");
  await bob.page.getByTestId("accept-invitation").click();
  await expect(bob.page).toHaveURL(new RegExp(`/chat/${conversationId}$`));
  await bob.page.goto("/chat");
  await bob.conversationItem(conversationId).getByTestId("conversation-link").click();
  await expect(bob.page).toHaveURL(new RegExp(`/chat/${conversationId}$`));
  await expect(bob.messages("user").first().getByTestId("message-author")).toHaveText("Ada");
  await bob.askScripted(fake, "Count me in, I like river views.", "Welcome, Bob.");
  await expect(bob.messages("user").last().getByTestId("message-author")).toHaveText("Bob");
  await expect(bob.messages("assistant").last().getByTestId("message-text")).toHaveText("Welcome, Bob.");
  // The model saw both names.
  const requests = await fake.requests();
  expect(requests.at(-1)?.body).toContain("Bob: Count me in, I like river views.");

  await ada.page.reload();
  await expect(ada.messages("user").last().getByTestId("message-author")).toHaveText("Bob");
  await expect(ada.messages("user").last().getByTestId("message-text")).toHaveText(
    "Count me in, I like river views.",
  );
});
