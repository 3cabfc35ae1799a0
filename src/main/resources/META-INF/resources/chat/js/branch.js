// Where a conversation forks: LangGraph's way of editing and regenerating (agent-chat-ui does the same). A message's
// first-seen checkpoint is the oldest one whose values hold it; the checkpoint before that (its parent) is the
// state just before the message was added (see checkpointBefore for the first message). Editing a user message runs from that parent with the edited text as
// input; regenerating an answer runs from that parent with no input, so the node that wrote the answer runs again.

/**
 * The checkpoint before `messageId` was added: {checkpoint_id, values, next}, or null when the history does not
 * reach it. Conduit's input checkpoint already holds the run's input, so the first message of a thread has no
 * checkpoint before it: with `orReplace`, its first-seen checkpoint is answered instead, with `replace` = the
 * message's id (a message sent from there with that id takes its place: the messages channel replaces by id).
 */
export function checkpointBefore(history, messageId, orReplace = false) {
  // history is newest first: the last one holding the message is where it was first seen
  let firstSeen = null;
  for (const cp of history) if ((cp.values?.messages || []).some((m) => m.id === messageId)) firstSeen = cp;
  if (!firstSeen) return null;
  const parentId = firstSeen.parent_checkpoint?.checkpoint_id;
  const parent = parentId && history.find((cp) => cp.checkpoint?.checkpoint_id === parentId);
  if (parent) return { checkpoint_id: parentId, values: parent.values || {}, next: parent.next || [] };
  if (!orReplace) return null;
  const values = { ...firstSeen.values, messages: firstSeen.values.messages.filter((m) => m.id !== messageId) };
  return { checkpoint_id: firstSeen.checkpoint.checkpoint_id, values, next: firstSeen.next || [], replace: messageId };
}

/** The id of the `index`-th message of `type` ("human" or "ai" with text) in state: rows streamed live have none. */
export function messageIdAt(messages, type, index) {
  const text = (m) => typeof m.content === "string" ? m.content : (m.content || []).filter((b) => b.type === "text").map((b) => b.text).join("");
  const same = messages.filter((m) => m.type === type && (type !== "ai" || text(m)));
  return same[index]?.id ?? null;
}
