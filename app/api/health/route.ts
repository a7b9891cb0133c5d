// GET /api/health: liveness for load balancers and orchestrators. The process answers; nothing else is asked (a
// database outage must not get a healthy instance restarted). No session needed. docs/deploy.md#health
import { liveness } from "@/lib/health";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json(liveness(), { headers: { "cache-control": "no-store" } });
}
