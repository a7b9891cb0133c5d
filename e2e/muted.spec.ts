// A muted user is told in words, once, and offered no Retry that cannot work: an admin mutes Bob for the default
// persona; Bob's message is refused with the reason, the banner has no Retry button, and nothing reached the model.
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { signUp } from "./pages/chat-page";

const fake = fakeProvidersForSpec();
const databaseUrl = process.env.E2E_DATABASE_URL;

test.skip(!databaseUrl, "needs E2E_DATABASE_URL (Postgres) to make an admin");

test("a muted user sees why in a sentence, once, with no Retry, and the model is not called", async ({
  browser,
}) => {
  const sql = postgres(databaseUrl as string, { max: 1, onnotice: () => {} });
  const adminContext = await browser.newContext();
  const bobContext = await browser.newContext();
  try {
    const { chat: bob } = await signUp(await bobContext.newPage(), "Bob", "muted-bob");
    await bob.newConversation();
    const [bobRow] = await sql<
      { id: string }[]
    >`select id from "user" where name = 'Bob' order by "createdAt" desc limit 1`;

    const { chat: admin, email: adminEmail } = await signUp(
      await adminContext.newPage(),
      "Moderator",
      "muted-admin",
    );
    await sql`update "user" set role = 'admin' where email = ${adminEmail}`;
    const personas = (await (await admin.page.request.get("/api/personas")).json()) as {
      personas: { id: string }[];
    };
    const muted = await admin.page.request.post("/api/admin/blocks", {
      data: {
        personaId: personas.personas[0]?.id,
        userId: bobRow?.id,
        blockType: "mute",
        reason: "Cooling off after the flame war",
        durationMinutes: 60,
      },
    });
    expect(muted.status(), await muted.text()).toBe(201);

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
    await sql`delete from persona_user_blocks where "reason" = 'Cooling off after the flame war'`;
    await adminContext.close();
    await bobContext.close();
    await sql.end();
  }
});
