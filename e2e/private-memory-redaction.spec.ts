// Ada's attempts made while she was alone carry her private memories; once she invites Bob, his inspector shows
// those attempts with the memory replaced and says so, and hers still shows the memory itself.
import { expect, test } from "@playwright/test";
import { fakeProviderClient } from "./fake-providers/client";
import { adminApi } from "./pages/admin-role";
import { signUp } from "./pages/chat-page";

const fake = fakeProviderClient(`http://127.0.0.1:${process.env.E2E_FAKE_PORT ?? 4010}`);

const SECRET = "Ada's secret: the spare key is under the blue pot";

test("Bob's inspector shows Ada's earlier attempt with her private memory redacted; Ada's shows it", async ({
  browser,
}) => {
  await fake.reset();
  const adaContext = await browser.newContext();
  const bobContext = await browser.newContext();
  try {
    const { chat: ada, email: adaEmail } = await signUp(await adaContext.newPage(), "Ada", "ada-private");
    const { chat: bob, email: bobEmail } = await signUp(await bobContext.newPage(), "Bob", "bob-private");
    // The memory is written by an admin: a user cannot write one for themselves without a model's tool call.
    const api = await adminApi();
    const listed = (await (await api.get("/api/admin/users")).json()) as {
      users: { id: string; email: string }[];
    };
    const idOf = (email: string) => listed.users.find((user) => user.email === email)?.id as string;
    const [adaRow, bobRow] = [{ id: idOf(adaEmail) }, { id: idOf(bobEmail) }];
    const stored = await api.post("/api/admin/memories", {
      data: { scope: "user", userId: adaRow.id, area: "fact", content: SECRET },
    });
    expect(stored.status(), await stored.text()).toBe(201);
    await api.dispose();

    const conversationId = await ada.newConversation();
    await ada.askScripted(fake, "Hello, it is Ada.", "Noted.");
    expect((await fake.requests()).at(-1)?.body).toContain(SECRET);

    const invited = await ada.page.request.post(`/api/conversations/${conversationId}/participants`, {
      data: { email: bobEmail },
    });
    expect(invited.status()).toBeLessThan(300);
    const accepted = await bob.page.request.patch(
      `/api/conversations/${conversationId}/participants/${bobRow.id}`,
      { data: { status: "accepted" } },
    );
    expect(accepted.status()).toBe(200);

    await bob.page.goto(`/chat/${conversationId}`);
    const bobPanel = await bob.inspectReply();
    await expect(bobPanel.root.getByTestId("private-memory-redaction")).toHaveText(
      "1 private memory redacted; visible only to Ada",
    );
    const core = bobPanel.root.locator('[data-testid="inspector-item"][data-tag="CORE_MEMORIES"]');
    await expect(core.getByTestId("item-redacted")).toBeVisible();
    await expect(core).toContainText("[private memory of Ada — only Ada can see it]");
    await expect(bobPanel.root).not.toContainText("spare key");
    expect(await bobPanel.exactBody()).not.toContain("spare key");

    const adaPanel = await ada.inspectReply();
    await expect(
      adaPanel.root.locator('[data-testid="inspector-item"][data-tag="CORE_MEMORIES"]'),
    ).toContainText(SECRET);
    await expect(adaPanel.root.getByTestId("private-memory-redaction")).toHaveCount(0);
    await expect(adaPanel.root.getByTestId("item-redacted")).toHaveCount(0);
  } finally {
    await adaContext.close();
    await bobContext.close();
  }
});
