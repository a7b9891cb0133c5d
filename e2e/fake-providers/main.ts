// Standalone fake provider process, e.g. for Playwright's webServer:
//   npx tsx e2e/fake-providers/main.ts --port 4010   (or FAKE_PROVIDER_PORT=4010)
import { startFakeProviders } from "./server";

const DEFAULT_PORT = 4010;

function portFromArguments(argv: readonly string[]): number {
  const flagIndex = argv.indexOf("--port");
  const inline = argv.find((argument) => argument.startsWith("--port="))?.slice("--port=".length);
  const raw =
    inline ?? (flagIndex === -1 ? undefined : argv[flagIndex + 1]) ?? process.env.FAKE_PROVIDER_PORT;
  if (raw === undefined || raw === "") return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`invalid port "${raw}"`);
  return port;
}

const providers = await startFakeProviders({ port: portFromArguments(process.argv.slice(2)) });
console.log(`fake providers listening on ${providers.url}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void providers.close().finally(() => process.exit(0));
  });
}
