import { afterEach, describe, expect, test, vi } from "vitest";
import { EnvironmentError, env, parseEnvironment } from "./env";

const saved = process.env.CHAT_RATE_LIMIT_PER_MINUTE;
afterEach(() => {
  if (saved === undefined) delete process.env.CHAT_RATE_LIMIT_PER_MINUTE;
  else process.env.CHAT_RATE_LIMIT_PER_MINUTE = saved;
});

describe("the server environment", () => {
  test("nothing set: every default", () => {
    const parsed = parseEnvironment({});
    expect(parsed.DATABASE_URL).toBeUndefined();
    expect(parsed.CHAT_RATE_LIMIT_PER_MINUTE).toBe(30);
    expect(parsed.DATABASE_CONNECT_TIMEOUT_SECONDS).toBe(5);
    expect(parsed.DATABASE_STATEMENT_TIMEOUT_MS).toBe(10_000);
    expect(parsed.PROVIDER_FIRST_CHUNK_TIMEOUT_MS).toBe(60_000);
    expect(parsed.PORT).toBe(3000);
    expect(parsed.TRUSTED_PROXIES).toEqual([]);
    expect(parsed.OPENAI_COMPATIBLE_MODELS).toEqual([]);
    expect(parsed.GLASSBOX_TEST).toBe(false);
  });

  test("an empty value (NAME= in a .env file) is the default, not an error", () => {
    expect(parseEnvironment({ PORT: "", DATABASE_URL: " ", REDIS_URL: "" })).toMatchObject({
      PORT: 3000,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
    });
  });

  test("values are typed: numbers, trimmed lists without repeats, a lower-cased admin email", () => {
    const parsed = parseEnvironment({
      CHAT_RATE_LIMIT_PER_MINUTE: "7",
      OPENAI_COMPATIBLE_MODELS: " llama3.2, qwen2.5:7b ,llama3.2,,",
      ALLOWED_HOSTS: "App.Example.com, *.preview.example.com",
      ADMIN_EMAIL: "  Ada@Example.COM ",
      TRUSTED_PROXIES: "10.1.0.0/16, 192.0.2.7 , ::1",
      GLASSBOX_TEST: "1",
    });
    expect(parsed.CHAT_RATE_LIMIT_PER_MINUTE).toBe(7);
    expect(parsed.OPENAI_COMPATIBLE_MODELS).toEqual(["llama3.2", "qwen2.5:7b"]);
    expect(parsed.ALLOWED_HOSTS).toEqual(["app.example.com", "*.preview.example.com"]);
    expect(parsed.ADMIN_EMAIL).toBe("ada@example.com");
    expect(parsed.TRUSTED_PROXIES).toEqual(["10.1.0.0/16", "192.0.2.7", "::1"]);
    expect(parsed.GLASSBOX_TEST).toBe(true);
  });

  test("a bad value is refused with the variable named, what it takes and what it got", () => {
    expect(() => parseEnvironment({ CHAT_RATE_LIMIT_PER_MINUTE: "lots" })).toThrow(
      'Invalid environment: CHAT_RATE_LIMIT_PER_MINUTE must be a whole number (got "lots"). See .env.example',
    );
    expect(() => parseEnvironment({ PORT: "0" })).toThrow('PORT must be at least 1 (got "0")');
    expect(() => parseEnvironment({ OPENAI_BASE_URL: "not a url" })).toThrow(
      'OPENAI_BASE_URL must be a URL such as https://example.com (got "not a url")',
    );
    expect(() => parseEnvironment({ TRUSTED_PROXIES: "10.0.0.0/99" })).toThrow(
      'TRUSTED_PROXIES must be IP addresses or CIDR ranges, comma-separated (got "10.0.0.0/99")',
    );
    expect(() => parseEnvironment({ LOG_LEVEL: "loud" })).toThrow(/^Invalid environment: LOG_LEVEL /);
  });

  test("every bad variable is named at once", () => {
    let error: unknown;
    try {
      parseEnvironment({ PORT: "x", ADMIN_EMAIL: "nobody" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvironmentError);
    expect((error as EnvironmentError).problems).toEqual([
      'ADMIN_EMAIL must be an email address (got "nobody")',
      'PORT must be a whole number (got "x")',
    ]);
  });

  test("env() sees a variable changed at run time at its next call", () => {
    process.env.CHAT_RATE_LIMIT_PER_MINUTE = "4";
    expect(env().CHAT_RATE_LIMIT_PER_MINUTE).toBe(4);
    expect(env()).toBe(env()); // unchanged: the parsed value is reused
    process.env.CHAT_RATE_LIMIT_PER_MINUTE = "9";
    expect(env().CHAT_RATE_LIMIT_PER_MINUTE).toBe(9);
  });

  test("a production server reads its variables once", () => {
    process.env.CHAT_RATE_LIMIT_PER_MINUTE = "4";
    expect(env().CHAT_RATE_LIMIT_PER_MINUTE).toBe(4);
    vi.stubEnv("NODE_ENV", "production");
    try {
      process.env.CHAT_RATE_LIMIT_PER_MINUTE = "9";
      expect(env().CHAT_RATE_LIMIT_PER_MINUTE).toBe(4);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(env().CHAT_RATE_LIMIT_PER_MINUTE).toBe(9);
  });
});
