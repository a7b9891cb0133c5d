// A muted user is told in words, once, and offered no Retry that cannot work: an admin mutes Bob for the default
// persona; Bob's message is refused with the reason, the banner has no Retry button, and nothing reached the model.
import { type APIResponse, expect } from "@playwright/test";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { registerWithRole } from "./pages/admin-role";
import { signUp } from "./pages/chat-page";
import { test } from "./pages/people";

const fake = fakeProvidersForSpec();

test("a muted user sees why in a sentence, once, with no Retry, and the model is not called", async ({
  personPage,
}) => {
  let lift: (() => Promise<APIResponse>) | null = null;
  try {
    const { chat: bob, email: bobEmail } = await signUp(await personPage(), "Bob", "muted-bob");
    await bob.newConversation();

    const { chat: admin } = await registerWithRole(await personPage(), "Moderator", "admin");
    const users = (await (await admin.page.request.get("/api/admin/users")).json()) as {
      users: { id: string; email: string }[];
    };
    const bobId = users.users.find((user) => user.email === bobEmail)?.id;
    const personas = (await (await admin.page.request.get("/api/personas")).json()) as {
      personas: { id: string }[];
    };
    const personaId = personas.personas[0]?.id;
    const muted = await admin.page.request.post("/api/admin/blocks", {
      data: {
        personaId,
        userId: bobId,
        blockType: "mute",
        reason: "Cooling off after the flame war",
        durationMinutes: 60,
      },
    });
    expect(muted.status(), await muted.text()).toBe(201);
    lift = () => admin.page.request.delete(`/api/admin/blocks?personaId=${personaId}&userId=${bobId}`);

    await bob.send("Can I still talk?");
    const banner = bob.page.getByTestId("chat-error");
    await expect(banner).toBeVisible();
    await expect(banner.getByTestId("chat-error-message")).toContainText("Cooling off after the flame war");
    // Words, not JSON, and the status once at most.
    await expect(banner).not.toContainText("{");
    await expect(banner.getByTestId("retry-button")).toHaveCount(0);
    await expect(bob.page.getByTestId("chat-error")).toHaveCount(1);
    expect(await fake.requests()).toHaveLength(0);
  } finally {
    // A persona's blocks are listed in every conversation with it (PERSONA_USER_BLOCKS): later specs share it.
    if (lift) expect((await lift()).status()).toBe(204);
  }
});
