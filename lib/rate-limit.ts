// Per-user rate limits: a fixed window counter, shared through Redis when REDIS_URL is
// set (so every instance counts together), else kept in this process's memory. Infrastructure failures fail
// open: a Redis outage must not stop people chatting.

import "server-only";
import { createClient } from "redis";
import { env } from "@/lib/config/env";
import { AppError } from "@/lib/domain/errors";
import { logger } from "@/lib/logger";

export interface RateLimitPolicy {
  name: string;
  limit: number;
  windowSeconds: number;
}

/** Policy as data: how many chat turns a user may start per minute (CHAT_RATE_LIMIT_PER_MINUTE, default 30). */
export function chatTurnPolicy(): RateLimitPolicy {
  return { name: "chat", limit: env().CHAT_RATE_LIMIT_PER_MINUTE, windowSeconds: 60 };
}

interface Counter {
  /** Count the hit and return the count in the current window, and the window's end (epoch ms). */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetAt: number }>;
}

class MemoryCounter implements Counter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  async hit(key: string, windowSeconds: number) {
    const now = Date.now();
    const current = this.windows.get(key);
    if (!current || current.resetAt <= now) {
      const fresh = { count: 1, resetAt: now + windowSeconds * 1_000 };
      this.windows.set(key, fresh);
      if (this.windows.size > 10_000) this.sweep(now);
      return fresh;
    }
    current.count++;
    return current;
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

class RedisCounter implements Counter {
  private readonly client: ReturnType<typeof createClient>;
  private readonly connected: Promise<unknown>;

  constructor(url: string) {
    this.client = createClient({ url });
    this.client.on("error", (error) => logger.warn({ err: error }, "redis error (rate limits fail open)"));
    this.connected = this.client.connect();
  }

  async hit(key: string, windowSeconds: number) {
    await this.connected;
    const windowStart = Math.floor(Date.now() / (windowSeconds * 1_000)) * windowSeconds * 1_000;
    const redisKey = `glassbox:ratelimit:${key}:${windowStart}`;
    const count = await this.client.incr(redisKey);
    if (count === 1) await this.client.pExpire(redisKey, windowSeconds * 1_000 + 1_000);
    return { count, resetAt: windowStart + windowSeconds * 1_000 };
  }
}

const globalForRateLimit = globalThis as unknown as { glassboxCounter?: Counter };

function counter(): Counter {
  const redisUrl = env().REDIS_URL;
  globalForRateLimit.glassboxCounter ??= redisUrl ? new RedisCounter(redisUrl) : new MemoryCounter();
  return globalForRateLimit.glassboxCounter;
}

/** Throws a 429 AppError with retry-after when the user is over the policy's limit. */
export async function enforceRateLimit(policy: RateLimitPolicy, userId: string): Promise<void> {
  let result: { count: number; resetAt: number };
  try {
    result = await counter().hit(`${policy.name}:${userId}`, policy.windowSeconds);
  } catch (error) {
    logger.warn({ err: error }, "rate limit check failed; allowing the request");
    return;
  }
  if (result.count <= policy.limit) return;
  const retryAfterSeconds = Math.max(1, Math.ceil((result.resetAt - Date.now()) / 1_000));
  throw new AppError(
    "rate_limited",
    `Too many requests: at most ${policy.limit} per ${policy.windowSeconds} seconds. Try again in ${retryAfterSeconds} s.`,
    { headers: { "retry-after": String(retryAfterSeconds) } },
  );
}
