// Path and query values of the admin routes: anything malformed is simply not found (ids) or a clear 400 (filters).

import { parseId } from "@/lib/api/route";
import { AppError } from "@/lib/domain/errors";
import { isUuid } from "@/lib/ids";

/** better-auth user ids are opaque text; only a plain token can name one. */
const USER_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** Model ids are readable ("openai:gpt-4.1-mini"): no slashes or spaces, so they fit in a path. */
export const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

export function parseUserId(value: string): string {
  if (!USER_ID.test(value)) throw new AppError("not_found", "User not found");
  return value;
}

export function parseModelId(value: string): string {
  const decoded = safeDecode(value);
  if (!MODEL_ID.test(decoded)) throw new AppError("not_found", `Model ${decoded.slice(0, 200)} not found`);
  return decoded;
}

/** A policy version number from the path: anything but a whole number from 1 up is simply not found. */
export function parseVersion(value: string): number {
  if (!/^[1-9][0-9]{0,8}$/.test(value)) throw new AppError("not_found", "Version not found");
  return Number(value);
}

/** The route context of a persona version's path. */
export type PersonaVersionContext = { params: Promise<{ id: string; version: string }> };

/** The persona id and the version number a persona version's path names (else not found). */
export async function parsePersonaVersionPath(params: PersonaVersionContext["params"]) {
  const path = await params;
  return { personaId: parseId(path.id, "Persona"), version: parseVersion(path.version) };
}

/** An optional query filter that must look like an id when present. */
export function optionalQueryId(url: URL, name: string, kind: "uuid" | "user"): string | undefined {
  const value = url.searchParams.get(name);
  if (value === null || value === "") return undefined;
  const ok = kind === "uuid" ? isUuid(value) : USER_ID.test(value);
  if (!ok) throw new AppError("bad_request", `${name} must be ${kind === "uuid" ? "a UUID" : "a user id"}`);
  return kind === "uuid" ? value.toLowerCase() : value;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
