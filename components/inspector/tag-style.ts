// Class names per tag colour. Tailwind only generates classes it can see written out whole, so the colours named
// in lib/context/tags.ts are mapped to literal class strings here rather than built with templates.
import { TAG_COLOURS } from "@/lib/context/tags";
import type { ItemTag } from "@/lib/domain/types";

interface TagStyle {
  /** The chip: tinted background, readable text, a hairline ring. */
  chip: string;
  /** A solid fill for bar segments and legend dots. */
  fill: string;
  /** The coloured left edge of an item card. */
  edge: string;
}

const STYLES: Record<string, TagStyle> = {
  slate: {
    chip: "bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600",
    fill: "bg-slate-500",
    edge: "border-l-slate-400",
  },
  zinc: {
    chip: "bg-zinc-100 text-zinc-700 ring-zinc-300 dark:bg-zinc-800 dark:text-zinc-200 dark:ring-zinc-600",
    fill: "bg-zinc-400",
    edge: "border-l-zinc-400",
  },
  violet: {
    chip: "bg-violet-100 text-violet-800 ring-violet-300 dark:bg-violet-950 dark:text-violet-200 dark:ring-violet-800",
    fill: "bg-violet-500",
    edge: "border-l-violet-500",
  },
  fuchsia: {
    chip: "bg-fuchsia-100 text-fuchsia-800 ring-fuchsia-300 dark:bg-fuchsia-950 dark:text-fuchsia-200 dark:ring-fuchsia-800",
    fill: "bg-fuchsia-500",
    edge: "border-l-fuchsia-500",
  },
  indigo: {
    chip: "bg-indigo-100 text-indigo-800 ring-indigo-300 dark:bg-indigo-950 dark:text-indigo-200 dark:ring-indigo-800",
    fill: "bg-indigo-500",
    edge: "border-l-indigo-500",
  },
  red: {
    chip: "bg-red-100 text-red-800 ring-red-300 dark:bg-red-950 dark:text-red-200 dark:ring-red-800",
    fill: "bg-red-500",
    edge: "border-l-red-500",
  },
  amber: {
    chip: "bg-amber-100 text-amber-800 ring-amber-300 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-800",
    fill: "bg-amber-500",
    edge: "border-l-amber-500",
  },
  sky: {
    chip: "bg-sky-100 text-sky-800 ring-sky-300 dark:bg-sky-950 dark:text-sky-200 dark:ring-sky-800",
    fill: "bg-sky-500",
    edge: "border-l-sky-500",
  },
  orange: {
    chip: "bg-orange-100 text-orange-800 ring-orange-300 dark:bg-orange-950 dark:text-orange-200 dark:ring-orange-800",
    fill: "bg-orange-500",
    edge: "border-l-orange-500",
  },
  lime: {
    chip: "bg-lime-100 text-lime-800 ring-lime-400 dark:bg-lime-950 dark:text-lime-200 dark:ring-lime-800",
    fill: "bg-lime-500",
    edge: "border-l-lime-500",
  },
  teal: {
    chip: "bg-teal-100 text-teal-800 ring-teal-300 dark:bg-teal-950 dark:text-teal-200 dark:ring-teal-800",
    fill: "bg-teal-500",
    edge: "border-l-teal-500",
  },
  emerald: {
    chip: "bg-emerald-100 text-emerald-800 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800",
    fill: "bg-emerald-500",
    edge: "border-l-emerald-500",
  },
  purple: {
    chip: "bg-purple-100 text-purple-800 ring-purple-300 dark:bg-purple-950 dark:text-purple-200 dark:ring-purple-800",
    fill: "bg-purple-500",
    edge: "border-l-purple-500",
  },
  blue: {
    chip: "bg-blue-100 text-blue-800 ring-blue-300 dark:bg-blue-950 dark:text-blue-200 dark:ring-blue-800",
    fill: "bg-blue-600",
    edge: "border-l-blue-600",
  },
};

export function tagStyle(tag: ItemTag): TagStyle {
  return STYLES[TAG_COLOURS[tag]] ?? STYLES.zinc;
}
