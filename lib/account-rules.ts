// What an account's name and password must be. The password: at least 10 characters and not guessable with a
// list of common passwords, names, keyboard walks and dates (zxcvbn's estimate of at least 10^10 guesses, its
// "safely unguessable" score); the account's own name and email count as guessable too. The name: what people
// are shown in a room, so something, and not a page of it.

import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { hasVisibleCharacter, unstorableTextProblem } from "@/lib/text-rules";

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;
export const MAX_NAME_LENGTH = 100;
/** zxcvbn's score: 3 is "safely unguessable: moderate protection from an offline attack". */
const MIN_PASSWORD_SCORE = 3;

let estimator: ZxcvbnFactory | null = null;

function passwordEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  return estimator;
}

/** Why the password is refused, as a sentence for the sign-up form; null when it is strong enough. */
export function passwordProblem(password: string, userInputs: string[] = []): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `The password is too long: use at most ${MAX_PASSWORD_LENGTH} characters.`;
  }
  const result = passwordEstimator().check(password, userInputs.filter(Boolean));
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const why = result.feedback.warning
    ? (WARNING_TEXT[result.feedback.warning] ?? "it follows a common pattern")
    : "it follows a common pattern";
  return `The password is too easy to guess (${why}): a few unrelated words make a strong one.`;
}

const WARNING_TEXT: Record<string, string> = {
  topTen: "it is one of the most used passwords",
  topHundred: "it is one of the most used passwords",
  common: "it is a commonly used password",
  similarToCommon: "it is close to a commonly used password",
  wordByItself: "a single word is easy to guess",
  namesByThemselves: "names on their own are easy to guess",
  commonNames: "common names are easy to guess",
  userInputs: "it contains your name or email",
  straightRow: "it is a row of keys",
  keyPattern: "it is a keyboard pattern",
  simpleRepeat: "it repeats characters",
  extendedRepeat: "it repeats a pattern",
  sequences: "it is a sequence like abc or 123",
  recentYears: "it contains a recent year",
  dates: "it contains a date",
  pwned: "it has appeared in data breaches",
};

/** Why the display name is refused; null when it is fine. */
export function nameProblem(name: unknown): string | null {
  if (typeof name !== "string" || name.trim().length === 0)
    return "Enter a name: it is shown to the people you chat with.";
  if (!hasVisibleCharacter(name))
    return "Enter a name with a visible character: only spaces or zero-width characters show as nothing.";
  if (name.length > MAX_NAME_LENGTH)
    return `The name is too long: use at most ${MAX_NAME_LENGTH} characters.`;
  const unstorable = unstorableTextProblem(name);
  if (unstorable) return `The name ${unstorable}.`;
  return null;
}
