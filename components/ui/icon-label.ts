// What an icon-only control is called: the label screen readers say, and the tooltip (the label unless longer).
export function iconLabel(label: string, title: string = label) {
  return { "aria-label": label, title };
}
