// `npx tsx --conditions=react-server bench/turn-statements.ts`: the SQL statements one chat turn sends, in order,
// each marked as before or after the provider received the request. A diagnosis for the turn's round trips; the
// counts themselves are bench keys (turn-overhead.ts).
import { setUpAppBench, statementsSettled } from "./app-setup";

async function main(): Promise<void> {
  const baseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const log: { at: number; query: string }[] = [];
  const app = await setUpAppBench(baseUrl, {
    onStatement: (query) => log.push({ at: performance.now(), query }),
  });
  try {
    const user = await app.signUp("Ada");
    const persona = await app.createPersona();
    const conversationId = await app.storeConversation({ persona, owner: user, messages: 40 });
    for (const turn of [1, 2]) {
      await app.providers.script({ kind: "text", text: "A reply.", chunks: 4, chunkDelayMs: 1 });
      await app.providers.takeRequests();
      const from = log.length;
      const response = await app.chatTurn(user, conversationId, `Question ${turn}`);
      await response.text();
      await statementsSettled(app, { quietMs: 150, maxMs: 3_000 });
      const [request] = await app.providers.takeRequests();
      const arrivedAt = request.receivedAt - performance.timeOrigin;
      const statements = log.slice(from);
      const before = statements.filter((statement) => statement.at < arrivedAt).length;
      process.stdout.write(
        `\n# turn ${turn}: ${statements.length} statements, ${before} before the provider\n`,
      );
      statements.forEach((statement, index) => {
        const mark = statement.at < arrivedAt ? "before" : "after ";
        process.stdout.write(`${String(index + 1).padStart(2)} ${mark} ${statement.query.slice(0, 220)}\n`);
      });
    }
  } finally {
    await app.close();
  }
}

await main();
