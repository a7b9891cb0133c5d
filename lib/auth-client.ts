"use client";
// The browser side of better-auth: sign up, sign in, sign out, session.
import { adminClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";

export const authClient = createAuthClient({ plugins: [adminClient()] });
