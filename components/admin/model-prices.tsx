"use client";
// A model's prices on its admin form, in US dollars per million tokens: blank means unknown (its costs then show as
// unknown). The catalogue's list prices are offered for the models it knows. Costs are computed from the prices
// when shown, so a change here shows on every attempt of the model from then on.
import { NumberField } from "@/components/ui/form-controls";
import { MODEL_CATALOG } from "@/lib/domain/model-catalog";
import type { ModelPrices } from "@/lib/domain/types";

/** The form's prices: NaN for a blank field. */
export type PriceDraft = Record<PriceKey, number>;
type PriceKey = keyof ModelPrices;

const PRICE_FIELDS: readonly { key: PriceKey; label: string }[] = [
  { key: "inputPerMillion", label: "Input" },
  { key: "cachedInputPerMillion", label: "Cached input" },
  { key: "cacheWritePerMillion", label: "Cache write" },
  { key: "outputPerMillion", label: "Output" },
];

export function priceDraftOf(prices: ModelPrices | null | undefined): PriceDraft {
  return Object.fromEntries(PRICE_FIELDS.map(({ key }) => [key, prices?.[key] ?? Number.NaN])) as PriceDraft;
}

/** What a save sends: null when every field is blank; a blank cache write is left out (writes not priced). */
export function pricesOf(draft: PriceDraft): ModelPrices | null {
  if (PRICE_FIELDS.every(({ key }) => Number.isNaN(draft[key]))) return null;
  const { cacheWritePerMillion, ...required } = draft;
  // A blank required field goes as null: the API names it.
  const sent = Object.fromEntries(
    Object.entries(required).map(([key, value]) => [key, Number.isNaN(value) ? null : value]),
  ) as unknown as ModelPrices;
  return Number.isNaN(cacheWritePerMillion) ? sent : { ...sent, cacheWritePerMillion };
}

export function ModelPriceFields({
  modelId,
  draft,
  error,
  onChange,
}: {
  modelId: string;
  draft: PriceDraft;
  error: string | undefined;
  onChange: (draft: PriceDraft) => void;
}) {
  const listed = MODEL_CATALOG.find((model) => model.id === modelId)?.prices;
  return (
    <fieldset className="grid grid-cols-2 gap-3 sm:col-span-3 sm:grid-cols-4" data-testid="model-prices">
      <legend className="mb-1 text-sm font-medium">
        Prices, US dollars per million tokens (blank: unknown)
      </legend>
      {PRICE_FIELDS.map(({ key, label }) => (
        <NumberField
          key={key}
          label={label}
          value={draft[key]}
          onChange={(value) => onChange({ ...draft, [key]: value })}
          testId={`model-price-${key}`}
        />
      ))}
      {error && (
        <p
          role="alert"
          className="text-sm text-red-700 sm:col-span-4 dark:text-red-300"
          data-testid="model-price-error"
        >
          {error}
        </p>
      )}
      {listed && (
        <p className="text-xs text-zinc-600 sm:col-span-4 dark:text-zinc-400">
          <button
            type="button"
            className="underline"
            onClick={() => onChange(priceDraftOf(listed))}
            data-testid="model-price-list"
          >
            Use the list prices
          </button>{" "}
          ({PRICE_FIELDS.map(({ key, label }) => `${label.toLowerCase()} $${listed[key] ?? "—"}`).join(", ")})
        </p>
      )}
    </fieldset>
  );
}
