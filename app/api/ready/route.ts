// GET /api/ready: readiness for load balancers and orchestrators. 200 when the database answers and has this
// build's migrations, Redis answers (when configured) and the instance is not shutting down; 503 naming the check
// that failed otherwise. No session needed; it says nothing a visitor could use. docs/deploy.md#health
import { readiness } from "@/lib/health";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const report = await readiness();
  return Response.json(report, {
    status: report.status === "ok" ? 200 : 503,
    headers: { "cache-control": "no-store", ...(report.status === "ok" ? {} : { "retry-after": "5" }) },
  });
}
