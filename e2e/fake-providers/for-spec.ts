// The fake providers of this end-to-end run (started by playwright.config.ts on E2E_FAKE_PORT), for a spec whose
// tests script them: their scripts and recorded requests are cleared before each of its tests.
import { test } from "@playwright/test";
import { type FakeProviderClient, fakeProviderClient } from "./client";

export function fakeProvidersForSpec(): FakeProviderClient {
  const fake = fakeProviderClient(`http://127.0.0.1:${process.env.E2E_FAKE_PORT ?? 4010}`);
  test.beforeEach(async () => {
    await fake.reset();
  });
  return fake;
}
