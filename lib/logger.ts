// JSON-lines logs (pino). Quiet under tests unless LOG_LEVEL says otherwise.
import pino from "pino";

export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.GLASSBOX_TEST === "1" ? "warn" : "info"),
});
