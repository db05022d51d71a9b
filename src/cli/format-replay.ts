import type { ReplayResult } from './replay-session.js';

const number = (value: number) => Math.round(value).toLocaleString('en-US');

/**
 * Renders a replay as the text `ctxkit replay` prints.
 *
 * @internal
 */
export function formatReplay(replay: ReplayResult): string {
  const { settings } = replay;
  const lines = [
    `Replay of session ${replay.sessionId}: ${replay.messageCount} messages, ${replay.calls.length} model calls (the last is the next request)`,
    `Settings: ${settings.model ? `model ${settings.model}, ` : ''}window ${settings.contextWindow === null ? 'unknown' : number(settings.contextWindow)}, compaction at ${settings.limit === null ? 'no token limit' : number(settings.limit)} (reserve ${number(settings.reserveTokens)}${settings.compactionThreshold === null ? '' : `, threshold ${settings.compactionThreshold}`}), warning at ${settings.warningAt === null ? '-' : number(settings.warningAt)}, keep recent ${number(settings.keepRecentTokens)} tokens, tool-call cutoff ${settings.toolCallCutoff}`,
    '',
    `Compaction would fire ${replay.compactions.filter((compaction) => compaction.error === null).length} times (the session recorded ${replay.recorded.length}); ${replay.archivedToolResults} tool results archived`,
  ];
  for (const compaction of replay.compactions) {
    lines.push(
      `  before call ${compaction.beforeCall}${compaction.entryId ? ` (entry ${compaction.entryId})` : ''}: ${compaction.reason}, ${number(compaction.tokensBefore)} → ${number(compaction.tokensAfter)} tokens, ${compaction.messagesBefore} → ${compaction.messagesAfter} messages${compaction.error === null ? (compaction.belowLimit ? '' : ', still over the limit') : `, FAILED: ${compaction.error}`}`,
    );
  }
  if (replay.recorded.length > 0) {
    lines.push('Recorded compactions:');
    for (const recorded of replay.recorded) {
      lines.push(
        `  before call ${recorded.beforeCall} (entry ${recorded.entryId}): ${number(recorded.tokensBefore)} tokens before`,
      );
    }
  }
  lines.push('', '  call      tokens   window  level');
  const fired = new Set(replay.compactions.map((compaction) => compaction.beforeCall));
  for (const call of replay.calls) {
    lines.push(
      `  ${String(call.call).padStart(4)}${number(call.tokens).padStart(12)}${(call.percent === null ? '-' : `${call.percent.toFixed(1)}%`).padStart(9)}  ${call.level}${fired.has(call.call) ? '  ◆ compacted before this call' : ''}`,
    );
  }
  return lines.join('\n');
}
