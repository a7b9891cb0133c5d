// The providers and tokenizers a model row may name, as values: the admin form's choices and the API's
// validation read these lists. The compiler holds them to the pipeline's ProviderName and TokenizerName (and so
// to the database's enums, which match those types), so adding a kind in one place and not here fails the build.
import type { ProviderName, TokenizerName } from "@/lib/context/types";

export const PROVIDER_NAMES = [
  "openai",
  "openai-compatible",
  "google",
  "anthropic",
  "offline",
] as const satisfies readonly ProviderName[];
export const TOKENIZER_NAMES = [
  "o200k_base",
  "cl100k_base",
  "estimate",
] as const satisfies readonly TokenizerName[];

// Every member of the types is in the lists (the `satisfies` above checks the other direction).
type Missing<Listed, All> = Exclude<All, Listed> extends never ? true : Exclude<All, Listed>;
const everyProviderListed: Missing<(typeof PROVIDER_NAMES)[number], ProviderName> = true;
const everyTokenizerListed: Missing<(typeof TOKENIZER_NAMES)[number], TokenizerName> = true;
void everyProviderListed;
void everyTokenizerListed;
