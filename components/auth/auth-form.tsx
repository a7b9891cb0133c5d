"use client";
// Sign-in and sign-up share one form: email, password and (for sign-up) a name.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { ErrorMessage } from "@/components/ui/error-message";
import { authClient } from "@/lib/auth-client";

const FAILED = "That did not work. Check the details and try again.";

/** Signs in; the message to show when that failed. */
async function signIn(email: string, password: string): Promise<string | null> {
  const result = await authClient.signIn.email({ email, password });
  return result.error ? (result.error.message ?? FAILED) : null;
}

/**
 * Creates the account, then signs in. Sign-up answers alike whether the email was free or already had an account
 * (lib/auth.ts): when the sign-in fails, the email most likely has an account with another password.
 */
async function signUp(email: string, password: string, name: string): Promise<string | null> {
  const created = await authClient.signUp.email({ email, password, name });
  if (created.error) return created.error.message ?? FAILED;
  const signedIn = await authClient.signIn.email({ email, password });
  if (!signedIn.error) return null;
  if (signedIn.error.status !== 401) return signedIn.error.message ?? FAILED;
  return "Could not sign you in with this email and password. If you already have an account with this email, sign in with its password instead.";
}

export function AuthForm({ mode }: { mode: "sign-in" | "sign-up" }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    setPending(true);
    setError(null);
    const error =
      mode === "sign-up"
        ? await signUp(email, password, String(form.get("name") ?? ""))
        : await signIn(email, password);
    setPending(false);
    if (error) {
      setError(error);
      return;
    }
    router.push("/chat");
    router.refresh();
  }

  const isSignUp = mode === "sign-up";
  return (
    <main className="flex min-h-full items-center justify-center p-6">
      <form
        onSubmit={onSubmit}
        className="w-full max-w-sm space-y-4 rounded-2xl border border-zinc-200 p-8 shadow-sm dark:border-zinc-800"
        data-testid={`${mode}-form`}
      >
        <div>
          <h1 className="text-2xl font-semibold">Glassbox</h1>
          <p className="text-sm text-zinc-500 dark:text-zinc-400">
            {isSignUp ? "Create an account" : "Sign in to your account"}
          </p>
        </div>
        {isSignUp && (
          <label className="block text-sm">
            Name
            <input
              name="name"
              required
              maxLength={100}
              className="input"
              data-testid="name-input"
              autoComplete="name"
            />
          </label>
        )}
        <label className="block text-sm">
          Email
          <input
            name="email"
            type="email"
            required
            className="input"
            data-testid="email-input"
            autoComplete="email"
          />
        </label>
        <label className="block text-sm">
          Password
          <input
            name="password"
            type="password"
            required
            minLength={isSignUp ? 10 : undefined}
            maxLength={128}
            className="input"
            data-testid="password-input"
            autoComplete={isSignUp ? "new-password" : "current-password"}
            aria-describedby={isSignUp ? "password-rules" : undefined}
          />
        </label>
        {isSignUp && (
          <p id="password-rules" className="text-xs text-zinc-500 dark:text-zinc-400">
            At least 10 characters, and not a common password: a few unrelated words make a strong one.
          </p>
        )}
        <ErrorMessage message={error} testId="auth-error" />
        <button type="submit" disabled={pending} className="button-primary w-full" data-testid="auth-submit">
          {pending ? "…" : isSignUp ? "Create account" : "Sign in"}
        </button>
        <p className="text-center text-sm text-zinc-500 dark:text-zinc-400">
          {isSignUp ? "Have an account? " : "New here? "}
          <Link href={isSignUp ? "/sign-in" : "/sign-up"} className="underline" data-testid="auth-switch">
            {isSignUp ? "Sign in" : "Create an account"}
          </Link>
        </p>
      </form>
    </main>
  );
}
