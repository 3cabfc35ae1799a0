// What a turn showed live that the thread's state does not keep: its re-plan notes (custom events), its wall time
// (measured by the page), and, for a stopped turn, its "Stopped" mark and the partial answer streamed before the stop
// (a cancelled node writes no message). The page keeps them in the thread's metadata (`chat_turns`, by run id, the
// newest 100), so a reload, or another tab, shows the turn as it was. Tokens and model latency are in the state's
// `llm_calls` already. showTurns draws the records again under the conversation (a Conversation) after a reload.
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

/** Each recorded turn after the message it follows: its partial answer and "Stopped", re-plan notes, usage. */
export function showTurns(c, turns, llmCalls, messages = []) {
  for (const [runId, t] of Object.entries(turns)) {
    const anchor = shownAt(c, messages, t.after);
    if (!anchor || !anchor.isConnected) continue; // a turn of another branch
    const shown = [];
    if (t.stopped && t.partial) {
      const m = c.assistant("stopped:" + runId, t.partial, true);
      shown.push(m.node);
    }
    const replans = (t.replans || []).map((text) => c.note(text, "note replan"));
    if (t.stopped) shown.push(c.note("Stopped", "note"));
    const calls = (llmCalls || []).filter((call) => call.runId === runId);
    const usage = c.usage(calls, t.wall ?? null);
    if (usage) shown.push(usage);
    if (anchor.classList.contains("ai") && !t.stopped) anchor.before(...replans);
    else shown.splice(t.stopped && t.partial ? 1 : 0, 0, ...replans);
    anchor.after(...shown);
  }
}

/** The node that shows the message `id` of `messages`, or the nearest one before it (a tool call shows as its card). */
function shownAt(c, messages, id) {
  const at = messages.findIndex((m) => m.id === id);
  for (let i = at; i >= 0; i--) {
    const m = messages[i];
    const node = c.messages.get(m.id)?.node || c.cards.get(m.tool_call_id)?.node
      || c.cards.get(m.tool_calls?.at(-1)?.id)?.node;
    if (node?.isConnected && !node.hidden) return node;
  }
  return null;
}

