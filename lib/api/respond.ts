// The one way a JSON route answers: its body checked against what lib/api/responses.ts says the route sends, which
// is the type the browser's fetchers read.

import type { ApiResponses, ApiRoute } from "./responses";

export function respond<Route extends ApiRoute>(
  _route: Route,
  body: ApiResponses[Route],
  init?: ResponseInit,
): Response {
  return Response.json(body, init);
}
