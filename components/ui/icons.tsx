// The app's icons: lucide-react's, under the names the components use. 16px and a light stroke unless a caller
// says otherwise; currentColor; hidden from screen readers (lucide adds aria-hidden), since the button or text
// around an icon carries the label.
import {
  ArrowDown,
  ArrowUp,
  Check,
  ChevronDown,
  ChevronRight,
  Copy,
  Download,
  FileText,
  GitBranch,
  ListCollapse,
  LogOut,
  type LucideIcon,
  type LucideProps,
  Menu,
  Moon,
  Music,
  Pencil,
  Image as Picture,
  Plus,
  RefreshCw,
  ScanText,
  Search,
  SlidersHorizontal,
  Sparkles,
  Square,
  SquareMenu,
  Sun,
  Terminal,
  Trash2,
  TriangleAlert,
  Video,
  X,
} from "lucide-react";

export type IconProps = Omit<LucideProps, "ref">;

/** `Drawn` with the app's defaults; `fixed` props (a filled shape) apply under the caller's. */
function icon(Drawn: LucideIcon, fixed: IconProps = {}) {
  function AppIcon(props: IconProps) {
    return <Drawn size={16} strokeWidth={1.75} {...fixed} {...props} />;
  }
  AppIcon.displayName = `${Drawn.displayName ?? "Lucide"}Icon`;
  return AppIcon;
}

export const PlusIcon = icon(Plus);
export const TrashIcon = icon(Trash2);
export const MenuIcon = icon(Menu);
export const CloseIcon = icon(X);
export const MoonIcon = icon(Moon);
export const SunIcon = icon(Sun);
export const CheckIcon = icon(Check);
export const DownloadIcon = icon(Download);
export const TerminalIcon = icon(Terminal);
export const ArrowUpIcon = icon(ArrowUp);
export const ArrowDownIcon = icon(ArrowDown);
export const ChevronDownIcon = icon(ChevronDown);
export const ChevronRightIcon = icon(ChevronRight);
export const LogOutIcon = icon(LogOut);
/** Lines folding into one: "compact" (summarise the older messages now). */
export const CompactIcon = icon(ListCollapse);
export const SearchIcon = icon(Search);
export const PencilIcon = icon(Pencil);
export const VideoIcon = icon(Video);
/** The app's mark: a box with lines of text in it (what goes into a model call, shown whole). */
export const LogoIcon = icon(SquareMenu);
export const SlidersIcon = icon(SlidersHorizontal);
export const ImageIcon = icon(Picture);
export const AudioIcon = icon(Music);
export const AlertIcon = icon(TriangleAlert);
/** The prompt inspector: a scanned page of text. */
export const InspectIcon = icon(ScanText);
export const RefreshIcon = icon(RefreshCw);
export const CopyIcon = icon(Copy);
export const StopIcon = icon(Square, { fill: "currentColor", stroke: "none" });
export const DocumentIcon = icon(FileText);
export const SparkIcon = icon(Sparkles);
/** A branch off a message: a new conversation that starts from it. */
export const BranchIcon = icon(GitBranch);
