import type { Message } from '../types.js';
import type { ContextSettings } from './context-settings.js';
import type { LoadedSession } from './loaded-session.js';
import type { BranchInfo, LabelInfo } from './session-tree.js';

// The shape of what `ctxkit inspect --json` prints (documented in docs/cli.md) and the report shows.

/** Tokens and their share of the window (`null` without a window). */
export interface TokenShare {
  tokens: number;
  percent: number | null;
}

/** One message of the branch, as the inspection shows it. */
export interface InspectedMessage {
  /** The entry the message comes from (`null` for a message the pipeline wrote just now). */
  entryId: string | null;
  role: Message['role'];
  /** `meta.kind`, or `message`. */
  kind: string;
  /** `role`, or `toolResult(<tool name>)`. */
  label: string;
  /** Estimated tokens (0 when hidden from the model). */
  tokens: number;
  /** Whether the model sees it. */
  visible: boolean;
  text: string;
}

/** How a message of the context before a compaction fared in it. */
export type CompactionFate = 'kept' | 'summarized' | 'archived' | 'previous-summary';

/** A compaction on the current branch. */
export interface InspectedCompaction {
  entryId: string;
  timestamp: number;
  /** `threshold`, `overflow` or `manual` when the writer recorded it, else `null`. */
  reason: string | null;
  tokensBefore: number;
  tokensAfter: number;
  /** Whether `tokensAfter` was recorded by the writer or measured now. */
  tokensAfterSource: 'recorded' | 'measured';
  firstKeptEntryId: string;
  /** The checkpoint (the summary the compaction wrote). */
  checkpoint: string;
  /** The context just before the compaction, each message with its fate. */
  replaced: (InspectedMessage & { fate: CompactionFate })[];
  /** Index of the model call before which it happened (see `SessionInspection.timeline`). */
  beforeCall: number;
  /**
   * A compaction the provider made natively: who made it, what it cost, the payload's size; its
   * readable summary is `checkpoint` (empty while OpenAI's opaque item has none written).
   */
  native: {
    provider: string;
    api: string;
    model: string;
    usage: { input: number; output: number } | null;
    payloadBytes: number;
    /** The kind of the payload's encrypted part: what only its maker reads. */
    opaque: boolean;
  } | null;
}

/** An archived tool result: hidden from the model, a placeholder and a summary stand for it. */
export interface ArchivedResult {
  entryId: string | null;
  toolCallId: string;
  toolName: string;
  /** Tokens the result would cost if it were sent. */
  tokens: number;
  /** True when the session recorded it archived; false when the pipeline archives it now. */
  recorded: boolean;
}

/** A tool-result summary in the context. */
export interface ToolSummary {
  entryId: string | null;
  tokens: number;
  recorded: boolean;
  text: string;
}

/** One model call of the branch: the context the request carried, as the manager measures it. */
export interface TimelinePoint {
  /** 1-based model call number. */
  call: number;
  /** The assistant entry the call produced (`null` for the next request, after the last entry). */
  entryId: string | null;
  /** The manager's measure of the request (its `prepare().usage.tokens`, as `stats()` counts it). */
  tokens: number;
  /** What the provider reported for the call (input + cache), when recorded. */
  reported: number | null;
}

/** Everything `ctxkit inspect` and `ctxkit report` show about a session. */
export interface SessionInspection {
  session: {
    id: string;
    name: string | null;
    createdAt: number;
    source: LoadedSession['source'];
    entryCount: number;
    leafId: string | null;
  };
  model: {
    id: string | null;
    contextWindow: number | null;
    windowSource: ContextSettings['windowSource'];
  };
  context: {
    /** `stats().currentUsage`. */
    tokens: number;
    percent: number | null;
    source: 'usage' | 'estimate' | 'mixed';
    /** `stats().calibration`: the provider's count over the estimate, learned from the usage stored with the messages. */
    calibration: { ratio: number; samples: number };
    /** Messages sent to the model. */
    messageCount: number;
    /** The compaction limit (`null` without a window). */
    limit: number | null;
    /** Tokens from which the manager warns. */
    warningAt: number | null;
    level: 'ok' | 'warning' | 'compact';
    breakdown: {
      systemPrompt: TokenShare;
      tools: TokenShare;
      byRole: Record<string, TokenShare>;
      byKind: Record<string, TokenShare>;
      total: TokenShare;
    };
  };
  /** The messages of the current context, in order (archived results included, hidden). */
  messages: InspectedMessage[];
  compactions: InspectedCompaction[];
  archived: ArchivedResult[];
  toolSummaries: ToolSummary[];
  timeline: TimelinePoint[];
  branches: BranchInfo[];
  labels: LabelInfo[];
  warnings: LoadedSession['warnings'];
}
