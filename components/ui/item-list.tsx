// The list a page keeps of its things (datasets, memories, keys), each row keyed by the thing's id, and the note
// that there are none once they have loaded (nothing is said while they load).
import { Fragment, type ReactNode } from "react";

export function ItemList<Item extends { id: string }>({
  items,
  emptyText,
  emptyTestId,
  className = "space-y-3",
  children: renderItem,
}: {
  /** Undefined while loading. */
  items: readonly Item[] | undefined;
  emptyText: string;
  emptyTestId: string;
  /** The list's spacing. */
  className?: string;
  /** A thing's row: an `<li>` or a component that renders one. */
  children: (item: Item) => ReactNode;
}) {
  return (
    <>
      {items?.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid={emptyTestId}>
          {emptyText}
        </p>
      )}
      <ul className={className}>
        {items?.map((item) => (
          <Fragment key={item.id}>{renderItem(item)}</Fragment>
        ))}
      </ul>
    </>
  );
}
