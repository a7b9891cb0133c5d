// JSON-lines logs (pino). Quiet under tests unless LOG_LEVEL says otherwise.
import "server-only";
import pino from "pino";
import { env } from "@/lib/config/env";

export const logger = pino({
  level: env().LOG_LEVEL ?? (env().GLASSBOX_TEST ? "warn" : "info"),
});
