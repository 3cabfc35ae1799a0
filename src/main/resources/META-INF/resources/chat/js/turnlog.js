// What a turn showed live that the thread's state does not keep: its re-plan notes (custom events), its wall time
// (measured by the page), and, for a stopped turn, its "Stopped" mark and the partial answer streamed before the stop
// (a cancelled node writes no message). The page keeps them in the thread's metadata (`chat_turns`, by run id, the
// newest 100), so a reload, or another tab, shows the turn as it was. Tokens and model latency are in the state's
// `llm_calls` already.
import { api } from "./api.js";

const KEEP = 100;

/** Adds one turn's record: {after (the id of the message it follows), wall, replans, stopped, partial}. */
export async function recordTurn(threadId, runId, record) {
  const thread = await api.getThread(threadId);
  const turns = { ...(thread.metadata?.chat_turns || {}), [runId]: record };
  const kept = Object.fromEntries(Object.entries(turns).slice(-KEEP));
  await api.patchMetadata(threadId, { chat_turns: kept });
}

export const turnsOf = (thread) => thread?.metadata?.chat_turns || {};
