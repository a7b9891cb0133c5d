// A small set of stroke icons drawn inline (no icon library is installed). 16px by default, currentColor.
import { createElement, type ReactNode, type SVGProps } from "react";

type IconProps = SVGProps<SVGSVGElement> & { size?: number };

function Icon({ size = 16, children, ...props }: IconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

/** An icon component drawing `shapes` in the shared frame: a string is the data of a <path>. */
function icon(...shapes: (string | ReactNode)[]) {
  const drawn = shapes.map((shape) =>
    typeof shape === "string" ? createElement("path", { d: shape }) : shape,
  );
  // Handed over as separate children, so the shapes need no keys.
  return (props: IconProps) => createElement(Icon, props, ...drawn);
}

export const PlusIcon = icon("M12 5v14M5 12h14");
export const TrashIcon = icon("M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6");
export const MenuIcon = icon("M4 6h16M4 12h16M4 18h16");
export const CloseIcon = icon("M18 6 6 18M6 6l12 12");
export const MoonIcon = icon("M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8Z");
export const CheckIcon = icon("M20 6 9 17l-5-5");
export const DownloadIcon = icon("M12 3v12M7 10l5 5 5-5M5 21h14");
export const TerminalIcon = icon("m4 17 6-6-6-6M12 19h8");
export const ArrowUpIcon = icon("M12 19V5M5 12l7-7 7 7");
export const ArrowDownIcon = icon("M12 5v14M19 12l-7 7-7-7");
export const ChevronDownIcon = icon("m6 9 6 6 6-6");
export const ChevronRightIcon = icon("m9 6 6 6-6 6");
export const LogOutIcon = icon("M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9");
/** Lines folding into one: "compact" (summarise the older messages now). */
export const CompactIcon = icon("M4 5h16M4 9h16M8 15l4 4 4-4M12 19v-6");
export const SearchIcon = icon(<circle cx="11" cy="11" r="7" />, "m20 20-3.5-3.5");
export const PencilIcon = icon("M12 20h9", "M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z");
export const VideoIcon = icon(<rect x="2" y="5" width="14" height="14" rx="2" />, "m16 10 6-3v10l-6-3");
export const LogoIcon = icon(<rect x="3.5" y="3.5" width="17" height="17" rx="4" />, "M8 9h8M8 12h8M8 15h5");
export const SlidersIcon = icon(
  "M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0",
  <circle cx="16" cy="6" r="2" />,
  <circle cx="10" cy="12" r="2" />,
  <circle cx="18" cy="18" r="2" />,
);
export const ImageIcon = icon(
  <rect x="3" y="3" width="18" height="18" rx="2" />,
  <circle cx="9" cy="9" r="2" />,
  "m21 15-5-5L5 21",
);
export const AudioIcon = icon(
  "M9 18V5l12-2v13",
  <circle cx="6" cy="18" r="3" />,
  <circle cx="18" cy="16" r="3" />,
);
export const AlertIcon = icon(
  "M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z",
  "M12 9v4M12 17h0",
);
export const InspectIcon = icon(
  "M4 7V5a1 1 0 0 1 1-1h2M17 4h2a1 1 0 0 1 1 1v2M20 17v2a1 1 0 0 1-1 1h-2M7 20H5a1 1 0 0 1-1-1v-2",
  "M8 9h8M8 12h8M8 15h5",
);
export const SunIcon = icon(
  <circle cx="12" cy="12" r="4" />,
  "M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4",
);
export const RefreshIcon = icon(
  "M3 12a9 9 0 0 1 15.5-6.2L21 8M21 3v5h-5M21 12a9 9 0 0 1-15.5 6.2L3 16M3 21v-5h5",
);
export const CopyIcon = icon(
  <rect x="9" y="9" width="12" height="12" rx="2" />,
  "M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1",
);
export const StopIcon = icon(
  <rect x="6" y="6" width="12" height="12" rx="1.5" fill="currentColor" stroke="none" />,
);
export const DocumentIcon = icon(
  "M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z",
  "M14 3v5h5M9 13h6M9 17h4",
);
export const SparkIcon = icon(
  "M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5 18 18M6 18l2.5-2.5M15.5 8.5 18 6",
);
