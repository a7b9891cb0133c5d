// `npx tsx --conditions=react-server bench/turn-statements.ts`: the SQL statements one chat turn sends, in order,
// each marked as before or after the provider received the request, then the same for a gateway call that
// continues its conversation. A diagnosis for the turn's round trips; the counts themselves are bench keys
// (turn-overhead.ts, gateway.ts).
import { type AppBench, setUpAppBench, statementsSettled } from "./app-setup";

type Logged = { at: number; query: string }[];

/** Runs `call` and prints the statements it sent, marked before or after the provider's request arrived. */
async function printStatements(app: AppBench, log: Logged, title: string, call: () => Promise<Response>) {
  await app.providers.script({ kind: "text", text: "A reply.", chunks: 4, chunkDelayMs: 1 });
  await app.providers.takeRequests();
  const from = log.length;
  const response = await call();
  const body = await response.text();
  await statementsSettled(app, { quietMs: 150, maxMs: 3_000 });
  const [request] = await app.providers.takeRequests();
  if (!request)
    throw new Error(`${title}: the provider got no request (${response.status} ${body.slice(0, 200)})`);
  const arrivedAt = request.receivedAt - performance.timeOrigin;
  const statements = log.slice(from);
  const before = statements.filter((statement) => statement.at < arrivedAt).length;
  process.stdout.write(`\n# ${title}: ${statements.length} statements, ${before} before the provider\n`);
  statements.forEach((statement, index) => {
    const mark = statement.at < arrivedAt ? "before" : "after ";
    const text = statement.query.replace(/\s+/g, " ").trim();
    process.stdout.write(`${String(index + 1).padStart(2)} ${mark} ${text.slice(0, 200)}\n`);
  });
}

async function main(): Promise<void> {
  const baseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const log: Logged = [];
  const app = await setUpAppBench(baseUrl, {
    onStatement: (query) => log.push({ at: performance.now(), query }),
  });
  try {
    const user = await app.signUp("Ada");
    const persona = await app.createPersona();
    const conversationId = await app.storeConversation({ persona, owner: user, messages: 40 });
    for (const turn of [1, 2])
      await printStatements(app, log, `chat turn ${turn}`, () =>
        app.chatTurn(user, conversationId, `Question ${turn}`),
      );

    const { createApiKey } = await import("@/lib/gateway/api-keys");
    const { listPersonasWithSlugs } = await import("@/db/persona-queries");
    const { POST } = await import("@/app/v1/chat/completions/route");
    const { secret } = await createApiKey({
      db: app.db,
      userId: user.id,
      name: "diagnosis",
      personaIds: null,
    });
    const slug = (await listPersonasWithSlugs({ db: app.db })).find((row) => row.id === persona.id)?.slug;
    const messages: { role: string; content: string }[] = [{ role: "system", content: "Keep it short." }];
    for (const turn of [1, 2]) {
      messages.push({ role: "user", content: `Gateway question ${turn}` });
      const request = new Request("http://localhost:3000/v1/chat/completions", {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify({ model: slug, stream: true, messages }),
      });
      await printStatements(app, log, `gateway call ${turn}`, () => POST(request));
      messages.push({ role: "assistant", content: "A reply." });
    }
  } finally {
    await app.close();
  }
}

await main();
