// A tag drawn in its colour, with its one-line description on hover.
import { TAG_DESCRIPTIONS } from "@/lib/context/tags";
import type { ItemTag } from "@/lib/domain/types";
import { tagStyle } from "./tag-style";

export function TagChip({ tag, className = "" }: { tag: ItemTag; className?: string }) {
  return (
    <span
      className={`chip font-mono ring-1 ring-inset ${tagStyle(tag).chip} ${className}`}
      title={TAG_DESCRIPTIONS[tag]}
      data-testid="tag-chip"
    >
      {tag}
    </span>
  );
}

export function TagDot({ tag }: { tag: ItemTag }) {
  return (
    <span className={`inline-block size-2 shrink-0 rounded-sm ${tagStyle(tag).fill}`} aria-hidden="true" />
  );
}
