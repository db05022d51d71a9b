/** The pure functions' cost per message against history size (warm caches: the same messages each call). */
import {
  estimateContextTokens,
  type Message,
  prepareModelMessages,
  referenceCounter,
  splitByTokenBudget,
  summarizeToolResults,
} from '../src/index.js';
import { realisticHistory } from './histories.js';
import { sample } from './measure.js';

export const PURE_SIZES = [1_000, 14_000, 100_000];

export interface PureRow {
  name: string;
  /** Nanoseconds per message at each size of {@link PURE_SIZES}. */
  perMessage: number[];
}

const FUNCTIONS: { name: string; run: (messages: Message[]) => unknown }[] = [
  { name: 'prepareModelMessages', run: (messages) => prepareModelMessages(messages) },
  { name: 'estimateContextTokens', run: (messages) => estimateContextTokens(messages, { counter: referenceCounter }) },
  {
    name: 'splitByTokenBudget (20k)',
    run: (messages) => splitByTokenBudget(messages, { budget: 20_000, counter: referenceCounter }),
  },
  {
    name: 'summarizeToolResults (heuristic, cutoff 10)',
    run: (messages) => summarizeToolResults(messages, { strategy: 'heuristic', cutoff: 10 }),
  },
];

export async function measurePureFunctions(budgetMs: number): Promise<PureRow[]> {
  const histories = PURE_SIZES.map((size) => realisticHistory(size, 'unique', 31).history);
  const rows: PureRow[] = [];
  for (const { name, run } of FUNCTIONS) {
    const perMessage: number[] = [];
    for (const history of histories) {
      await run(history); // warm the per-message caches
      const samples = await sample(10, () => run(history), { budgetMs, minimum: 1 });
      perMessage.push((samples.median * 1e6) / history.length);
    }
    rows.push({ name, perMessage });
  }
  return rows;
}
