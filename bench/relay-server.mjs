#!/usr/bin/env node
// The floor a served burst is measured against (bench/served-burst.ts): a bare `streamText` relay, the least a
// server can do to stream a model's reply to a chat client with the AI SDK. It takes the chat's request
// (POST /api/chat with `{ message: { parts: [{ type: "text", text }] } }`), sends that one message to the model,
// and pipes the SDK's UI message stream to the response with the SDK's own Node helper. No framework, no
// database, no history, no context pipeline, nothing recorded: everything the app does beyond this shows up as
// the difference between the two bursts.
//
// As scripts/serve.mjs runs the app: WEB_CONCURRENCY workers (node:cluster, each accepting on the shared port),
// PORT and HOST. OPENAI_BASE_URL and OPENAI_API_KEY name the (fake) provider; RELAY_MODEL the model, gpt-4o when
// unset. GET /api/ready answers 200 once a worker listens.
import cluster from "node:cluster";
import { createServer } from "node:http";
import { createOpenAI } from "@ai-sdk/openai";
import { streamText } from "ai";

const workers = Number(process.env.WEB_CONCURRENCY ?? 1);

if (cluster.isPrimary && workers > 1) {
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  for (let index = 0; index < workers; index++) cluster.fork();
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
      process.exit(0);
    });
  }
} else {
  const model = createOpenAI({
    baseURL: process.env.OPENAI_BASE_URL,
    apiKey: process.env.OPENAI_API_KEY ?? "relay",
  }).chat(process.env.RELAY_MODEL ?? "gpt-4o");

  const server = createServer(async (request, response) => {
    if (request.method === "GET" && request.url === "/api/ready") {
      response.end("ok");
      return;
    }
    if (request.method !== "POST" || request.url !== "/api/chat") {
      response.writeHead(404).end();
      return;
    }
    let text;
    try {
      const chunks = [];
      for await (const chunk of request) chunks.push(chunk);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      text = body.message.parts.find((part) => part.type === "text").text;
    } catch {
      response
        .writeHead(400, { "content-type": "text/plain" })
        .end("expected { message: { parts: [text] } }");
      return;
    }
    const result = streamText({ model, messages: [{ role: "user", content: text }] });
    result.pipeUIMessageStreamToResponse(response);
  });
  server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1");
}
