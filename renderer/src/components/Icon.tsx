// The app's icons: Lucide's (lucide-react), one named import per icon so the bundle carries only these.
// Inline SVG, no icon font (the CSP allows nothing external). Decorative unless labelled.

import type { ReactElement, SVGProps } from 'react';
import {
  Activity,
  ArrowLeft,
  ArrowRight,
  Bell,
  Book,
  Bug,
  Calendar,
  ChartNoAxesColumn,
  Check,
  ChevronDown,
  ChevronLeft,
  ChevronRight,
  CircleQuestionMark,
  Clock,
  Copy,
  Download,
  Eye,
  EyeOff,
  FileText,
  Key,
  Layers,
  Link,
  List,
  Lock,
  LogOut,
  Mail,
  Moon,
  PenLine,
  Play,
  Plus,
  Search,
  Server,
  Settings,
  Shield,
  ShieldCheck,
  SlidersVertical,
  Sun,
  Target,
  Trash,
  TriangleExclamationPoint,
  Upload,
  User,
  Users,
  Wrench,
  X,
  Zap,
  type LucideIcon,
} from 'lucide-react';

// The app's names for the icons (the call sites and their data tables use these), Lucide's behind them.
const ICONS = {
  sun: Sun,
  moon: Moon,
  shield: Shield,
  shieldCheck: ShieldCheck,
  upload: Upload,
  sliders: SlidersVertical,
  play: Play,
  fileText: FileText,
  zap: Zap,
  target: Target,
  layers: Layers,
  clock: Clock,
  bug: Bug,
  activity: Activity,
  mail: Mail,
  arrowLeft: ArrowLeft,
  arrowRight: ArrowRight,
  lock: Lock,
  logout: LogOut,
  tool: Wrench,
  search: Search,
  plus: Plus,
  x: X,
  check: Check,
  chevronDown: ChevronDown,
  chevronLeft: ChevronLeft,
  chevronRight: ChevronRight,
  trash: Trash,
  edit: PenLine,
  users: Users,
  calendar: Calendar,
  download: Download,
  list: List,
  settings: Settings,
  alert: TriangleExclamationPoint,
  copy: Copy,
  book: Book,
  help: CircleQuestionMark,
  barChart: ChartNoAxesColumn,
  key: Key,
  server: Server,
  bell: Bell,
  user: User,
  eye: Eye,
  eyeOff: EyeOff,
  link: Link,
} satisfies Record<string, LucideIcon>;

export type IconName = keyof typeof ICONS;

export function Icon({ name, size = 20, ...rest }: { name: IconName; size?: number } & SVGProps<SVGSVGElement>): ReactElement {
  const Glyph = ICONS[name];
  // Hidden from assistive technology unless the caller labels it (aria-label with aria-hidden={false}).
  return <Glyph size={size} strokeWidth={2} aria-hidden="true" focusable="false" {...rest} />;
}

/** Google's "G", for the social sign-in buttons. */
export function GoogleMark({ size = 18 }: { size?: number }): ReactElement {
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path fill="#FFC107" d="M43.6 20.1H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.6-.4-3.9z" />
      <path fill="#FF3D00" d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.1H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.6-.4-3.9z" />
    </svg>
  );
}
