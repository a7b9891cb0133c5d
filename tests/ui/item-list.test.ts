// The list a page keeps of its things and the labelled checkbox, as the server renders them: the note that there
// are none only once the list has loaded, one row a thing, and the checkbox's label, state and test id.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { CheckboxField } from "@/components/ui/form-controls";
import { ItemList } from "@/components/ui/item-list";

type Thing = { id: string; name: string };

function listHtml(items: Thing[] | undefined, className?: string) {
  return renderToStaticMarkup(
    // A function component with no hooks: called directly, it gives the elements React would render.
    ItemList<Thing>({
      items,
      emptyText: "No things yet.",
      emptyTestId: "no-things",
      className,
      children: (thing) => createElement("li", { "data-testid": "thing" }, thing.name),
    }),
  );
}

describe("ItemList", () => {
  test("while loading: an empty list and no note", () => {
    expect(listHtml(undefined)).toBe('<ul class="space-y-3"></ul>');
  });

  test("loaded with none: the note, then the empty list", () => {
    expect(listHtml([])).toBe(
      '<p class="text-sm text-zinc-600 dark:text-zinc-400" data-testid="no-things">No things yet.</p>' +
        '<ul class="space-y-3"></ul>',
    );
  });

  test("one row a thing, in order, with the list's own spacing", () => {
    expect(
      listHtml(
        [
          { id: "a", name: "Ant" },
          { id: "b", name: "Bee" },
        ],
        "space-y-2",
      ),
    ).toBe('<ul class="space-y-2"><li data-testid="thing">Ant</li><li data-testid="thing">Bee</li></ul>');
  });
});

test("a checkbox field: the box inside its label, checked as given, with its test id", () => {
  const html = renderToStaticMarkup(
    createElement(CheckboxField, { label: "Live", checked: true, onChange: () => {}, testId: "live" }),
  );
  expect(html).toBe(
    '<label class="flex items-center gap-2"><input type="checkbox" data-testid="live" checked=""/>Live</label>',
  );
});
