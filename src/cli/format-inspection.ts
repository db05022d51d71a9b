import type { InspectedCompaction, SessionInspection, TokenShare } from './inspect-session.js';
import { preview } from './message-text.js';

const number = (value: number) => Math.round(value).toLocaleString('en-US');
const percent = (share: TokenShare) => (share.percent === null ? '' : `${share.percent.toFixed(1)}%`);
const ROLE_LABELS: Record<string, string> = {
  user: 'User messages',
  assistant: 'Assistant messages',
  toolResult: 'Tool results',
};

/** Options of {@link formatInspection}. */
interface FormatInspectionOptions {
  /** Print whole checkpoints and summaries instead of their first lines. */
  full: boolean;
}

/**
 * Renders an inspection as the text `ctxkit inspect` prints.
 *
 * @internal
 */
export function formatInspection(inspection: SessionInspection, options: FormatInspectionOptions): string {
  const lines: string[] = [];
  const { session, model, context } = inspection;
  lines.push(
    `Session ${session.id}${session.name ? ` "${session.name}"` : ''} (${session.source.kind}: ${session.source.location})`,
  );
  lines.push(`  ${session.entryCount} entries, created ${new Date(session.createdAt).toISOString()}`);
  lines.push(`  Leaf ${session.leafId ?? '(none)'}`);
  if (model.contextWindow === null) {
    lines.push('  Window: unknown; pass --model <id> or --window <tokens> for percentages and limits');
  } else {
    const from = { option: '--window', model: '--model', session: 'the session', none: '' }[model.windowSource];
    lines.push(
      `  ${model.id ? `Model ${model.id}, window` : 'Window'} ${number(model.contextWindow)} tokens (from ${from})`,
    );
  }
  lines.push('');
  const sourceNote = { usage: 'provider usage', estimate: 'estimated', mixed: 'provider usage + estimate' }[
    context.source
  ];
  lines.push(
    `Context: ${number(context.tokens)} tokens${context.percent === null ? '' : `, ${context.percent.toFixed(1)}% of the window`} (${sourceNote}), ${context.messageCount} messages sent`,
  );
  if (context.calibration.samples > 0) {
    lines.push(
      `  Provider counts ${context.calibration.ratio.toFixed(2)}× the estimate (from ${context.calibration.samples} usage reports); estimates grow by it`,
    );
  }
  if (context.limit !== null) {
    lines.push(
      `  Compaction at ${number(context.limit)} tokens, warning at ${number(context.warningAt ?? 0)}: level ${context.level}`,
    );
  }
  lines.push('', 'Breakdown (estimated)                    tokens   window');
  const row = (label: string, share: TokenShare, indent = '  ') =>
    `${indent}${label.padEnd(36 - indent.length + 2)}${number(share.tokens).padStart(10)}${percent(share).padStart(9)}`;
  const { breakdown } = context;
  lines.push(row('System prompt', breakdown.systemPrompt));
  lines.push(row('Tool definitions', breakdown.tools));
  for (const [role, share] of Object.entries(breakdown.byRole)) lines.push(row(ROLE_LABELS[role] ?? role, share));
  const kinds = Object.entries(breakdown.byKind);
  if (kinds.length > 0) {
    lines.push('  By kind:');
    for (const [kind, share] of kinds) lines.push(row(kind, share, '    '));
  }
  lines.push(row('Total', breakdown.total));

  lines.push('', `Compactions on this branch: ${inspection.compactions.length}`);
  inspection.compactions.forEach((compaction, index) => {
    lines.push(...formatCompaction(compaction, index + 1, options));
  });

  lines.push('', `Archived tool results: ${inspection.archived.length}`);
  for (const archived of inspection.archived) {
    lines.push(
      `  ${archived.toolName} (call ${archived.toolCallId}, entry ${archived.entryId ?? '?'}): ${number(archived.tokens)} tokens, ${archived.recorded ? 'archived in the session' : 'archived by the pipeline now'}`,
    );
  }
  if (inspection.toolSummaries.length > 0) {
    lines.push(`  Summaries standing for them: ${inspection.toolSummaries.length}`);
    for (const summary of inspection.toolSummaries) {
      lines.push(
        `  - ${number(summary.tokens)} tokens, ${summary.recorded ? `entry ${summary.entryId}` : 'written by the heuristic summarizer now'}:`,
      );
      lines.push(...indentText(summary.text, '      ', options.full ? Number.POSITIVE_INFINITY : 6));
    }
  }

  lines.push('', `Branches: ${inspection.branches.length}`);
  for (const branch of inspection.branches) {
    const parts = [
      `${branch.current ? '*' : ' '} ${branch.leafId}`,
      `${branch.entryCount} entries`,
      branch.forkedAt === null ? '' : `forked at ${branch.forkedAt}`,
      branch.labels.length === 0 ? '' : `labels: ${branch.labels.join(', ')}`,
      branch.lastMessage === null ? '' : `"${branch.lastMessage}"`,
    ];
    lines.push(`  ${parts.filter(Boolean).join('  ')}`);
  }
  if (inspection.labels.length > 0) {
    lines.push('', `Labels: ${inspection.labels.length}`);
    for (const label of inspection.labels) lines.push(`  ${label.targetId}  ${label.label}`);
  }
  return lines.join('\n');
}

function formatCompaction(
  compaction: InspectedCompaction,
  position: number,
  options: FormatInspectionOptions,
): string[] {
  const count = (fate: string) => compaction.replaced.filter((message) => message.fate === fate).length;
  const kept = compaction.replaced.filter((message) => message.fate === 'kept');
  const lines = [
    `  #${position} entry ${compaction.entryId}, ${new Date(compaction.timestamp).toISOString()}, before model call ${compaction.beforeCall}`,
    `     reason: ${compaction.reason ?? 'not recorded'}; ${number(compaction.tokensBefore)} → ${number(compaction.tokensAfter)} tokens${compaction.tokensAfterSource === 'measured' ? ' (after: measured now)' : ''}`,
    ...(compaction.native
      ? [
          `     native: made by ${compaction.native.provider} ${compaction.native.model} (${compaction.native.api}), payload ${number(compaction.native.payloadBytes)} bytes${compaction.native.usage ? `, cost ${number(compaction.native.usage.input)} in / ${number(compaction.native.usage.output)} out tokens` : ''}${compaction.checkpoint === '' ? '; readable summary not written yet (opaque item)' : ''}`,
        ]
      : []),
    `     summarized ${count('summarized')} messages${count('previous-summary') > 0 ? ' and the previous checkpoint' : ''}, ${count('archived')} archived tool results, kept ${kept.length} verbatim from entry ${compaction.firstKeptEntryId}:`,
  ];
  for (const message of kept) lines.push(`       ${message.label.padEnd(22)} ${preview(message.text, 70)}`);
  lines.push('     Checkpoint:');
  lines.push(...indentText(compaction.checkpoint, '       ', options.full ? Number.POSITIVE_INFINITY : 12));
  return lines;
}

function indentText(text: string, indent: string, maxLines: number): string[] {
  const lines = text.split('\n');
  const shown = lines.slice(0, maxLines).map((line) => `${indent}${line}`);
  if (lines.length > maxLines) shown.push(`${indent}… ${lines.length - maxLines} more lines (--full shows them)`);
  return shown;
}
