/**
 * `npm run bench:recount`: what a host that converts its SDK messages to ctxkit messages every turn
 * (`fromModelMessages(sdkMessages)`, new objects each time) pays in `prepare`, beside a host that
 * passes the same objects again. Also splits the converted call into its parts: checking the
 * messages, counting them, projecting them. Prints a table (no file written).
 */
import { fromModelMessages, toModelMessages } from '../src/ai-sdk/index.js';
import { countMessageTokens } from '../src/counting/count-message-tokens.js';
import { approximateCounter, type Message, referenceCounter, type TokenCounter } from '../src/index.js';
import { assertMessage } from '../src/validation/assert-messages.js';
import { realisticHistory } from './histories.js';
import { defaultManager } from './managers.js';
import { formatTime, sample } from './measure.js';

const SIZES = [500, 2_000];
const TURNS = 30;

async function measure(size: number, counterName: string, counter: TokenCounter) {
  const { history, mix } = realisticHistory(size, 'unique');
  // The host keeps SDK messages; ctxkit's are converted from them each turn.
  const sdk = toModelMessages({ messages: history }).messages;

  // Same objects: the host keeps ctxkit messages and appends one user message per turn.
  const same = defaultManager(counter);
  const sameHistory = [...history];
  await same.prepare(sameHistory);
  const sameObjects = await sample(TURNS, async () => {
    sameHistory.push(mix.userMessage());
    await same.prepare(sameHistory);
  });

  // Converted: the host appends to its SDK list and converts the whole list before each call.
  const converted = defaultManager(counter);
  await converted.prepare(fromModelMessages(sdk).messages);
  let input: Message[] = [];
  const convertedCall = await sample(TURNS, () => converted.prepare(input), {
    before: () => {
      sdk.push(...toModelMessages({ messages: [mix.userMessage()] }).messages);
      input = fromModelMessages(sdk).messages;
    },
  });
  const conversion = await sample(TURNS, () => fromModelMessages(sdk));

  // The parts of a converted call: checking every message, counting every message.
  const fresh = fromModelMessages(sdk).messages;
  const checking = await sample(TURNS, () => {
    for (let index = 0; index < fresh.length; index++) assertMessage(fresh[index], 'bench', index);
  });
  const counting = await sample(TURNS, () => {
    let sum = 0;
    for (const message of fresh) sum += countMessageTokens(message, counter);
    return sum;
  });
  return { size, counterName, sameObjects, convertedCall, conversion, checking, counting };
}

const rows = [];
for (const size of SIZES) {
  for (const [name, counter] of [
    ['approximate', approximateCounter],
    ['reference', referenceCounter],
  ] as const) {
    rows.push(await measure(size, name, counter));
  }
}
console.log(
  '| messages | counter | prepare, same objects | prepare, converted input | conversion (host) | check all | count all |',
);
console.log('|---:|---|---:|---:|---:|---:|---:|');
for (const row of rows) {
  console.log(
    `| ${row.size} | ${row.counterName} | ${formatTime(row.sameObjects.median)} | ${formatTime(row.convertedCall.median)} | ${formatTime(row.conversion.median)} | ${formatTime(row.checking.median)} | ${formatTime(row.counting.median)} |`,
  );
}
